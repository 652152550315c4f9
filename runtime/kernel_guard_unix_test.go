//go:build unix

package runtime

import (
	"testing"

	"golang.org/x/sys/unix"
)

// guarded returns n bytes between PROT_NONE pages, ending exactly where the
// upper one begins (atEnd) or starting exactly where the lower one ends, so
// a kernel that reads past that end of a packed sliver faults.
func guarded(t testing.TB, n int, atEnd bool) []byte {
	page := unix.Getpagesize()
	data := (n + page - 1) / page * page
	mem, err := unix.Mmap(-1, 0, data+2*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Munmap(mem) })
	if err := unix.Mprotect(mem[:page], unix.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mprotect(mem[page+data:], unix.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	body := mem[page : page+data : page+data]
	if atEnd {
		return body[data-n:]
	}
	return body[:n:n]
}
