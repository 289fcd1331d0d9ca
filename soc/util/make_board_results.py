#!/usr/bin/env python3
"""make_board_results.py -- results/boards.json and results/boards.md: every
named SoC configuration (soc/data/configs.json) with what was built of it
and what it measures, each figure from a record made by a command:

- results/runs/NAME.json: the implementation run (place and route with a
  bitstream for an ECP5 board, soc/boards/build_board.sh; synthesis with
  the ABC9 timing estimate for the XC7A100T, soc/syn/xc7_record.py):
  resources, routed, fmax_mhz (+ fmax_kind), bitstream_sha256,
  rtl_commit, command, tools;
- results/cycles/NAME.json: cycles measured on that configuration's
  simulation (soc/util/measure_cycles.py), with its RTL commit and
  firmware.

A time is written only as cycles / fmax_mhz of the same configuration;
a configuration without an implementation run gets cycles and no ms.

    make_board_results.py            write results/boards.json and .md
    make_board_results.py --check    fail if they differ from the records
    make_board_results.py --stale    name every record whose RTL changed
                                     since the commit it built (git)
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = os.path.join(ROOT, "results")
OUT_JSON = os.path.join(RESULTS, "boards.json")
OUT_MD = os.path.join(RESULTS, "boards.md")
# the RTL a configuration's figures depend on (a change makes them stale)
RTL_PATHS = ["hw", "soc/rtl", "soc/syn/rtl", "soc/boards/*/rtl", "soc/boards/*/data",
             "soc/data/configs.json",
             "soc/data/socmap.json"]
# the firmware and library the cycles depend on, beside the RTL
FW_PATHS = ["soc/fw", "src", "include"]
# what a build reads (docs and notes under the same folders do not count)
BUILD_EXT = (".v", ".sv", ".vh", ".svh", ".json", ".c", ".h", ".S", ".ld", ".sh", ".py", ".lpf")
SCHEMES = [("falcon512", "Falcon-512 (round 3)"), ("falcon1024", "Falcon-1024 (round 3)"),
           ("fndsa512", "FN-DSA-512"), ("mlkem768", "ML-KEM-768")]
OPS = ["keygen", "pubkey", "sign_dyn", "sign_tree", "verify", "encaps", "decaps"]


def load(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def best_run(name):
    """The implementation record of configuration NAME: results/runs/*.json
    whose "config" (or file name) is NAME; a routed one before an unrouted
    one, then the highest fmax_mhz, then the latest."""
    d = os.path.join(RESULTS, "runs")
    runs = []
    for fn in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if fn.endswith(".json"):
            r = load(os.path.join(d, fn))
            if r.get("config", fn[:-5]) == name:
                r["_file"] = "results/runs/" + fn
                runs.append(r)
    if not runs:
        return None
    return max(runs, key=lambda r: (bool(r.get("routed")), r.get("fmax_mhz") or 0,
                                    r.get("date") or ""))


def build():
    configs = load(os.path.join(ROOT, "soc", "data", "configs.json"))["configs"]
    out = []
    for c in configs:
        run = best_run(c["name"])
        cyc = load(os.path.join(RESULTS, "cycles", c["name"] + ".json"))
        e = {k: c[k] for k in ("name", "board", "device", "part", "speed_grade", "core",
                               "accelerator", "ram_kib")}
        e["fits_a_device"] = c["part"] is not None
        e["routed"] = bool(run and run.get("routed"))
        for k in ("resources", "fmax_mhz", "fmax_kind", "fmax_detail", "fmax_by_clock_mhz",
                  "bitstream_sha256", "rtl_commit", "command", "tools", "date"):
            e[k] = run.get(k) if run else None
        e["rtl_commit"] = commit_text(e["rtl_commit"])
        e["run_record"] = run["_file"] if run else None
        e["run_note"] = run.get("note") if run else None
        # the clock the bitstream runs at (its PLL), beside what it reaches
        e["clk_mhz"] = run["clk_hz"] / 1e6 if run and run.get("clk_hz") else None
        e["meets_clk"] = run.get("meets_clk_hz") if run else None
        if run and e["fmax_kind"] is None:
            e["fmax_kind"] = "post-route" if run.get("routed") else None
        fmax = e["fmax_mhz"]
        e["cycles_source"] = None
        if cyc:
            e["cycles_source"] = {k: cyc.get(k) for k in ("rtl_commit", "fw_sha256", "soc_mode",
                                                          "command", "machine", "date")}
            for scheme, _ in SCHEMES:
                ops = cyc.get(scheme)
                if not ops:
                    continue
                e[scheme] = {}
                for op in OPS:
                    if op in ops:
                        n = ops[op]
                        e[scheme][op] = {"cycles": n,
                                         "ms": round(n / (fmax * 1000.0), 3) if fmax else None}
        out.append(e)
    return {"generated_by": "soc/util/make_board_results.py (make -C soc results)",
            "doc": "One entry per SoC configuration (soc/data/configs.json). cycles: measured on "
                   "that configuration's Verilated simulation (cycles_source); ms = cycles / "
                   "fmax_mhz of the same configuration, only where an implementation run gives "
                   "fmax_mhz (fmax_kind post-route: nextpnr after routing; estimate: Yosys ABC9, "
                   "no placement). routed: true only for a design placed and routed.",
            "configs": out}


def commit_text(c):
    """A record's rtl_commit: a string, or soc/boards' {"head",
    "uncommitted_rtl_changes"}."""
    if isinstance(c, dict):
        return (c.get("head") or "") + (" + uncommitted changes"
                                        if c.get("uncommitted_rtl_changes") else "")
    return c


RES_KEYS = (("LUT4", "LUT"), ("FF",), ("EBR", "BRAM36"), ("DSP",))


def fmt_res(r):
    out = []
    for keys in RES_KEYS:
        v = next((r[k] for k in keys if k in r), None)
        if isinstance(v, dict):
            out.append("%s of %s %s" % (fmt_int(v["used"]), fmt_int(v["available"]),
                                        next(k for k in keys if k in r)))
        elif v is not None:
            out.append("%s %s" % (v, next(k for k in keys if k in r)))
    return ", ".join(out) or "-"


def fmt_int(n):
    return f"{n:,}"


def render_md(data):
    o = ["<!-- Generated by soc/util/make_board_results.py (make -C soc results); "
         "do not edit. -->", "# The SoC on boards: configurations, clocks, cycles, times", "",
         "Every figure here comes from a record in `results/runs/` (implementation: resources, "
         "clock) or `results/cycles/` (cycles measured on the configuration's simulation), "
         "each with its command and the commit whose RTL it built. A time is cycles divided "
         "by the clock that the same configuration reaches; there is no time for a "
         "configuration without an implementation run. `make -C soc results-stale` names the "
         "records whose RTL changed since.", ""]
    o += ["| configuration | board / part | accelerator | RAM | routed | Fmax (MHz) | "
          "resources | RTL commit |", "|---|---|---|---|---|---|---|---|"]
    for e in data["configs"]:
        acc = e["accelerator"]
        units = "P = %d%s" % (acc["P"], "".join(
            " + " + u for u in ("KECCAK", "SAMPLER", "FFSAMP", "MLKEM", "KEMENC") if acc.get(u)))
        part = "%s / %s" % (e["board"], e["part"]) if e["part"] else "none (simulation only)"
        fmax = "-"
        if e["fmax_mhz"]:
            fmax = "%.1f (%s)" % (e["fmax_mhz"], e["fmax_kind"])
        res = fmt_res(e["resources"]) if e["resources"] else "-"
        o.append("| %s | %s | %s | %d KiB | %s | %s | %s | %s |" % (
            e["name"], part, units, e["ram_kib"], "yes" if e["routed"] else "no", fmax, res,
            (e["rtl_commit"] or "-")))
    notes = [e for e in data["configs"] if e["run_note"]]
    if notes:
        o.append("")
        for e in notes:
            o.append("- %s (`%s`): %s" % (e["name"], e["run_record"], e["run_note"]))
    for e in data["configs"]:
        rows = []
        for scheme, title in SCHEMES:
            for op in OPS:
                v = e.get(scheme, {}).get(op)
                if v:
                    rows.append("| %s | %s | %s | %s |" % (
                        title, op, fmt_int(v["cycles"]),
                        "%.3f" % v["ms"] if v["ms"] is not None else "-"))
        if not rows:
            continue
        src = e["cycles_source"]
        o += ["", "## %s" % e["name"], ""]
        clock = ("at %.1f MHz (%s)" % (e["fmax_mhz"], e["fmax_kind"]) if e["fmax_mhz"]
                 else "no implementation run: cycles only")
        o.append("Cycles on the configuration's simulation (mode %s, RTL %s, firmware SHA-256 "
                 "%s…; `%s`); ms %s." % (src["soc_mode"], src["rtl_commit"],
                                         (src["fw_sha256"] or "")[:12], src["command"], clock))
        o += ["", "| scheme | operation | cycles | ms |", "|---|---|---|---|"] + rows
    o += render_seeds(data)
    if any(e["command"] for e in data["configs"]):
        o += ["", "## Implementation commands", ""]
        for e in data["configs"]:
            if e["command"]:
                o.append("- %s: `%s` (tools: %s)" % (e["name"], e["command"],
                                                     json.dumps(e["tools"])))
    return "\n".join(o) + "\n"


SEED_OPS = {"verify": ["verify"], "sign": ["sign_dyn", "sign_tree"], "pubkey": ["pubkey"]}


def render_seeds(data):
    """The seeds' published Falcon figures (soc/data/seed_figures.json)
    beside ours on each configuration that has the operation: in the
    seed's unit (ms at the configuration's Fmax, or cycles)."""
    seeds = load(os.path.join(ROOT, "soc", "data", "seed_figures.json"))
    if not seeds:
        return []
    cfgs = [e for e in data["configs"] if e["fits_a_device"] and e.get("falcon512")]
    if not cfgs:
        return []
    o = ["", "## Beside the seeds", "",
         "The seeds' own figures (`soc/data/seed_figures.json`: file and line of each in "
         "`../shared/seeds/`), in their unit, beside ours in the same unit: ms at the "
         "configuration's Fmax, or cycles. A seed that states no degree is set beside our "
         "Falcon-512. sign is our sign_dyn (from the encoded key) / sign_tree (from an "
         "expanded key).", "",
         "| seed | operation | platform | theirs | " + " | ".join(e["name"] for e in cfgs) + " |",
         "|---|---|---|---|" + "---|" * len(cfgs)]
    for f in seeds["figures"]:
        if f["scheme"] != "Falcon" or f["op"] not in SEED_OPS or f["degree"] not in (None, 512):
            continue
        cells = []
        for e in cfgs:
            vals = []
            for op in SEED_OPS[f["op"]]:
                v = e["falcon512"].get(op)
                if not v:
                    continue
                if f["unit"] == "cycles":
                    vals.append("%s: %s" % (op, fmt_int(v["cycles"])))
                elif v["ms"] is not None:
                    vals.append("%s: %.2f ms" % (op, v["ms"]))
            cells.append("; ".join(vals) or "-")
        theirs = ("%s cycles" % fmt_int(f["value"]) if f["unit"] == "cycles"
                  else "%s %s" % (f["value"], f["unit"]))
        o.append("| %s | %s (%s) | %s | %s | %s |" % (
            f["seed"], f["op"], f["variant"], f["platform"], theirs, " | ".join(cells)))
    return o


def stale():
    names = []
    for sub in ("runs", "cycles"):
        d = os.path.join(RESULTS, sub)
        if not os.path.isdir(d):
            continue
        for fn in sorted(os.listdir(d)):
            rec = load(os.path.join(d, fn))
            rc = commit_text(rec.get("rtl_commit")) or ""
            commit = rc.split("+")[0].strip()
            paths = RTL_PATHS + (FW_PATHS if sub == "cycles" else [])
            if not commit:
                names.append("%s/%s: no rtl_commit" % (sub, fn))
                continue
            r = subprocess.run(["git", "-C", ROOT, "diff", "--name-only", commit, "HEAD", "--"]
                               + paths, capture_output=True, text=True)
            changed = [f for f in r.stdout.split() if f.endswith(BUILD_EXT) or
                       os.path.basename(f) == "Makefile"]
            if r.returncode != 0:
                names.append("%s/%s: git cannot compare with %s" % (sub, fn, commit))
            elif changed:
                names.append("%s/%s: %d file(s) changed since %s (%s%s)" % (
                    sub, fn, len(changed), commit, ", ".join(changed[:4]),
                    ", ..." if len(changed) > 4 else ""))
            if "+" in rc:
                names.append("%s/%s: built with uncommitted changes (%s)" % (sub, fn, rc))
    return names


def main(argv):
    if "--stale" in argv:
        s = stale()
        for line in s:
            print("stale: " + line)
        if not s:
            print("make_board_results: every record built the RTL of HEAD")
        return 1 if s else 0
    data = build()
    js = json.dumps(data, indent=1) + "\n"
    md = render_md(data)
    if "--check" in argv:
        bad = [p for p, t in ((OUT_JSON, js), (OUT_MD, md))
               if not os.path.exists(p) or open(p, encoding="utf-8").read() != t]
        for p in bad:
            print("stale: %s (make -C soc results)" % os.path.relpath(p, ROOT))
        return 1 if bad else 0
    os.makedirs(RESULTS, exist_ok=True)
    for p, t in ((OUT_JSON, js), (OUT_MD, md)):
        with open(p, "w", encoding="utf-8") as f:
            f.write(t)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
