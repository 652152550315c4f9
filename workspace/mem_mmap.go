//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package workspace

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapGranule is the smallest capacity a buffer has: one OS page, which is
// what a mapping really costs even when less was asked for, so the accounting
// tells the truth on systems with pages larger than 4096 bytes too.
var mapGranule = max(pageSize, unix.Getpagesize())

// osMap maps n bytes (a multiple of the page size) of private anonymous
// memory. The kernel hands out pages on first write, so the goroutine that
// first writes a buffer decides where its pages live, and nothing is zeroed
// twice. Buffers of at least hugeSize bytes are placed on a hugeSize boundary
// and advised as huge-page candidates: an unaligned mapping could never be
// backed by a whole huge page at its ends, and huge pages spare the TLB misses
// that a large packed panel otherwise costs.
//
// The raw-pointer calls are used rather than unix.Mmap because trimming the
// unaligned head and tail leaves a mapping unix.Munmap's bookkeeping does not
// know; osUnmap releases exactly the range osMap returned.
func osMap(n int) ([]byte, error) {
	huge := hugeSize > 0 && n >= hugeSize
	span := n
	if huge {
		span += hugeSize
	}
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(span), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, err
	}
	if huge {
		head := (hugeSize - int(uintptr(p)%uintptr(hugeSize))) % hugeSize
		if head > 0 {
			if err := unix.MunmapPtr(p, uintptr(head)); err != nil {
				return nil, err
			}
		}
		if tail := span - head - n; tail > 0 {
			if err := unix.MunmapPtr(unsafe.Add(p, head+n), uintptr(tail)); err != nil {
				return nil, err
			}
		}
		p = unsafe.Add(p, head)
	}
	b := unsafe.Slice((*byte)(p), n)
	if huge {
		adviseHuge(b)
	}
	return b, nil
}

// osUnmap returns exactly one mapping made by osMap.
func osUnmap(b []byte) error {
	return unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b)))
}
