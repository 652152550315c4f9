//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestBenchSignal: Ctrl-C (SIGINT) in the middle of a suite stops it after
// the unit in flight, prints what was measured, and exits 130. The 12
// units after the first take 150 ms each at least, so the signal has
// nearly two seconds to arrive before the suite could end on its own,
// even on a loaded machine.
func TestBenchSignal(t *testing.T) {
	cmd := mainCmd(t, nil, "bench", "-types", "float64", "-threads", "1", "-sizes", "8,9,10,11,12,13,14,15,16,17,18,19,20",
		"-cases", "none", "-reps", "1", "-time", "150ms", "-format", "json", "-progress", "on")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	pr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The progress bar says when the first measurement is done.
	r := bufio.NewReader(pr)
	var seen strings.Builder
	for !strings.Contains(seen.String(), "] 1/13") {
		b, err := r.ReadByte()
		if err != nil {
			cmd.Process.Kill()
			t.Fatalf("stderr ended before the first measurement: %q (%v)", seen.String(), err)
		}
		seen.WriteByte(b)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(r)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit: %v, want code %d; stderr %q", err, exitInterrupted, seen.String()+string(rest))
	}
	var rep report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("no report after the interrupt: %v\n%s", err, stdout.String())
	}
	if !rep.Interrupted || len(rep.Results) == 0 || len(rep.Results) == 13 || rep.Done != len(rep.Results) {
		t.Errorf("report: interrupted %v, %d rows, %d done", rep.Interrupted, len(rep.Results), rep.Done)
	}
	if !strings.Contains(string(rest), "interrupted:") {
		t.Errorf("stderr after the signal: %q", rest)
	}
}
