package workspace

import "golang.org/x/sys/unix"

// threadID names the OS thread running the caller. Pool workers are locked to
// their threads, so this is the thread whose first touch places their pages.
func threadID() int { return unix.Gettid() }
