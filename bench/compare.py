#!/usr/bin/env python3
"""Compare falcon-accel with its peers on this machine, in one run.

Runs `falcon-accel bench --json` once per backend (portable, and avx2 when
this CPU has it), then the peer harness bench/peers (fn-dsa, pqcrypto-falcon;
same operations, same 32-byte message, same median-of-samples method), and
prints one table: operation x implementation, median microseconds, and the
ratio of each falcon-accel backend to fn-dsa (the issue's targets:
verify <= 0.8, sign_dyn <= 0.8, sign_tree <= 0.4 of fn-dsa's sign,
keygen <= 1.0).

With --scheme fn-dsa: FN-DSA (falcon-accel bench --scheme fn-dsa) against
fn-dsa 0.4.0 only, the runs interleaved over --rounds rounds (ours on each
backend, then the peer, per round, so that a change of machine load hits
both alike); per operation the median over rounds of each run's median,
and the ratio to fn-dsa's matching operation: keygen / keygen, sign_dyn
(from the encoded private key) / sign_with_decode (the crate decoding the
key and signing), sign_tree (from the expanded key) / sign_dyn (the
crate signing from its decoded key), verify / verify; expand has no
counterpart. The load average before and after is printed.

Usage:
  bench/compare.py --falcon-accel build/tools/falcon-accel \\
      --peers build/peers/release/falcon-accel-peers [--runs R]
      [--markdown] [--json-out FILE]
  bench/compare.py --scheme fn-dsa --falcon-accel ... --peers ...
      [--runs R] [--rounds N] [--markdown] [--json-out FILE]
  bench/compare.py --from-json FILE...   (re-print saved results)

Only the Python standard library is used.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

# Peer operation used as the reference for each falcon-accel operation.
REFERENCE_OP = {"keygen": "keygen", "sign_dyn": "sign_dyn",
                "sign_tree": "sign_dyn", "verify": "verify"}
TARGET = {"keygen": 1.0, "sign_dyn": 0.8, "sign_tree": 0.4, "verify": 0.8}
OPS = ["keygen", "sign_dyn", "sign_tree", "verify"]
DEGREES = [512, 1024]
REF_IMPL = "fn-dsa"


def run_json(cmd):
    """Run cmd, return the JSON objects it printed (one per line)."""
    sys.stderr.write("running: %s\n" % " ".join(cmd))
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    objs = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("{"):
            objs.append(json.loads(line))
    if not objs:
        raise SystemExit("no JSON from: %s" % " ".join(cmd))
    return objs


def label(obj):
    """Column name: falcon-accel/<backend>, or the peer's name."""
    if obj.get("implementation") == "falcon-accel":
        return "falcon-accel/%s" % obj.get("backend", "?")
    return obj["implementation"]


def collect(args):
    objs = []
    if args.from_json:
        for path in args.from_json:
            with open(path) as f:
                for line in f:
                    if line.strip().startswith("{"):
                        objs.append(json.loads(line))
        return objs
    common = ["--json"]
    if args.runs:
        common += ["--runs", str(args.runs)]
    for be in args.backends.split(","):
        listing = subprocess.run([args.falcon_accel, "backends"],
                                 stdout=subprocess.PIPE,
                                 universal_newlines=True).stdout
        if be != "portable" and not backend_available(listing, be):
            sys.stderr.write("backend %s not available here, skipped\n" % be)
            continue
        objs += run_json([args.falcon_accel, "--backend", be, "bench"]
                         + common)
    peer_cmd = [args.peers]
    if args.runs:
        peer_cmd += ["--runs", str(args.runs)]
    objs += run_json(peer_cmd)
    return objs


def backend_available(listing, name):
    """True if `falcon-accel backends` lists name as available."""
    for line in listing.splitlines():
        words = line.replace(":", " ").split()
        if name in words:
            return "unavailable" not in line and "not available" not in line
    return False


def table(objs, markdown):
    cols = [label(o) for o in objs]
    med = {}
    for o in objs:
        for r in o["results"]:
            med[(label(o), r["op"], r["degree"])] = r["median_us"]
    ours = [c for c in cols if c.startswith("falcon-accel/")]
    head = ["op", "degree"] + ["%s (us)" % c for c in cols] + \
        ["%s / %s" % (c.split("/", 1)[1], REF_IMPL) for c in ours] + \
        ["target"]
    rows = []
    for op in OPS:
        for d in DEGREES:
            row = [op, str(d)]
            for c in cols:
                v = med.get((c, op, d))
                if v is None and not c.startswith("falcon-accel/"):
                    v = None   # the peers have no expanded-key signing
                row.append("%.1f" % v if v is not None else "-")
            ref = med.get((REF_IMPL, REFERENCE_OP[op], d))
            for c in ours:
                v = med.get((c, op, d))
                row.append("%.2f" % (v / ref) if v is not None and ref else "-")
            row.append("<= %.1f" % TARGET[op])
            rows.append(row)
    if markdown:
        lines = ["| " + " | ".join(head) + " |",
                 "|" + "|".join("---" for _ in head) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    fmt = lambda r: "  ".join(v.rjust(widths[i]) if i > 1 else v.ljust(widths[i])
                              for i, v in enumerate(r))
    return "\n".join([fmt(head), fmt(["-" * w for w in widths])] +
                     [fmt(r) for r in rows])


def machine(objs):
    m = next((o.get("machine") for o in objs if o.get("machine")), None)
    return m or platform.machine()


# FN-DSA (--scheme fn-dsa): fn-dsa's operation matching each of ours.
FNDSA_OPS = ["keygen", "expand", "sign_dyn", "sign_tree", "verify"]
FNDSA_REF = {"keygen": "keygen", "sign_dyn": "sign_with_decode",
             "sign_tree": "sign_dyn", "verify": "verify"}


def fndsa_compare(args):
    """Interleaved rounds of ours (each backend) and fn-dsa; returns the
    printed lines and the raw samples."""
    listing = subprocess.run([args.falcon_accel, "backends"],
                             stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
    backends = [b for b in args.backends.split(",")
                if b == "portable" or backend_available(listing, b)]
    runs = ["--runs", str(args.runs)] if args.runs else []
    load_before = os.getloadavg()
    samples = {}   # (impl, op, degree) -> [median per round]
    machine_s = platform.machine()
    for _ in range(args.rounds):
        for be in backends:
            for o in run_json([args.falcon_accel, "--backend", be, "bench",
                               "--json", "--scheme", "fn-dsa"] + runs):
                machine_s = o.get("machine", machine_s)
                for r in o["results"]:
                    samples.setdefault(("falcon-accel/" + be, r["op"],
                                        r["degree"]), []).append(
                                            r["median_us"])
        for o in run_json([args.peers, "--impl", REF_IMPL] + runs):
            for r in o["results"]:
                samples.setdefault((REF_IMPL, r["op"], r["degree"]),
                                   []).append(r["median_us"])
    load_after = os.getloadavg()
    med = {k: statistics.median(v) for k, v in samples.items()}
    ours = ["falcon-accel/" + b for b in backends]
    head = ["op", "degree"] + ["%s (us)" % c for c in ours] + \
        ["%s (us)" % REF_IMPL, "%s op" % REF_IMPL] + \
        ["%s / %s" % (c.split("/", 1)[1], REF_IMPL) for c in ours]
    rows = []
    for op in FNDSA_OPS:
        for d in DEGREES:
            ref_op = FNDSA_REF.get(op)
            ref = med.get((REF_IMPL, ref_op, d)) if ref_op else None
            row = [op, str(d)]
            row += ["%.1f" % med[(c, op, d)] if (c, op, d) in med else "-"
                    for c in ours]
            row += ["%.1f" % ref if ref else "-", ref_op or "-"]
            row += ["%.2f" % (med[(c, op, d)] / ref)
                    if (c, op, d) in med and ref else "-" for c in ours]
            rows.append(row)
    lines = ["Machine: %s; load average before %.2f %.2f %.2f, after "
             "%.2f %.2f %.2f; %d rounds, %s samples per operation and run"
             % ((machine_s,) + load_before + load_after
                + (args.rounds, args.runs or "default"))]
    lines.append("Ratios: falcon-accel backend / %s, medians over rounds; "
                 "lower is better.\n" % REF_IMPL)
    if args.markdown:
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "|".join("---" for _ in head) + "|")
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        w = [max(len(h), *(len(r[i]) for r in rows))
             for i, h in enumerate(head)]
        lines.append("  ".join(h.rjust(w[i]) for i, h in enumerate(head)))
        lines += ["  ".join(c.rjust(w[i]) for i, c in enumerate(r))
                  for r in rows]
    raw = {"machine": machine_s, "load_before": load_before,
           "load_after": load_after, "rounds": args.rounds,
           "runs": args.runs,
           "median_us": {"%s|%s|%d" % k: v for k, v in med.items()},
           "samples": {"%s|%s|%d" % k: v for k, v in samples.items()}}
    return lines, raw


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--falcon-accel", default="build/tools/falcon-accel")
    ap.add_argument("--peers",
                    default="build/peers/release/falcon-accel-peers")
    ap.add_argument("--backends", default="portable,avx2",
                    help="comma-separated falcon-accel backends")
    ap.add_argument("--runs", type=int, default=0,
                    help="samples per operation (default: the tools' own)")
    ap.add_argument("--markdown", action="store_true",
                    help="print the table as Markdown (for BENCHMARKS.md)")
    ap.add_argument("--json-out", help="also save the raw JSON lines here")
    ap.add_argument("--from-json", nargs="+",
                    help="re-print saved JSON lines instead of running")
    ap.add_argument("--scheme", default="falcon",
                    choices=["falcon", "fn-dsa"],
                    help="fn-dsa: the FN-DSA comparison (see above)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="--scheme fn-dsa: interleaved rounds")
    args = ap.parse_args()

    if args.scheme == "fn-dsa":
        lines, raw = fndsa_compare(args)
        print("\n".join(lines))
        if args.json_out:
            with open(args.json_out, "w") as f:
                json.dump(raw, f, indent=1)
        return

    objs = collect(args)
    if args.json_out:
        with open(args.json_out, "w") as f:
            for o in objs:
                f.write(json.dumps(o) + "\n")
    cpu_count = os.cpu_count()
    print("Machine: %s (%s CPUs visible; one thread per operation)"
          % (machine(objs), cpu_count))
    print("Ratios: falcon-accel backend median / %s median (%s sign for "
          "sign_tree); lower is better.\n" % (REF_IMPL, REF_IMPL))
    print(table(objs, args.markdown))


if __name__ == "__main__":
    main()
