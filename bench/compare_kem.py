#!/usr/bin/env python3
"""Compare falcon-accel's ML-KEM with its peers on this machine, in one run.

Runs, in turn and for several rounds (interleaved, so that a change of
machine load hits every implementation alike):
  falcon-accel bench --json --backend B   (B = portable, and avx2 when the
                                           CPU has it; its kem_* entries)
  falcon-accel-peers --impl libcrux-ml-kem
  falcon-accel-peers --impl pqcrypto-mlkem
and prints, per level and operation (kem_keygen, kem_encaps, kem_decaps),
the median over rounds of each run's median (microseconds), and the ratio
of each falcon-accel backend to the fastest peer (the issue's target for
ML-KEM-768 on AVX2: <= 1.0 for all three operations). Also prints the
machine and its load average before and after.

Usage:
  bench/compare_kem.py --falcon-accel build/release/tools/falcon-accel \\
      --peers build/peers/release/falcon-accel-peers [--runs R] [--rounds N]
      [--markdown] [--json-out FILE]

Only the Python standard library is used.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

OPS = ["kem_keygen", "kem_encaps", "kem_decaps"]
LEVELS = [512, 768, 1024]
PEERS = ["libcrux-ml-kem", "pqcrypto-mlkem"]


def run_json(cmd):
    sys.stderr.write("running: %s\n" % " ".join(cmd))
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    objs = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    if not objs:
        raise SystemExit("no JSON from: %s" % " ".join(cmd))
    return objs


def has_avx2():
    try:
        with open("/proc/cpuinfo") as f:
            return " avx2" in f.read()
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--falcon-accel", required=True)
    ap.add_argument("--peers", required=True)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json-out")
    a = ap.parse_args()

    backends = ["portable"] + (["avx2"] if has_avx2() else [])
    load_before = os.getloadavg()
    samples = {}   # (impl, op, level) -> [median per round]
    machine = platform.machine()
    for _ in range(a.rounds):
        for be in backends:
            for o in run_json([a.falcon_accel, "bench", "--json", "--backend",
                               be, "--degree", "512", "--runs",
                               str(a.runs)]):
                machine = o.get("machine", machine)
                for r in o["results"]:
                    if r["op"] in OPS:
                        samples.setdefault(("falcon-accel/" + be, r["op"],
                                            r["degree"]), []).append(
                                                r["median_us"])
        for p in PEERS:
            for o in run_json([a.peers, "--impl", p, "--runs",
                               str(a.runs)]):
                for r in o["results"]:
                    samples.setdefault((o["implementation"], r["op"],
                                        r["degree"]), []).append(
                                            r["median_us"])
    load_after = os.getloadavg()
    med = {k: statistics.median(v) for k, v in samples.items()}
    impls = ["falcon-accel/" + b for b in backends] + PEERS

    lines = []
    lines.append("machine: %s; load average before %.2f %.2f %.2f, after "
                 "%.2f %.2f %.2f; %d rounds x %d runs per operation"
                 % ((machine,) + load_before + load_after
                    + (a.rounds, a.runs)))
    head = ["level", "op"] + impls + ["%s / fastest peer" % i
                                      for i in impls[:len(backends)]]
    rows = []
    for lv in LEVELS:
        for op in OPS:
            peer = [med[(p, op, lv)] for p in PEERS if (p, op, lv) in med]
            best = min(peer) if peer else None
            row = [str(lv), op]
            row += ["%.1f" % med[(i, op, lv)] if (i, op, lv) in med else "-"
                    for i in impls]
            for i in impls[:len(backends)]:
                v = med.get((i, op, lv))
                row.append("%.2f" % (v / best) if v and best else "-")
            rows.append(row)
    if a.markdown:
        lines.append("")
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        for r in rows:
            lines.append("| " + " | ".join(r) + " |")
    else:
        w = [max(len(h), max(len(r[j]) for r in rows))
             for j, h in enumerate(head)]
        lines.append("  ".join(h.rjust(w[j]) for j, h in enumerate(head)))
        for r in rows:
            lines.append("  ".join(c.rjust(w[j]) for j, c in enumerate(r)))
    print("\n".join(lines))
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump({"machine": machine, "load_before": load_before,
                       "load_after": load_after, "rounds": a.rounds,
                       "runs": a.runs,
                       "median_us": {"%s|%s|%d" % k: v
                                     for k, v in med.items()},
                       "samples": {"%s|%s|%d" % k: v
                                   for k, v in samples.items()}}, f,
                      indent=1)


if __name__ == "__main__":
    main()
