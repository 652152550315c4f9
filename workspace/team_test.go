package workspace

import (
	"sync"
	"testing"
)

func TestTakeTeamAccounting(t *testing.T) {
	a := NewArena()
	req := Req{BBytes: 10000, TeamScatter: 16, Barriers: 2}
	l := a.TakeTeam(req, 2, 2)
	bars := 2 * barrierBytes
	if s := a.Stats(); s != (Stats{RetainedBytes: 8*16 + bars, LeasedBytes: 8*16 + bars}) {
		t.Fatalf("after take: %+v", s)
	}
	p := l.Panel(req.BBytes)
	if len(p) != req.BBytes || addr(p)%pageSize != 0 {
		t.Fatalf("panel len %d at %#x", len(p), addr(p))
	}
	// Panel growth is accounted at once, not at release.
	held := roundCap(10000) + 8*16 + bars
	if s := a.Stats(); s != (Stats{RetainedBytes: held, LeasedBytes: held}) || a.RetainedPanelBytes() != roundCap(10000) {
		t.Fatalf("after panel growth: %+v, panel %d", a.Stats(), a.RetainedPanelBytes())
	}
	if q := l.Panel(100); addr(q) != addr(p) || len(q) != 100 {
		t.Fatal("a smaller panel request moved the panel")
	}
	l.Release()
	if s := a.Stats(); s != (Stats{RetainedBytes: held}) {
		t.Fatalf("after release: %+v", s)
	}
	// The next take reuses the set: same panel, nothing new retained.
	l = a.TakeTeam(req, 2, 2)
	if q := l.Panel(req.BBytes); addr(q) != addr(p) {
		t.Fatal("a released set was not reused")
	}
	if s := a.Stats(); s != (Stats{RetainedBytes: held, LeasedBytes: held}) {
		t.Fatalf("after retake: %+v", s)
	}
	l.Release()
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
}

func TestReleaseIdempotentAndStaleReleaseHarmless(t *testing.T) {
	a := NewArena()
	req := Req{BBytes: 4096, TeamScatter: 4}
	l1 := a.TakeTeam(req, 1, 1)
	p1 := addr(l1.Panel(req.BBytes))
	l1.Release()
	l1.Release()
	if s := a.Stats(); s.LeasedBytes != 0 {
		t.Fatalf("double release: %+v", s)
	}
	l2 := a.TakeTeam(req, 1, 1)
	if addr(l2.Panel(req.BBytes)) != p1 {
		t.Fatal("second take did not get the released set")
	}
	if l2 == l1 {
		t.Fatal("a new lease reuses the object a stale holder still has")
	}
	leased := a.Stats().LeasedBytes
	l1.Release() // stale: must not hand l2's set back
	if s := a.Stats(); s.LeasedBytes != leased {
		t.Fatalf("stale release changed the leased figure: %+v, was %d", s, leased)
	}
	l3 := a.TakeTeam(req, 1, 1)
	if addr(l3.Panel(req.BBytes)) == p1 {
		t.Fatal("stale release returned a set that is still lent")
	}
	mustPanic(t, "panel of a released lease", func() { l1.Panel(10) })
	l2.Release()
	l3.Release()
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentTeamsNeverShare(t *testing.T) {
	a := NewArena()
	req := Req{BBytes: 8192, TeamScatter: 8, Barriers: 1}
	const teams = 4
	leases := make([]*TeamLease, teams)
	seen := map[uintptr]bool{}
	for i := range leases {
		leases[i] = a.TakeTeam(req, 2, 1)
		p := addr(leases[i].Panel(req.BBytes))
		if seen[p] {
			t.Fatal("two live leases share a panel")
		}
		seen[p] = true
		if leases[i].Barriers()[0] == nil {
			t.Fatal("missing barrier")
		}
		for j := range i {
			if leases[j].Barriers()[0] == leases[i].Barriers()[0] || leases[j].Scatter() == leases[i].Scatter() {
				t.Fatal("two live leases share a barrier or scatter")
			}
		}
	}
	for _, l := range leases {
		l.Release()
	}
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
}

func TestPanelConcurrentSameSize(t *testing.T) {
	a := NewTracedArena()
	req := Req{BBytes: 50000, Barriers: 2}
	l := a.TakeTeam(req, 2, 2)
	var wg sync.WaitGroup
	got := make([]uintptr, 4)
	start := NewBarrier(4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start.Wait()
			got[i] = addr(l.Panel(req.BBytes))
		}()
	}
	wg.Wait()
	for _, p := range got {
		if p != got[0] {
			t.Fatal("concurrent same-size Panel calls got different panels")
		}
	}
	if n := len(a.TraceTake()); n != 1 || a.RetainedPanelBytes() != roundCap(50000) {
		t.Fatalf("%d growths, panel %d bytes: want one growth to %d", n, a.RetainedPanelBytes(), roundCap(50000))
	}
	l.Release()
}

func TestTeamScatterGrowthSettledOnRelease(t *testing.T) {
	a := NewArena()
	l := a.TakeTeam(Req{TeamScatter: 10}, 1, 1)
	s := l.Scatter()
	if len(*s) != 0 || cap(*s) < 10 {
		t.Fatalf("scatter len %d cap %d", len(*s), cap(*s))
	}
	*s = append(*s, make([]int64, 3000)...)
	c := cap(*s)
	l.Release()
	if st := a.Stats(); st != (Stats{RetainedBytes: 8 * c}) {
		t.Fatalf("stats %+v, want the appended capacity %d retained", st, 8*c)
	}
	// The grown vector is kept and handed out empty next time.
	l = a.TakeTeam(Req{TeamScatter: 10}, 1, 1)
	if s := l.Scatter(); len(*s) != 0 || cap(*s) != c {
		t.Fatalf("retake: scatter len %d cap %d, want 0, %d", len(*s), cap(*s), c)
	}
	l.Release()
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
}

func TestTeamBarriersFollowShape(t *testing.T) {
	a := NewArena()
	l := a.TakeTeam(Req{Barriers: 3}, 2, 3)
	bars := l.Barriers()
	if len(bars) != 3 {
		t.Fatalf("%d barriers, want one per column group", len(bars))
	}
	for _, b := range bars {
		if b.Size() != 2 {
			t.Fatalf("barrier of %d, want pm = 2", b.Size())
		}
	}
	first := bars[0]
	// Use one for a few rounds, so the set is returned with a used barrier.
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				first.Wait()
			}
		}()
	}
	wg.Wait()
	l.Release()

	// A new shape re-arms the same barriers for the new team.
	l = a.TakeTeam(Req{Barriers: 2}, 3, 2)
	if len(l.Barriers()) != 2 || l.Barriers()[0] != first || l.Barriers()[0].Size() != 3 {
		t.Fatalf("barriers not rebuilt for 3x2: %d of size %d", len(l.Barriers()), l.Barriers()[0].Size())
	}
	runTeam(t, l.Barriers()[0], 3, 20)
	l.Release()
	// No sharing: no barriers, and none are made.
	l = a.TakeTeam(Req{}, 1, 4)
	if len(l.Barriers()) != 0 {
		t.Fatal("barriers handed out although none were asked for")
	}
	l.Release()
	if a.Stats().RetainedBytes != 3*barrierBytes {
		t.Fatalf("retained %d, want the three barriers kept", a.Stats().RetainedBytes)
	}
}

// runTeam has n goroutines meet at b for the given rounds.
func runTeam(t *testing.T, b *Barrier, n, rounds int) {
	t.Helper()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				b.Wait()
			}
		}()
	}
	wg.Wait()
}

func TestBarrierRearmedAfterAbandonedRound(t *testing.T) {
	a := NewArena()
	l := a.TakeTeam(Req{Barriers: 1}, 2, 1)
	b := l.Barriers()[0]
	// One member arrives and the call is abandoned without its partner, as
	// when the partner panicked: simulate the arrival directly.
	b.arrived.Add(1)
	l.Release()
	l = a.TakeTeam(Req{Barriers: 1}, 2, 1)
	if l.Barriers()[0] != b {
		t.Fatal("set not reused")
	}
	runTeam(t, b, 2, 10) // would deadlock or misfire on a stale arrival
	l.Release()
}

func TestTakeTeamPanicInPreparation(t *testing.T) {
	a := NewArena()
	req := Req{BBytes: 8192, TeamScatter: 4}
	l := a.TakeTeam(req, 1, 1)
	p := addr(l.Panel(req.BBytes))
	l.Release()
	before := a.Stats()
	mustPanic(t, "impossible scatter", func() { a.TakeTeam(Req{TeamScatter: impossible}, 1, 1) })
	if s := a.Stats(); s != before || a.RetainedPanelBytes() != roundCap(8192) {
		t.Fatalf("stats %+v after a failed take, was %+v", s, before)
	}
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
	l = a.TakeTeam(req, 1, 1)
	if addr(l.Panel(req.BBytes)) != p {
		t.Fatal("set not returned after a failed preparation")
	}
	// A failed panel growth settles too.
	mustPanic(t, "impossible panel", func() { l.Panel(impossible) })
	if a.RetainedPanelBytes() != 0 {
		t.Fatalf("panel %d counted after its growth failed", a.RetainedPanelBytes())
	}
	l.Release()
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "bad shape", func() { a.TakeTeam(Req{}, 0, 1) })
	mustPanic(t, "negative request", func() { a.TakeTeam(Req{Barriers: -1}, 1, 1) })
	if err := audit(a); err != nil {
		t.Fatal(err)
	}
}
