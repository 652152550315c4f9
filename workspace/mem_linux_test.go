package workspace

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident reports how many pages of b are in memory, or an error such as
// ENOMEM when part of the range is not mapped at all.
func resident(b []byte) (int, error) {
	pages := (len(b) + unix.Getpagesize() - 1) / unix.Getpagesize()
	vec := make([]byte, pages)
	_, _, errno := unix.Syscall(unix.SYS_MINCORE, addr(b), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0])))
	if errno != 0 {
		return 0, errno
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n, nil
}

// TestFirstTouchInTheCallback shows the pages of a grown buffer are not in
// memory until the worker writes them: the arena neither zeroes nor touches
// them, so the locked thread that runs the callback is the one that places
// them, and the traced growth names that thread.
func TestFirstTouchInTheCallback(t *testing.T) {
	a := NewTracedArena()
	done := make(chan error)
	var tid int
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		tid = unix.Gettid()
		w := a.NewWorker()
		var err error
		a.WithWorker(w, Req{ABytes: 64 << 10, TileBytes: 16 << 10}, func(b WorkerBufs) {
			for _, buf := range [][]byte{b.A, b.Tile} {
				n, e := resident(buf)
				if e != nil || n != 0 {
					err = fmt.Errorf("before the first write: %d pages resident (%v)", n, e)
					return
				}
				fill(buf, 1)
				if n, e := resident(buf); e != nil || n != len(buf)/unix.Getpagesize() {
					err = fmt.Errorf("after writing: %d pages resident (%v)", n, e)
					return
				}
			}
		})
		done <- err
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, g := range a.TraceTake() {
		if g.Thread != tid {
			t.Fatalf("growth %+v not made by the worker's thread %d", g, tid)
		}
	}
}

// TestTrimUnmaps checks that trimming returns the exact mapping to the OS.
func TestTrimUnmaps(t *testing.T) {
	a := NewArena()
	w := a.NewWorker()
	var kept []byte
	a.WithWorker(w, Req{ABytes: 1 << 20}, func(b WorkerBufs) { kept = b.A })
	if _, err := resident(kept); err != nil {
		t.Fatalf("buffer not mapped: %v", err)
	}
	a.Trim()
	if _, err := resident(kept); err != unix.ENOMEM {
		t.Fatalf("after trim, mincore says %v, want ENOMEM (unmapped)", err)
	}
}

// vmFlags returns the VmFlags line of the mapping that holds p.
func vmFlags(p uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		// A mapping's header starts with its range; its detail lines start
		// with a "Key:" field.
		if f := strings.Fields(line); len(f) > 0 && !strings.HasSuffix(f[0], ":") {
			var lo, hi uintptr
			if _, err := fmt.Sscanf(f[0], "%x-%x", &lo, &hi); err != nil {
				return "", fmt.Errorf("smaps header %q: %v", line, err)
			}
			in = lo <= p && p < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return line, nil
		}
	}
	return "", fmt.Errorf("no mapping holds %#x", p)
}

// TestLargeBuffersAdvisedHuge checks the kernel recorded the huge-page advice
// ("hg" in VmFlags) for a large buffer exactly as it does for a control
// mapping advised directly, and never for a small buffer. The control keeps
// the test honest where advice is not passed on (a kernel without transparent
// huge pages, or user-mode emulation): there neither shows the flag.
func TestLargeBuffersAdvisedHuge(t *testing.T) {
	control, err := unix.Mmap(-1, 0, 4<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(control)
	madviseErr := unix.Madvise(control, unix.MADV_HUGEPAGE)
	var big, small pageBuf
	defer big.release()
	defer small.release()
	b := big.ensure(4<<20, nil)
	s := small.ensure(64<<10, nil)
	var flags [3]string
	for i, p := range []uintptr{addr(control), addr(b), addr(s)} {
		if flags[i], err = vmFlags(p); err != nil {
			t.Fatal(err)
		}
	}
	hg := func(f string) bool { return strings.Contains(f+" ", " hg ") }
	t.Logf("control advised (madvise error %v): %v", madviseErr, hg(flags[0]))
	if hg(flags[1]) != hg(flags[0]) {
		t.Fatalf("large buffer %q, control %q: advice differs", flags[1], flags[0])
	}
	if hg(flags[2]) {
		t.Fatalf("small buffer advised: %s", flags[2])
	}
}
