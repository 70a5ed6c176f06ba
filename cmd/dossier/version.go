// The engine's version and the start-up line it prints, so that a first run shows it is alive.

package main

import (
	"fmt"
	"runtime/debug"
)

// version is set at link time (go build -ldflags "-X main.version=v1.0"); empty, the build information's module
// version stands for it, and "dev" when there is none.
var version string

// banner is the first line the engine writes, in the form Stockfish uses; GUIs ignore it.
func banner() string {
	return fmt.Sprintf("dossier %s by the dossier authors", versionString())
}

// versionString returns the link-time version, else the module version Go stamped into the build (a tag or a
// pseudo-version from the commit, when built with VCS stamping), else "dev".
func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}
