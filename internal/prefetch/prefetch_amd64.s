// Prefetching a cache line on amd64.

#include "textflag.h"

// func Line(addr *uint64)
TEXT ·Line(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ addr+0(FP), AX
	PREFETCHT0 (AX)
	RET
