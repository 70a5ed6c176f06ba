package testdeep

import "testing"

func TestEnabledFollowsTheVariable(t *testing.T) {
	t.Setenv(Env, "1")
	if !Enabled() {
		t.Error("DOSSIER_DEEP_TESTS=1: not enabled")
	}
	for _, v := range []string{"", "0", "yes"} {
		t.Setenv(Env, v)
		if Enabled() {
			t.Errorf("DOSSIER_DEEP_TESTS=%q: enabled", v)
		}
	}
}

func TestSkipSkipsUnlessEnabled(t *testing.T) {
	t.Setenv(Env, "")
	ran := false
	t.Run("plain", func(t *testing.T) {
		Skip(t)
		ran = true
	})
	if ran {
		t.Error("Skip let a deep test run without the variable")
	}
	t.Setenv(Env, "1")
	t.Run("deep", func(t *testing.T) {
		Skip(t)
		ran = true
	})
	if !ran {
		t.Error("Skip skipped a deep test with the variable set")
	}
}
