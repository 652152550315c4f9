package workspace

import "golang.org/x/sys/unix"

// hugeSize is the size of a transparent huge page on linux/amd64 and on
// linux/arm64 with 4 KiB base pages. It is a variable so that the alignment
// arithmetic in osMap is not folded against the zero of other systems.
var hugeSize = 2 << 20

// adviseHuge asks for transparent huge pages. It is advice: a kernel built
// without them, or with them switched off, says EINVAL, and the buffer works
// the same with base pages, so the error is deliberately dropped.
func adviseHuge(b []byte) { _ = unix.Madvise(b, unix.MADV_HUGEPAGE) }
