"""Times numpy.einsum(optimize=True) and a tensordot path on one contraction.

usage: OPENBLAS_NUM_THREADS=N python3 numpy_tc.py SPEC EXTENTS f32|f64
(SPEC "bda,dc->abc", EXTENTS "a:312,b:312,c:24,d:312"). Set the thread count
before numpy loads OpenBLAS, one process per count. Prints one JSON line:
the best seconds per call of each."""

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tccg import parse_ext, parse_spec, time_call  # noqa: E402


def main():
    spec, exts, typ = sys.argv[1:4]
    ext = parse_ext(exts)
    dt = np.float32 if typ in ("f32", "float32") else np.float64
    a, b, c = parse_spec(spec)
    rng = np.random.default_rng(1)
    A = rng.random([ext[l] for l in a], dtype=dt)
    B = rng.random([ext[l] for l in b], dtype=dt)
    C = np.zeros([ext[l] for l in c], dtype=dt)
    con = [l for l in a if l in b and l not in c]
    axes = (tuple(a.index(l) for l in con), tuple(b.index(l) for l in con))
    free = [l for l in a if l not in con] + [l for l in b if l not in con]
    perm = tuple(free.index(l) for l in c)

    def einsum():
        np.einsum(spec, A, B, optimize=True, out=C)

    def tensordot():
        C[...] = np.tensordot(A, B, axes=axes).transpose(perm)

    e, t = time_call(einsum), time_call(tensordot)
    print(json.dumps(dict(einsum=e[0], einsum_reps=e[1], tensordot=t[0], tensordot_reps=t[1])))


if __name__ == "__main__":
    main()
