package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/platen/platen/internal/testnode"
)

// loginSeams replaces login's standard input, stderr and terminal test for
// one test.
func loginSeams(t *testing.T, stdin string, terminal bool) *bytes.Buffer {
	t.Helper()
	in, errOut, term := loginStdin, loginStderr, stdinTerminal
	t.Cleanup(func() { loginStdin, loginStderr, stdinTerminal = in, errOut, term })
	var stderr bytes.Buffer
	loginStdin, loginStderr = strings.NewReader(stdin), &stderr
	stdinTerminal = func() bool { return terminal }
	return &stderr
}

// savedKey is the key of the profile file's profile name.
func savedKey(t *testing.T, name string) string {
	t.Helper()
	pf, _, err := loadProfiles()
	if err != nil {
		t.Fatal(err)
	}
	if p := pf.Profiles[name]; p != nil {
		return p.Key
	}
	return ""
}

// TestLoginTakesTheKeyOffTheCommandLine is platen login without the key in
// its arguments (where ps shows it): from PLATEN_API_KEY, from standard
// input when it is not a terminal (--key - or no --key), or at a prompt on
// a terminal. --key KEY still works.
func TestLoginTakesTheKeyOffTheCommandLine(t *testing.T) {
	cliEnv(t)
	n := testnode.Start(t, nil)

	t.Run("environment", func(t *testing.T) {
		stderr := loginSeams(t, "", false)
		t.Setenv("PLATEN_API_KEY", n.Key)
		mustCLI(t, "login", "--url", n.URL, "--profile", "env")
		if savedKey(t, "env") != n.Key {
			t.Fatal("the key from PLATEN_API_KEY was not saved")
		}
		if stderr.Len() != 0 {
			t.Fatalf("stderr: %q", stderr)
		}
	})
	for _, args := range [][]string{{"--key", "-"}, nil} {
		t.Run("stdin "+strings.Join(args, " "), func(t *testing.T) {
			t.Setenv("PLATEN_API_KEY", "")
			stderr := loginSeams(t, n.Key+"\n", false)
			mustCLI(t, append([]string{"login", "--url", n.URL, "--profile", "pipe"}, args...)...)
			if savedKey(t, "pipe") != n.Key {
				t.Fatal("the key from standard input was not saved")
			}
			if stderr.Len() != 0 {
				t.Fatalf("a pipe was prompted: %q", stderr)
			}
		})
	}
	t.Run("stdin over the environment with --key -", func(t *testing.T) {
		t.Setenv("PLATEN_API_KEY", "plt_"+strings.Repeat("x", 43))
		loginSeams(t, n.Key+"\n", false)
		mustCLI(t, "login", "--url", n.URL, "--profile", "dash", "--key", "-")
		if savedKey(t, "dash") != n.Key {
			t.Fatal("--key - did not read standard input")
		}
	})
	t.Run("prompt", func(t *testing.T) {
		t.Setenv("PLATEN_API_KEY", "")
		stderr := loginSeams(t, n.Key+"\n", true)
		mustCLI(t, "login", "--url", n.URL, "--profile", "typed")
		if savedKey(t, "typed") != n.Key || !strings.Contains(stderr.String(), "API key:") {
			t.Fatalf("prompt %q, saved %v", stderr, savedKey(t, "typed") == n.Key)
		}
	})
	t.Run("nothing given", func(t *testing.T) {
		t.Setenv("PLATEN_API_KEY", "")
		loginSeams(t, "", false)
		if _, err := cli(t, "login", "--url", n.URL, "--profile", "none"); err == nil || !strings.Contains(err.Error(), "no API key") {
			t.Fatalf("login with no key: %v", err)
		}
		if savedKey(t, "none") != "" {
			t.Fatal("saved a profile without a key")
		}
	})
	t.Run("flag", func(t *testing.T) {
		stderr := loginSeams(t, "", false)
		mustCLI(t, "login", "--url", n.URL, "--profile", "flag", "--key", n.Key)
		if savedKey(t, "flag") != n.Key || strings.Contains(stderr.String(), "warning") {
			t.Fatalf("--key: saved %v, stderr %q", savedKey(t, "flag") == n.Key, stderr)
		}
	})
	t.Run("help", func(t *testing.T) {
		if !strings.Contains(loginUsage, "PLATEN_API_KEY") || !strings.Contains(loginUsage, "(ps)") {
			t.Fatalf("the help does not say where the key comes from, or that --key shows in ps:\n%s", loginUsage)
		}
	})
}

// TestLoginWarnsOfPlainHTTPToAnotherHost: the key would cross the network
// unencrypted; loopback is not warned of.
func TestLoginWarnsOfPlainHTTPToAnotherHost(t *testing.T) {
	for u, want := range map[string]bool{
		"http://platen.example":   true,
		"http://10.0.0.5:8080":    true,
		"HTTP://Platen.Example/":  true,
		"http://[2001:db8::1]:80": true,
		"https://platen.example":  false,
		"http://127.0.0.1:8080":   false,
		"http://127.9.9.9":        false,
		"http://[::1]:8080":       false,
		"http://localhost:8080":   false,
		"http://a.localhost":      false,
	} {
		if got := plainRemote(u); got != want {
			t.Errorf("plainRemote(%q) = %v, want %v", u, got, want)
		}
	}
	cliEnv(t)
	stderr := loginSeams(t, "", false)
	// Nothing listens there: the warning comes before the attempt.
	if _, err := cli(t, "login", "--url", "http://platen.invalid:1", "--key", "plt_"+strings.Repeat("x", 43), "--json"); err == nil {
		t.Fatal("login to nowhere succeeded")
	}
	if !strings.Contains(stderr.String(), "warning") || !strings.Contains(stderr.String(), "http://platen.invalid:1") {
		t.Fatalf("no warning on stderr: %q", stderr)
	}
}
