package workspace

import "testing"

func TestRoundCap(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{1, mapGranule}, {100, mapGranule}, {4096, mapGranule},
		{4097, max(8192, mapGranule)}, {5000, max(8192, mapGranule)},
		{1 << 20, 1 << 20}, {1<<20 + 1, 2 << 20},
	} {
		if got := roundCap(c.n); got != c.want {
			t.Errorf("roundCap(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

func TestPageBufGrowsByDoublingAndAligns(t *testing.T) {
	var p pageBuf
	defer p.release()
	if b := p.ensure(0, nil); b != nil || p.capBytes() != 0 {
		t.Fatalf("ensure(0) allocated: %d bytes", p.capBytes())
	}
	var tr tracer
	last, prevCap, growths := uintptr(0), 0, 0
	for _, c := range []struct{ n, cap int }{
		{100, mapGranule},
		{4096, mapGranule},
		{5000, max(8192, mapGranule)},
		{8192, max(8192, mapGranule)},
		{9000, max(16384, mapGranule)},
		{3, max(16384, mapGranule)}, // grow-only: a smaller call keeps the capacity
	} {
		b := p.ensure(c.n, &tr)
		if len(b) != c.n || cap(b) != c.n {
			t.Fatalf("ensure(%d): len %d cap %d", c.n, len(b), cap(b))
		}
		if addr(b)%pageSize != 0 {
			t.Fatalf("ensure(%d) at %#x, not page-aligned", c.n, addr(b))
		}
		if p.capBytes() != c.cap {
			t.Fatalf("ensure(%d): capacity %d, want %d", c.n, p.capBytes(), c.cap)
		}
		if c.cap != prevCap {
			growths++
		} else if addr(b) != last {
			t.Fatalf("ensure(%d) moved the buffer without growing", c.n)
		}
		fill(b, 0xa5) // the whole length is writable
		last, prevCap = addr(b), c.cap
	}
	if len(tr.log) != growths || tr.log[growths-1].Bytes != prevCap {
		t.Fatalf("traced growths %+v, want %d ending at %d", tr.log, growths, prevCap)
	}
	p.release()
	if p.capBytes() != 0 || p.mem != nil {
		t.Fatal("release kept storage")
	}
	p.release() // releasing an empty buffer is a no-op
}

func TestPageBufMappingFailurePanicsEmpty(t *testing.T) {
	var p pageBuf
	p.ensure(pageSize, nil)
	mustPanic(t, "impossible mapping", func() { p.ensure(impossible, nil) })
	if p.capBytes() != 0 {
		t.Fatalf("failed growth left %d bytes counted", p.capBytes())
	}
	if b := p.ensure(pageSize, nil); len(b) != pageSize {
		t.Fatal("buffer unusable after a failed growth")
	}
	p.release()
}

func TestLargeBuffersAlignToHugePages(t *testing.T) {
	if hugeSize == 0 {
		// Nothing to align to here; the plain page alignment is tested above.
		var p pageBuf
		b := p.ensure(3<<20, nil)
		if addr(b)%pageSize != 0 {
			t.Fatal("large buffer not page-aligned")
		}
		p.release()
		return
	}
	for _, n := range []int{hugeSize, hugeSize + 1, 3 * hugeSize} {
		var p pageBuf
		b := p.ensure(n, nil)
		if addr(b)%uintptr(hugeSize) != 0 {
			t.Errorf("ensure(%d) at %#x, not on a %d-byte boundary", n, addr(b), hugeSize)
		}
		fill(b, 1)
		p.release()
	}
}

func TestHeapFallbackAligns(t *testing.T) {
	for _, n := range []int{4096, 8192, 1 << 20} {
		b := heapMap(n)
		if len(b) != n || cap(b) != n || addr(b)%pageSize != 0 {
			t.Fatalf("heapMap(%d): len %d cap %d at %#x", n, len(b), cap(b), addr(b))
		}
		fill(b, 7)
	}
}

func TestReserve(t *testing.T) {
	s := reserve(nil, 0)
	if len(s) != 0 || cap(s) != 0 {
		t.Fatal("reserve(0) allocated")
	}
	s = reserve(s, 10)
	if len(s) != 0 || cap(s) != 10 {
		t.Fatalf("reserve 10: len %d cap %d", len(s), cap(s))
	}
	s = append(s, 1, 2, 3)
	s = reserve(s, 5)
	if len(s) != 0 || cap(s) != 10 {
		t.Fatalf("reserve within capacity: len %d cap %d", len(s), cap(s))
	}
	if s = reserve(s, 11); cap(s) != 20 {
		t.Fatalf("reserve 11 from 10: cap %d, want doubling to 20", cap(s))
	}
	if s = reserve(s, 100); cap(s) != 100 {
		t.Fatalf("reserve 100 from 20: cap %d", cap(s))
	}
}
