package workspace

// Req is what one call needs of the arena. Buffer sizes are bytes, because the
// arena is element-type erased: the driver knows the element type and converts
// its counts once (generated/typed does that). A zero entry never allocates.
type Req struct {
	ABytes        int // this worker's packed A block
	TileBytes     int // this worker's accumulator tile, with any induced-method scratch
	WorkerScatter int // int64 elements of this worker's scatter scratch
	BBytes        int // the team's shared packed B panel(s)
	TeamScatter   int // int64 elements of the team's block-scatter vectors
	Barriers      int // barriers the team needs, zero when nothing is shared
}

// Stats is what an arena holds and lends. Both values are exact whenever no
// call is in flight.
type Stats struct {
	RetainedBytes int // every byte the arena holds, idle or lent
	LeasedBytes   int // the part of RetainedBytes lent to calls now
}

// Growth is one traced growth of arena storage: the OS thread that grew it and
// the new capacity in bytes.
type Growth struct{ Thread, Bytes int }

// WorkerBufs are one worker's buffers for one call. A and Tile have exactly the
// requested length and start on a page boundary; Scatter has length zero and at
// least the requested capacity.
type WorkerBufs struct {
	A, Tile []byte
	Scatter *[]int64
}
