package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// asMainEnv makes the test binary run the command itself: the tests that
// need a fresh process (an environment read at start, a real signal) start
// it again with this set.
const asMainEnv = "TCONTRACT_CMD_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// runCmd runs the command in this process, as a user would type args.
func runCmd(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

// mainCmd prepares the command as its own process with extra environment.
func mainCmd(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), asMainEnv+"=1"), env...)
	return cmd
}

func TestUsage(t *testing.T) {
	code, _, stderr := runCmd(t, context.Background())
	if code != exitUsage || !strings.Contains(stderr, "usage: tcontract <command>") {
		t.Errorf("no arguments: code %d, stderr %q; want %d and the usage", code, stderr, exitUsage)
	}
	code, stdout, _ := runCmd(t, context.Background(), "help")
	if code != exitOK || !strings.Contains(stdout, "bench") || !strings.Contains(stdout, "peak") || !strings.Contains(stdout, "info") {
		t.Errorf("help: code %d, stdout %q", code, stdout)
	}
	for _, cmd := range []string{"bench", "peak", "info"} {
		code, _, stderr := runCmd(t, context.Background(), cmd, "-h")
		if code != exitOK || !strings.Contains(stderr, "usage: tcontract "+cmd) {
			t.Errorf("%s -h: code %d, stderr %q", cmd, code, stderr)
		}
	}
}

// TestBadInput: every mistake gets a message naming it and a non-zero
// exit, before anything is measured.
func TestBadInput(t *testing.T) {
	missing := t.TempDir() + "/missing/bench.png"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"bench", "-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"bench", "extra"}, `unexpected argument "extra"`},
		{[]string{"bench", "-types", "float16"}, `-types: unknown type "float16"`},
		{[]string{"bench", "-types", ","}, "-types: no types given"},
		{[]string{"bench", "-threads", "0"}, `-threads: bad thread count "0"`},
		{[]string{"bench", "-threads", "two"}, `-threads: bad thread count "two"`},
		{[]string{"bench", "-sizes", "12x3"}, `-sizes: bad size "12x3"`},
		{[]string{"bench", "-sizes", "0"}, `-sizes: bad size "0"`},
		{[]string{"bench", "-cases", "999"}, `-cases: unknown case "999"`},
		{[]string{"bench", "-cases", "ab-xy-zz"}, `-cases: unknown case "ab-xy-zz"`},
		{[]string{"bench", "-sizes", "none", "-cases", "none"}, "nothing to run"},
		{[]string{"bench", "-scale", "0"}, "-scale 0: want a factor > 0"},
		{[]string{"bench", "-reps", "0"}, "-reps 0: want at least 1"},
		{[]string{"bench", "-time", "0s"}, "-time 0s: want a positive duration"},
		{[]string{"bench", "-budget", "-1s"}, "-budget -1s: want a duration >= 0"},
		{[]string{"bench", "-warm", "-1s"}, "-warm -1s: want a duration >= 0"},
		{[]string{"bench", "-stat", "mean"}, `-stat "mean": want best or median`},
		{[]string{"bench", "-format", "xml"}, `-format "xml": want table, csv or json`},
		{[]string{"bench", "-progress", "maybe"}, `-progress "maybe"`},
		{[]string{"bench", "-plot", "bench.gif"}, "name it *.png"},
		{[]string{"bench", "-plot", missing}, "no such directory"},
		{[]string{"peak", "-threads", "x"}, `-threads: bad thread count "x"`},
		{[]string{"peak", "-isa", "sse9"}, `-isa: unknown path "sse9"`},
		{[]string{"peak", "-format", "yaml"}, `-format "yaml"`},
		{[]string{"peak", "extra"}, `unexpected argument "extra"`},
		{[]string{"info", "extra"}, `unexpected argument "extra"`},
		{[]string{"info", "-v"}, "flag provided but not defined: -v"},
	} {
		code, stdout, stderr := runCmd(t, context.Background(), tc.args...)
		if code != exitUsage {
			t.Errorf("%q: exit code %d, want %d", tc.args, code, exitUsage)
		}
		if !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: stderr %q does not say %q", tc.args, stderr, tc.want)
		}
		if stdout != "" {
			t.Errorf("%q: wrote %q to stdout", tc.args, stdout)
		}
	}
}

// TestBadISA: a TCONTRACT_ISA the machine cannot run fails bench with the
// library's reason (the choice is read once, at start: a fresh process).
func TestBadISA(t *testing.T) {
	cmd := mainCmd(t, []string{"TCONTRACT_ISA=sse9"}, "bench", "-sizes", "8", "-cases", "none", "-reps", "1", "-time", "1ms")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitFail {
		t.Fatalf("TCONTRACT_ISA=sse9 bench: %v, want exit code %d", err, exitFail)
	}
	if !strings.Contains(stderr.String(), `TCONTRACT_ISA="sse9" is not a path`) {
		t.Errorf("stderr %q does not give the reason", stderr.String())
	}
}
