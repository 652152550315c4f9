package runtime

// cpuidFunc is the CPUID instruction: leaf and sub-leaf in, EAX–EDX out.
type cpuidFunc func(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// cpuidCachesWith decodes the cache sizes from CPUID; it takes the
// instruction as a function so tests can feed it recorded answers.
func cpuidCachesWith(id cpuidFunc) (l1d, l2, l3 int, from string) {
	from = "cpuid"
	maxLeaf, b, c, d := id(0, 0)
	vendor := string(le32(b)) + string(le32(d)) + string(le32(c))
	maxExt, _, _, _ := id(0x80000000, 0)
	leaf := uint32(0)
	switch vendor {
	case "GenuineIntel":
		if maxLeaf >= 4 {
			leaf = 4
		}
	case "AuthenticAMD", "HygonGenuine":
		if maxExt >= 0x8000001d {
			if _, _, ecx, _ := id(0x80000001, 0); ecx&(1<<22) != 0 { // TopologyExtensions
				leaf = 0x8000001d
			}
		}
		if leaf == 0 && maxExt >= 0x80000006 {
			// Legacy AMD leaves: L1d KiB in 0x80000005 ECX[31:24]; L2 KiB in
			// 0x80000006 ECX[31:16], L3 in 512 KiB units in EDX[31:18].
			_, _, c5, _ := id(0x80000005, 0)
			_, _, c6, d6 := id(0x80000006, 0)
			return int(c5>>24) << 10, int(c6>>16) << 10, int(d6>>18) * (512 << 10), from
		}
	}
	if leaf == 0 {
		return 0, 0, 0, from
	}
	// Deterministic cache parameters: one sub-leaf per cache until type 0.
	for sub := uint32(0); sub < 16; sub++ {
		a, b, c, _ := id(leaf, sub)
		typ := a & 0x1f // 1 data, 2 instruction, 3 unified
		if typ == 0 {
			break
		}
		if typ == 2 {
			continue
		}
		ways := int(b>>22&0x3ff) + 1
		parts := int(b>>12&0x3ff) + 1
		line := int(b&0xfff) + 1
		sets := int(c) + 1
		size := ways * parts * line * sets
		switch a >> 5 & 7 {
		case 1:
			l1d = size
		case 2:
			l2 = size
		case 3:
			l3 = size
		}
	}
	return l1d, l2, l3, from
}

func le32(x uint32) []byte { return []byte{byte(x), byte(x >> 8), byte(x >> 16), byte(x >> 24)} }
