package runtime

import (
	"sync"

	"github.com/tcontract/tcontract/generated/kernels"
	"github.com/tcontract/tcontract/internal/spec"
)

// blocks are a kernel's cache blocksizes in reals: MC rows of A per packed
// block, KC steps of depth, NC columns of B per packed panel.
type blocks struct{ MC, KC, NC int }

var blockCache sync.Map // *kernels.Kernel -> blocks

// testBlocks, when set by a test, replaces every kernel's blocksizes, so
// small problems can run many rounds, panels and blocks.
var testBlocks *blocks

// blocksFor derives a kernel's blocksizes from the cache sizes (BLIS's
// rules), starting from the kernel table's defaults:
//   - a KC×NR sliver of B̃ stays in L1 while the MR×KC slivers of Ã stream
//     past it: KC·NR reals fill at most half of L1d;
//   - an MC×KC block of Ã stays in L2: at most half of it;
//   - a KC×NC panel of B̃ stays in this core's share of L3: at most half.
//
// Each is capped by the table's default, which the kernel benchmarks chose.
func blocksFor(k *kernels.Kernel) blocks {
	if testBlocks != nil {
		return *testBlocks
	}
	if b, ok := blockCache.Load(k); ok {
		return b.(blocks)
	}
	b := deriveBlocks(k, Caches())
	blockCache.Store(k, b)
	return b
}

func deriveBlocks(k *kernels.Kernel, ci CacheInfo) blocks {
	rt, _ := spec.RealByName(k.Real)
	r := rt.Size
	b := blocks{MC: k.MC, KC: k.KC, NC: k.NC}
	if ci.L1d > 0 {
		kc := ci.L1d / 2 / (k.NR * r)
		kc = max(64, kc/8*8)
		b.KC = min(b.KC, kc)
	}
	if ci.L2 > 0 {
		mc := ci.L2 / 2 / (b.KC * r) / k.MR * k.MR
		b.MC = min(b.MC, max(k.MR, mc))
	}
	if ci.L3 > 0 {
		nc := ci.L3 / 2 / (b.KC * r) / k.NR * k.NR
		b.NC = min(b.NC, max(k.NR, nc))
	}
	return b
}
