"""The public TCCG list (internal/tccg/tccg-public.tsv) and the timing rule
shared by the anchor timers: one warm-up call, then repetitions until 1.5 s
and 3 repetitions have passed or 15 have run, at most about 8 s in all; the
best time per call is reported."""

import os
import time

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "tccg", "tccg-public.tsv")


def load_cases(path=TABLE):
    """Returns {id: {id, name, spec, f64, f32}}, extents as label:extent lists."""
    cases = {}
    for line in open(path):
        if line.startswith("#") or line.startswith("id\t") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        cases[int(f[0])] = dict(id=int(f[0]), name=f[1], spec=f[2], f64=f[3], f32=f[4])
    return cases


def parse_spec(spec):
    ab, c = spec.split("->")
    a, b = ab.split(",")
    return a, b, c


def parse_ext(s):
    return {t.split(":")[0]: int(t.split(":")[1]) for t in s.split(",")}


def mnk(spec, ext):
    """m: labels of A and C only; n: of B and C only; k: of A and B only."""
    a, b, c = parse_spec(spec)
    m = n = k = 1
    for l in set(a + b + c):
        if l in a and l in c and l not in b:
            m *= ext[l]
        elif l in b and l in c and l not in a:
            n *= ext[l]
        elif l in a and l in b and l not in c:
            k *= ext[l]
        else:
            raise ValueError("label %s is not free or contracted" % l)
    return m, n, k


def time_call(f, min_t=1.5, max_reps=15, min_reps=3, cap=8.0):
    """Best seconds per call of f, the repetitions timed, the warm-up's time."""
    t0 = time.perf_counter()
    f()
    t1 = time.perf_counter()
    best, reps = float("inf"), 0
    while True:
        s = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - s)
        reps += 1
        now = time.perf_counter()
        if reps >= max_reps or reps >= min_reps and now - t1 >= min_t or now - t0 + best > cap:
            break
    return best, reps, t1 - t0
