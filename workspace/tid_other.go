//go:build !linux && !windows

package workspace

import "runtime"

// threadID stands in for the OS thread id where x/sys offers none (darwin, the
// BSDs, wasm and others): it is the calling goroutine's id, read from the head
// of its stack trace ("goroutine 17 [running]:"). Pool workers are locked to
// their threads for life, so for them it names the thread just as well. It is
// only called when a traced arena grows, never on a hot path.
func threadID() int {
	var buf [64]byte
	s := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if len(s) < len(prefix) || string(s[:len(prefix)]) != prefix {
		return 0
	}
	id := 0
	for _, c := range s[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int(c-'0')
	}
	return id
}
