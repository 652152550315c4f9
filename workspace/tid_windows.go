package workspace

import "golang.org/x/sys/windows"

// threadID names the OS thread running the caller.
func threadID() int { return int(windows.GetCurrentThreadId()) }
