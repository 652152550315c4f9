// Command tcontract describes the machine the library runs on and
// benchmarks it:
//
//	tcontract info     CPU, ISA path, kernels, blocksizes, caches, pool
//	tcontract peak     the FMA peak probe per ISA path and real type
//	tcontract bench    GEMM and TCCG contractions: GFLOP/s, fraction of peak,
//	                   ratio to a GEMM of the same m, n, k
//
// Run "tcontract <command> -h" for a command's flags.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes.
const (
	exitOK          = 0
	exitFail        = 1   // the library reported an error, or output failed
	exitUsage       = 2   // bad command, flag or argument
	exitInterrupted = 130 // stopped by a signal after the case in flight
)

func main() {
	// The first Ctrl-C cancels ctx; bench finishes the case in flight and
	// prints what it has. stop restores the default so a second one kills.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole command, with its exit code returned rather than taken,
// so tests drive it like a user does.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "bench":
		return runBench(ctx, args[1:], stdout, stderr)
	case "peak":
		return runPeak(ctx, args[1:], stdout, stderr)
	case "info":
		return runInfo(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	fmt.Fprintf(stderr, "tcontract: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: tcontract <command> [flags]

commands:
  bench   benchmark GEMM sizes and the TCCG contractions (the default suite
          takes about a minute); GFLOP/s, fraction of the peak measured in
          the same run, and ratio to a GEMM of the same m, n, k
  peak    the FMA peak probe of every ISA path this machine runs, per real
          type, on 1 thread and on all threads
  info    CPU model and features, the ISA path chosen and why, kernel tiles
          and blocksizes, cache sizes and their source, pool size

Run "tcontract <command> -h" for its flags.
`)
}
