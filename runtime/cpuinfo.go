package runtime

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
)

// CacheInfo is the data-cache hierarchy the blocksizes are derived from:
// sizes in bytes, per core for L1d and L2, and L3 capped (see l3PerCore).
type CacheInfo struct {
	L1d, L2, L3 int
	// L1dFrom, L2From and L3From say where each size came from: "cpuid",
	// "sysfs" or "default"; L3From gains " (capped)" when the reported L3 was
	// larger than this process can own.
	L1dFrom, L2From, L3From string
}

// Defaults when neither CPUID nor sysfs answers: small enough to be safe on
// any current core.
const (
	defaultL1d = 32 << 10
	defaultL2  = 256 << 10
	defaultL3  = 2 << 20
)

// l3PerCore caps L3: virtual machines report the host's whole L3 (one
// reports 508 MiB for 2 cores), and a server core's share is a few MiB.
const l3PerCore = 4 << 20

var caches = sync.OnceValue(detectCaches)

// Caches returns the cache sizes, read once: CPUID (leaf 4 on Intel,
// 0x8000001D on AMD; amd64 only), then sysfs, then defaults, level by level.
func Caches() CacheInfo { return caches() }

func detectCaches() CacheInfo {
	var ci CacheInfo
	fill := func(l1d, l2, l3 int, from string) {
		if ci.L1d == 0 && l1d > 0 {
			ci.L1d, ci.L1dFrom = l1d, from
		}
		if ci.L2 == 0 && l2 > 0 {
			ci.L2, ci.L2From = l2, from
		}
		if ci.L3 == 0 && l3 > 0 {
			ci.L3, ci.L3From = l3, from
		}
	}
	fill(cpuidCaches())
	fill(sysfsCaches("/sys/devices/system/cpu/cpu0/cache"))
	fill(defaultL1d, defaultL2, defaultL3, "default")
	if limit := l3PerCore * max(1, goruntime.NumCPU()); ci.L3 > limit {
		ci.L3, ci.L3From = limit, ci.L3From+" (capped)"
	}
	return ci
}

// sysfsCaches reads Linux's cache description of one CPU: index*/ with
// level, type ("Data", "Instruction", "Unified") and size ("48K").
func sysfsCaches(dir string) (l1d, l2, l3 int, from string) {
	entries, err := filepath.Glob(filepath.Join(dir, "index*"))
	if err != nil {
		return 0, 0, 0, "sysfs"
	}
	read := func(d, name string) string {
		b, err := os.ReadFile(filepath.Join(d, name))
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	for _, d := range entries {
		typ := read(d, "type")
		if typ == "Instruction" {
			continue
		}
		size := parseSize(read(d, "size"))
		switch read(d, "level") {
		case "1":
			l1d = size
		case "2":
			l2 = size
		case "3":
			l3 = size
		}
	}
	return l1d, l2, l3, "sysfs"
}

// parseSize reads sysfs sizes: "48K", "1024K", "32M" or plain bytes; 0 when
// unreadable.
func parseSize(s string) int {
	mul := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mul, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mul, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mul, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n * mul
}
