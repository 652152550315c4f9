package main

import (
	"bufio"
	"os"
	"reflect"
	goruntime "runtime"
	"strings"

	"golang.org/x/sys/cpu"
)

// cpuModel is the processor's name as Linux reports it ("model name" in
// /proc/cpuinfo), or "" where there is none (other systems, most arm64).
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// cpuFeatures lists the features x/sys/cpu (what the dispatch reads) found
// on this architecture, by the names of its HasXxx fields, lower-cased:
// "avx512f", "fma", "asimd".
func cpuFeatures() []string {
	var v any
	switch goruntime.GOARCH {
	case "amd64", "386":
		v = cpu.X86
	case "arm64":
		v = cpu.ARM64
	default:
		return nil
	}
	rv := reflect.ValueOf(v)
	var out []string
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		if name, ok := strings.CutPrefix(f.Name, "Has"); ok && f.Type.Kind() == reflect.Bool && rv.Field(i).Bool() {
			out = append(out, strings.ToLower(name))
		}
	}
	return out
}
