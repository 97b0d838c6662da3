#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs maxpool_bench (+ its oneDNN peer) and peers.py, and prints one merged table.

    python3 bench/run_all.py --bench build-bench/bench/maxpool_bench [--python PY]
                             [--quick] [--case NAMES] [--threads N] [--out DIR]
                             [--markdown] [--no-python-peers]
    python3 bench/run_all.py --c-json C.json [--peers-json P.json] [--markdown]

The first form runs everything (the C benchmark first, then the Python peers,
never at the same time); the second only merges results saved earlier.

Table 1 gives median times per call (microseconds, 1 thread). Table 2 gives
ratios: time / floor (the median of paired samples, kernel and floor timed
alternately; the goal column says what the kernels aim at), the
N-thread speedup, and for each peer peer_time / maxpool_time (> 1: maxpool
is faster).
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

PEER_COLS = [
    ("onednn_plain", "oneDNN", "oneDNN, the case's plain layout (abcd/acdb...)"),
    ("onednn_blocked", "oneDNN-blk", "oneDNN, blocked aBcd8b/16b, reorders not timed"),
    ("onnxruntime", "ORT", "ONNX Runtime CPU EP, io-binding, NHWC rows as NCHW"),
    ("openvino", "OV", "OpenVINO CPU, infer() end to end incl. its reorders"),
    ("openvino_node", "OV-node", "OpenVINO pooling node alone (PERF_COUNT)"),
]


def goal_of(case):
    """What the fast kernels aim at: (max time/floor, label)."""
    name = case["name"]
    if name.startswith("tiny"):
        return None, "<=0.3us"
    if case.get("idx_bytes", 0) > 0:
        return 2.0, "2.0"
    if name.startswith("nhwc"):
        return 1.3, "1.3"
    return 1.5, "1.5"


def fmt_us(s):
    if s is None or not s > 0:
        return "-"
    us = s * 1e6
    if us < 10:
        return "%.3f" % us
    if us < 1000:
        return "%.1f" % us
    return "%.0f" % us


def merge(cj, pj):
    rows = []
    peers = {}
    if pj:
        for r in pj["rows"]:
            peers[(r["name"], r["peer"])] = r
    for c in cj["cases"]:
        if c.get("failed"):
            rows.append({"name": c["name"], "failed": c.get("error", "failed")})
            continue
        row = {"name": c["name"], "what": c["what"], "kernel": c["kernel"], "bytes": c["bytes"],
               "idx_bytes": c["idx_bytes"], "t1": c["t1"]["median"], "floor": c["floor"]["median"],
               "memcpy": c["memcpy"]["median"], "check_bad": c.get("check_bad", 0),
               "ratio": c.get("ratio", c["t1"]["median"] / c["floor"]["median"])}
        if "tn" in c:
            row["tn"] = c["tn"]["median"]
            row["nthreads"] = c["nthreads"]
        for key in ("onednn_plain", "onednn_blocked"):
            p = c.get(key)
            if p and p.get("ok"):
                row[key] = p["seconds"]
                row[key + "_impl"] = p.get("impl", "")
                if p.get("mismatch"):
                    row[key + "_mismatch"] = True
        for key in ("onnxruntime", "openvino", "openvino_node"):
            p = peers.get((c["name"], key))
            if p and p.get("ok"):
                row[key] = p["seconds"]
                row[key + "_impl"] = p.get("impl", "")
                if p.get("check") is False:
                    row[key + "_mismatch"] = True
        rows.append(row)
    return rows


def table(header, body, markdown):
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in body]
        return "\n".join(out)
    w = [max(len(h), *(len(r[i]) for r in body)) if body else len(h) for i, h in enumerate(header)]
    fmt = lambda r: "  ".join(s.rjust(w[i]) if i > 0 else s.ljust(w[i]) for i, s in enumerate(r))  # noqa: E731
    return "\n".join([fmt(header)] + [fmt(r) for r in body])


def render(rows, cj, pj, markdown):
    present = [pc for pc in PEER_COLS if any(pc[0] in r for r in rows)]
    nthr = next((r["nthreads"] for r in rows if "nthreads" in r), None)
    lines = []
    meta = "%s | %s | maxpool isa ceiling %s (cpu %s) | floor %s" % (
        cj.get("date", "?"), cj.get("cpu", "?"), cj.get("isa", "?"), cj.get("cpu_isa", "?"), cj.get("floor_isa", "?"))
    if cj.get("omp_fork_join_s"):
        meta += " | OpenMP fork/join (%s thr) %.1f us" % (cj.get("threads"), cj["omp_fork_join_s"] * 1e6)
    if cj.get("onednn"):
        meta += " | oneDNN %s" % cj["onednn"]
    if pj:
        meta += " | " + ", ".join("%s %s" % (k, v.split("-")[0]) for k, v in pj.get("versions", {}).items())
    lines.append(meta)
    lines.append("")
    # Table 1: times
    h = ["case", "kernel", "MB", "maxpool_us", "GB/s", "floor_us", "memcpy_us"]
    if nthr:
        h.append("%dthr_us" % nthr)
    h += [pc[1] + "_us" for pc in present]
    body = []
    for r in rows:
        if "failed" in r:
            body.append([r["name"], "FAILED: " + r["failed"]] + [""] * (len(h) - 2))
            continue
        b = [r["name"], r["kernel"], "%.2f" % (r["bytes"] / 1e6), fmt_us(r["t1"]) + ("!" if r["check_bad"] else ""),
             "%.2f" % (r["bytes"] / r["t1"] / 1e9), fmt_us(r["floor"]), fmt_us(r["memcpy"])]
        if nthr:
            b.append(fmt_us(r.get("tn")))
        for pc in present:
            b.append(fmt_us(r.get(pc[0])) + ("!" if r.get(pc[0] + "_mismatch") else ""))
        body.append(b)
    lines.append(table(h, body, markdown))
    lines.append("")
    # Table 2: ratios
    h = ["case", "x_floor", "goal", "met", "x_memcpy"]
    if nthr:
        h.append("speedup_%dthr" % nthr)
    h += ["vs_" + pc[1] for pc in present]
    body = []
    for r in rows:
        if "failed" in r:
            continue
        g, gl = goal_of(r)
        ratio = r["ratio"]
        if g is None:
            met = "yes" if r["t1"] <= 0.3e-6 else "no"
        else:
            met = "yes" if ratio <= g else "no"
        b = [r["name"], "%.2f" % ratio, gl, met, "%.2f" % (r["t1"] / r["memcpy"])]
        if nthr:
            b.append("%.2f" % (r["t1"] / r["tn"]) if r.get("tn") else "-")
        for pc in present:
            b.append("%.2f" % (r[pc[0]] / r["t1"]) if r.get(pc[0]) else "-")
        body.append(b)
    lines.append(table(h, body, markdown))
    lines.append("")
    lines.append("x_floor = maxpool time / floor time (goal: <= 1.5 plain, <= 1.3 NHWC, <= 2.0 with int64 indices; "
                 "tiny: <= 0.3 us per call). vs_X = X time / maxpool time (> 1: maxpool faster). "
                 "'!' = output differs from maxpool's (oneDNN) or numpy's (Python peers).")
    for pc in present:
        lines.append("  %-11s %s" % (pc[1], pc[2]))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", help="path to maxpool_bench")
    ap.add_argument("--python", default=sys.executable, help="python with onnxruntime/openvino for peers.py")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--case")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=None, help="directory for the JSON results (default: next to the bench)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--no-python-peers", action="store_true")
    ap.add_argument("--c-json")
    ap.add_argument("--peers-json")
    a = ap.parse_args()

    rc = 0
    if a.bench:
        out = a.out or os.path.dirname(os.path.abspath(a.bench))
        os.makedirs(out, exist_ok=True)
        a.c_json = os.path.join(out, "bench_c.json")
        cmd = [a.bench, "--json", a.c_json]
        if a.threads and a.threads > 1:
            cmd += ["--threads", str(a.threads)]
        if a.quick:
            cmd.append("--quick")
        if a.case:
            cmd += ["--case", a.case]
        print("$ " + " ".join(cmd), flush=True)
        t0 = time.time()
        rc |= subprocess.call(cmd)
        print("(maxpool_bench: %.0f s)" % (time.time() - t0), flush=True)
        if not a.no_python_peers:
            a.peers_json = os.path.join(out, "bench_peers.json")
            cmd = [a.python, os.path.join(HERE, "peers.py"), "--json", a.peers_json]
            if a.quick:
                cmd.append("--quick")
            if a.case:
                cmd += ["--case", a.case]
            print("$ " + " ".join(cmd), flush=True)
            t0 = time.time()
            prc = subprocess.call(cmd)
            print("(peers.py: %.0f s)" % (time.time() - t0), flush=True)
            if prc != 0:
                print("peers.py exited with %d (peers missing or an output check failed)" % prc, flush=True)
                if not os.path.exists(a.peers_json):
                    a.peers_json = None
        print("", flush=True)
    if not a.c_json:
        ap.error("give --bench or --c-json")
    with open(a.c_json) as f:
        cj = json.load(f)
    pj = None
    if a.peers_json and os.path.exists(a.peers_json):
        with open(a.peers_json) as f:
            pj = json.load(f)
    rows = merge(cj, pj)
    print(render(rows, cj, pj, a.markdown))
    return rc


if __name__ == "__main__":
    sys.exit(main())
