//go:build !linux && (aix || darwin || dragonfly || freebsd || netbsd || openbsd || solaris)

package workspace

// hugeSize is zero where there is no madvise(MADV_HUGEPAGE): buffers are then
// mapped at their plain size, page-aligned.
var hugeSize = 0

// adviseHuge has nothing to advise here.
func adviseHuge([]byte) {}
