# tcontract: build, generate, check, test and benchmark.
#
#   make check   what CI runs: formatting, vet (amd64 and arm64), generated
#                code is current, cross builds, and the tests on every path
#   make test    the tests: race detector on the best path, then every other
#                ISA path forced with TCONTRACT_ISA, purego, and arm64 under qemu
#   make bench   the benchmarks, several counts, summarised by benchstat

GO       ?= go
# The ISA paths this machine can run, best first (see internal/cmd/isas).
ISAS     ?= $(shell $(GO) run ./internal/cmd/isas 2>/dev/null || echo generic)
BEST     := $(firstword $(ISAS))
COUNT    ?= 6
BENCH    ?= .
QEMU     ?= qemu-aarch64
CROSS    := darwin/arm64 windows/amd64 linux/riscv64 linux/arm64

.PHONY: all check fmt vet generate gencheck cross test test-race test-isas test-purego test-arm64 bench

all: check

check: fmt vet gencheck cross test

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./...
	$(GO) vet -tags purego ./...
	cd asm && $(GO) vet ./...
	cd gen && $(GO) vet ./...
	cd cmd/tcontract && $(GO) vet ./...
	cd bench && $(GO) vet ./...

generate:
	$(GO) generate ./...

# Generated code is committed; regenerating must not change a byte.
gencheck: generate
	@git diff --exit-code --stat -- generated || \
		(echo "generated code is stale: run make generate and commit"; exit 1)
	@untracked=$$(git status --porcelain --untracked-files=all -- generated); \
	if [ -n "$$untracked" ]; then echo "generated files not committed:"; echo "$$untracked"; exit 1; fi

cross:
	@for t in $(CROSS); do \
		echo "build $$t"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build ./... || exit 1; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) test -c -o /dev/null ./... >/dev/null || exit 1; \
	done

test: test-race test-isas test-purego test-arm64
	cd gen && $(GO) test ./...
	cd asm && $(GO) test ./...
	cd cmd/tcontract && $(GO) test ./...
	cd bench && $(GO) test ./...

# The race detector on the best path this machine has.
test-race:
	TCONTRACT_ISA=$(BEST) $(GO) test -race ./...

# Every other path forced, without the race detector (it is the same Go code).
test-isas:
	@for isa in $(filter-out $(BEST),$(ISAS)); do \
		echo "TCONTRACT_ISA=$$isa"; \
		TCONTRACT_ISA=$$isa $(GO) test ./... || exit 1; \
	done

test-purego:
	$(GO) test -tags purego ./...

# The arm64 build (NEON kernels) under user-mode qemu. CI sets REQUIRE_QEMU=1.
# Emulated, the root package's suite took over go test's default 10 minutes
# on a slow shared machine, hence the longer limit.
test-arm64:
	@if command -v $(QEMU) >/dev/null; then \
		GOARCH=arm64 $(GO) test -timeout 40m -exec $(QEMU) ./... ; \
	elif [ "$${REQUIRE_QEMU:-0}" = 1 ]; then \
		echo "$(QEMU) not found (apt-get install qemu-user)"; exit 1; \
	else \
		echo "skipping arm64 tests: $(QEMU) not found (apt-get install qemu-user)"; \
	fi

bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -count $(COUNT) ./... | tee bench.out
	cd bench && $(GO) test -run '^$$' -bench '$(BENCH)' -count $(COUNT) ./... | tee -a ../bench.out
	@command -v benchstat >/dev/null && benchstat bench.out || true
