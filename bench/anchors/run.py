"""Times the contraction anchors beside tcontract, case by case in turns.

usage: python3 run.py TCONTRACT EIGEN_TC [--round 1|2] [--ids 1,3,...]
TCONTRACT is the command (go build -C cmd/tcontract -o BIN .), EIGEN_TC the
built eigen_tc. numpy_tc.py runs under the python3 this script runs under.
For each type (float64, float32), thread count (1, 2) and case, it runs
tcontract bench, numpy_tc.py and eigen_tc one after another, so a
neighbour's load hits them alike; round 2 reverses every order. Prints one
CSV row per measurement (GFLOP/s, 2mnk a call) with tcontract's own GEMM of
the same m, n, k and its ratio to the best anchor."""

import argparse
import math
import csv
import io
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tccg import load_cases, mnk, parse_ext  # noqa: E402

IDS = [1, 3, 7, 9, 11, 13, 17, 19, 31, 35]  # the cases of the anchors' tables


def ours(binary, cid, typ, threads):
    name = "float32" if typ == "f32" else "float64"
    out = subprocess.run([binary, "bench", "-cases", str(cid), "-sizes", "none", "-types", name,
                          "-threads", str(threads), "-reps", "5", "-warm", "300ms", "-format", "csv",
                          "-progress", "off"], capture_output=True, text=True, check=True).stdout
    r = [r for r in csv.DictReader(io.StringIO(out)) if r["id"] == str(cid)][0]
    return float(r["gflops"]), float(r["gemm_gflops"]), (int(r["m"]), int(r["n"]), int(r["k"]))


def numpy_anchor(case, typ, threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, os.path.join(HERE, "numpy_tc.py"), case["spec"], case[typ], typ],
                         capture_output=True, text=True, env=env, check=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    return r["einsum"], r["tensordot"]


def eigen_anchor(binary, case, typ, threads):
    out = subprocess.run([binary, case["spec"], case[typ], typ, str(threads)],
                         capture_output=True, text=True, check=True).stdout
    return float(out.split()[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tcontract")
    ap.add_argument("eigen_tc")
    ap.add_argument("--round", type=int, default=1)
    ap.add_argument("--ids", default=",".join(map(str, IDS)))
    args = ap.parse_args()
    cases = load_cases()
    ids = [int(i) for i in args.ids.split(",")]
    types, threads = ["f64", "f32"], [1, 2]
    if args.round == 2:
        types.reverse(), threads.reverse(), ids.reverse()
    w = csv.writer(sys.stdout)
    w.writerow(["type", "threads", "id", "name", "tcontract", "tcontract_gemm", "einsum", "tensordot", "eigen",
                "vs_best_anchor"])
    for typ in types:
        for th in threads:
            for cid in ids:
                case = cases[cid]
                flops = 2.0 * math.prod(mnk(case["spec"], parse_ext(case[typ])))
                runs = [lambda: ours(args.tcontract, cid, typ, th), lambda: numpy_anchor(case, typ, th),
                        lambda: eigen_anchor(args.eigen_tc, case, typ, th)]
                if args.round == 2:
                    runs.reverse()
                got = [f() for f in runs]
                if args.round == 2:
                    got.reverse()
                (g, gemm, m_n_k), (es, ts), eg = got
                if m_n_k != mnk(case["spec"], parse_ext(case[typ])):
                    sys.exit("case %d: tcontract's m, n, k %s differ from the table's" % (cid, m_n_k))
                anchors = [flops / s / 1e9 for s in (es, ts, eg)]
                w.writerow([typ, th, cid, case["name"], "%.1f" % g, "%.1f" % gemm] +
                           ["%.1f" % a for a in anchors] + ["%.2f" % (g / max(anchors))])
                sys.stdout.flush()


if __name__ == "__main__":
    main()
