package workspace

import "unsafe"

// heapMap is the storage of platforms without mmap: a Go heap slice cut to a
// page boundary. The runtime zeroes it (unavoidable there) and keeps the whole
// allocation alive through the interior pointer, so heapUnmap has nothing to
// do but let go.
func heapMap(n int) []byte {
	raw := make([]byte, n+pageSize)
	off := (pageSize - int(uintptr(unsafe.Pointer(unsafe.SliceData(raw)))%pageSize)) % pageSize
	return raw[off : off+n : off+n]
}
