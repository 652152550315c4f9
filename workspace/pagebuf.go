package workspace

import (
	"fmt"
	"math/bits"
)

// pageSize is the alignment every buffer the arena lends has. Packing and the
// kernels rely on it for aligned vector loads and stores, and it is the unit
// the OS maps anyway.
const pageSize = 4096

// maxBytes bounds one request, so rounding it up to a power of two cannot
// overflow an int.
const maxBytes = 1 << (bits.UintSize - 2)

// pageBuf is page-aligned, grow-only storage that is never zeroed by the
// arena. Callers write before they read (the packing and kernel contract), so
// zeroing would only double the memory traffic, and a growth therefore does
// not keep the old contents either: the old mapping is returned to the OS
// before the new one is made, which keeps the peak footprint at one buffer.
type pageBuf struct {
	mem []byte // the whole mapping, exactly as osMap returned it; nil when empty
}

// capBytes is the capacity the buffer holds, the figure the arena accounts.
func (p *pageBuf) capBytes() int { return len(p.mem) }

// roundCap is the capacity a buffer of n > 0 bytes grows to: the next power of
// two, so a sequence of slightly larger calls does not remap every time, and
// at least one OS page, because that is what the OS hands out.
func roundCap(n int) int {
	return max(mapGranule, 1<<bits.Len(uint(n-1)))
}

// ensure returns the first n bytes of the buffer, growing it first when it is
// smaller. The result has length and capacity n, so an append can never run
// into arena bytes the caller did not ask for. A zero n allocates nothing and
// returns nil. Growths are recorded in tr when it is not nil.
//
// ensure panics when the OS refuses the mapping; the buffer is then empty and
// capBytes says so, which is what the callers' deferred settlement reads.
func (p *pageBuf) ensure(n int, tr *tracer) []byte {
	if n == 0 {
		return nil
	}
	if n > len(p.mem) {
		want := roundCap(n)
		p.release()
		mem, err := osMap(want)
		if err != nil {
			panic(fmt.Errorf("workspace: mapping %d bytes: %w", want, err))
		}
		p.mem = mem
		if tr != nil {
			tr.record(want)
		}
	}
	return p.mem[:n:n]
}

// release returns the storage to the OS. The caller holds the buffer
// exclusively: nothing may use a slice of it afterwards.
func (p *pageBuf) release() {
	if p.mem == nil {
		return
	}
	mem := p.mem
	p.mem = nil
	if err := osUnmap(mem); err != nil {
		// Unmapping an exact mapping the arena made cannot fail unless memory
		// bookkeeping is already corrupt; carrying on would hide that.
		panic(fmt.Errorf("workspace: unmapping %d bytes: %w", len(mem), err))
	}
}

// reserve empties s and makes sure it can take n elements without growing. A
// growth at least doubles the capacity, so a sequence of slightly larger
// requests does not reallocate every time. The scatter vectors stay in the Go
// heap (they are small, and the driver may append to them) and are allocated
// by the goroutine that uses them, so their first touch is local too.
func reserve(s []int64, n int) []int64 {
	if cap(s) >= n {
		return s[:0]
	}
	return make([]int64, 0, max(n, 2*cap(s)))
}
