package runtime

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
)

func TestCaches(t *testing.T) {
	ci := Caches()
	t.Logf("%+v", ci)
	if ci.L1d < 8<<10 || ci.L2 < ci.L1d || ci.L3 <= 0 {
		t.Errorf("implausible caches %+v", ci)
	}
	if ci.L3 > l3PerCore*max(1, goruntime.NumCPU()) {
		t.Errorf("L3 %d not capped", ci.L3)
	}
	for _, from := range []string{ci.L1dFrom, ci.L2From, ci.L3From} {
		if from == "" {
			t.Errorf("no source in %+v", ci)
		}
	}
}

// fakeCPUID answers CPUID from a table of (leaf, sub) -> registers.
type fakeCPUID map[[2]uint32][4]uint32

func (f fakeCPUID) id(leaf, sub uint32) (a, b, c, d uint32) {
	r := f[[2]uint32{leaf, sub}]
	return r[0], r[1], r[2], r[3]
}

// vendor returns leaf 0's EBX, EDX, ECX for a 12-byte vendor string.
func vendor(s string) (b, d, c uint32) {
	w := func(o int) uint32 {
		return uint32(s[o]) | uint32(s[o+1])<<8 | uint32(s[o+2])<<16 | uint32(s[o+3])<<24
	}
	return w(0), w(4), w(8)
}

// cacheLeaf encodes one deterministic-cache-parameters sub-leaf.
func cacheLeaf(typ, level, ways, line, sets uint32) [4]uint32 {
	return [4]uint32{typ | level<<5, (ways-1)<<22 | (line - 1), sets - 1, 0}
}

func TestCPUIDCaches(t *testing.T) {
	b, d, c := vendor("AuthenticAMD")
	amd := fakeCPUID{
		{0, 0}:          {0x10, b, c, d},
		{0x80000000, 0}: {0x80000021, 0, 0, 0},
		{0x80000001, 0}: {0, 0, 1 << 22, 0},
		{0x8000001d, 0}: cacheLeaf(1, 1, 12, 64, 64),   // 48 KiB L1d
		{0x8000001d, 1}: cacheLeaf(2, 1, 8, 64, 64),    // L1i, skipped
		{0x8000001d, 2}: cacheLeaf(3, 2, 16, 64, 1024), // 1 MiB L2
		{0x8000001d, 3}: cacheLeaf(3, 3, 16, 64, 32768),
	}
	if l1, l2, l3, _ := cpuidCachesWith(amd.id); l1 != 48<<10 || l2 != 1<<20 || l3 != 32<<20 {
		t.Errorf("AMD: %d %d %d", l1, l2, l3)
	}
	// Without topology extensions AMD answers through the legacy leaves.
	delete(amd, [2]uint32{0x80000001, 0})
	amd[[2]uint32{0x80000005, 0}] = [4]uint32{0, 0, 32 << 24, 0}
	amd[[2]uint32{0x80000006, 0}] = [4]uint32{0, 0, 512 << 16, 16 << 18}
	if l1, l2, l3, _ := cpuidCachesWith(amd.id); l1 != 32<<10 || l2 != 512<<10 || l3 != 8<<20 {
		t.Errorf("AMD legacy: %d %d %d", l1, l2, l3)
	}
	b, d, c = vendor("GenuineIntel")
	intel := fakeCPUID{
		{0, 0}:          {0x16, b, c, d},
		{0x80000000, 0}: {0x80000008, 0, 0, 0},
		{4, 0}:          cacheLeaf(1, 1, 12, 64, 64),
		{4, 1}:          cacheLeaf(2, 1, 8, 64, 64),
		{4, 2}:          cacheLeaf(3, 2, 16, 64, 2048),
		{4, 3}:          cacheLeaf(3, 3, 12, 64, 49152),
	}
	if l1, l2, l3, _ := cpuidCachesWith(intel.id); l1 != 48<<10 || l2 != 2<<20 || l3 != 36<<20 {
		t.Errorf("Intel: %d %d %d", l1, l2, l3)
	}
	b, d, c = vendor("SomeOtherCPU")
	if l1, l2, l3, _ := cpuidCachesWith(fakeCPUID{{0, 0}: {4, b, c, d}}.id); l1|l2|l3 != 0 {
		t.Errorf("unknown vendor: %d %d %d", l1, l2, l3)
	}
}

func TestSysfsCaches(t *testing.T) {
	dir := t.TempDir()
	for i, e := range []struct{ level, typ, size string }{
		{"1", "Data", "48K"}, {"1", "Instruction", "32K"}, {"2", "Unified", "1024K"}, {"3", "Unified", "32M"},
	} {
		d := filepath.Join(dir, "index"+string(rune('0'+i)))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]string{"level": e.level, "type": e.typ, "size": e.size + "\n"} {
			if err := os.WriteFile(filepath.Join(d, name), []byte(v), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if l1, l2, l3, _ := sysfsCaches(dir); l1 != 48<<10 || l2 != 1<<20 || l3 != 32<<20 {
		t.Errorf("sysfs: %d %d %d", l1, l2, l3)
	}
	if l1, l2, l3, _ := sysfsCaches(filepath.Join(dir, "missing")); l1|l2|l3 != 0 {
		t.Errorf("missing sysfs: %d %d %d", l1, l2, l3)
	}
	for s, want := range map[string]int{"48K": 48 << 10, "2M": 2 << 20, "1G": 1 << 30, "512": 512, "": 0, "x": 0, "-1K": 0} {
		if got := parseSize(s); got != want {
			t.Errorf("parseSize(%q) = %d, want %d", s, got, want)
		}
	}
}
