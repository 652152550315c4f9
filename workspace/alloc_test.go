package workspace

import "testing"

// Typical steady-state requests: an AVX-512 float32 block (MC=192, KC=384),
// one 32x12 tile, and a team of 2x1 sharing a 384x1536 panel.
var (
	workerReq = Req{ABytes: 192 * 384 * 4, TileBytes: 32 * 12 * 4, WorkerScatter: 192 + 384}
	teamReq   = Req{BBytes: 384 * 1536 * 4, TeamScatter: 1536 + 384, Barriers: 1}
)

// TestSteadyStateAllocatesNothing is the driver's hard requirement: once the
// arena holds what a call needs, lending it costs no heap allocation, with a
// closure that captures the caller's variables.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	a := NewArena()
	w := a.NewWorker()
	sum := 0
	work := func() {
		a.WithWorker(w, workerReq, func(b WorkerBufs) {
			b.A[0] = byte(sum)
			*b.Scatter = append(*b.Scatter, int64(len(b.Tile)))
			sum += len(*b.Scatter)
		})
	}
	work()
	if n := testing.AllocsPerRun(200, work); n != 0 {
		t.Fatalf("WithWorker: %v allocations per call", n)
	}
	team := func() {
		l := a.TakeTeam(teamReq, 2, 1)
		p := l.Panel(teamReq.BBytes)
		p[0] = 1
		*l.Scatter() = append(*l.Scatter(), 1)
		sum += len(l.Barriers())
		l.Release()
	}
	team()
	if n := testing.AllocsPerRun(200, team); n != 0 {
		t.Fatalf("TakeTeam cycle: %v allocations per call", n)
	}
	// Alternating shapes re-arms the barriers without allocating either.
	shapes := func() {
		a.TakeTeam(teamReq, 2, 1).Release()
		a.TakeTeam(Req{Barriers: 3}, 3, 3).Release()
		a.TakeTeam(Req{}, 1, 2).Release()
	}
	shapes()
	if n := testing.AllocsPerRun(100, shapes); n != 0 {
		t.Fatalf("changing team shapes: %v allocations per cycle", n)
	}
	b := NewBarrier(1)
	if n := testing.AllocsPerRun(100, b.Wait); n != 0 {
		t.Fatalf("Barrier.Wait: %v allocations", n)
	}
}

func BenchmarkWithWorker(b *testing.B) {
	a := NewArena()
	w := a.NewWorker()
	sum := 0
	f := func(bufs WorkerBufs) { sum += int(bufs.A[0]) + len(*bufs.Scatter) }
	a.WithWorker(w, workerReq, f)
	b.ReportAllocs()
	for b.Loop() {
		a.WithWorker(w, workerReq, f)
	}
}

func BenchmarkTakeTeamRelease(b *testing.B) {
	a := NewArena()
	a.TakeTeam(teamReq, 2, 1).Release()
	b.ReportAllocs()
	for b.Loop() {
		l := a.TakeTeam(teamReq, 2, 1)
		l.Panel(teamReq.BBytes)
		_ = l.Scatter()
		_ = l.Barriers()
		l.Release()
	}
}
