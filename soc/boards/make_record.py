#!/usr/bin/env python3
"""The record of one board run (soc/boards/build_board.sh, step "record").

    make_record.py --config NAME --run RUN --out-dir OUT [--synth-opts S] [--write FILE]

Reads what the run left in OUT (build/board/RUN): RUN.report.json
(nextpnr's report: utilisation, Fmax per clock), RUN.pnr.log, pnr.status
(nextpnr's exit status), RUN.bit.sha256, git.txt and tools.txt (written
by the synth step: the source state and tool versions of the netlist),
fw.size, time.<step>, RUN.cmd; and soc/data/configs.json's entry NAME.
Writes results/runs/RUN.json (or prints it). "routed" is true only when
nextpnr finished routing (exit status 0, "Routing complete" in its log and
a textual configuration written); fmax_mhz is nextpnr's post-route Fmax of
the SoC clock, or the lower of the SoC and accelerator clocks (the
accelerator's clock is the SoC clock through a DCCA clock enable, reported
separately: both are in fmax_by_clock_mhz).
"""
import argparse
import datetime
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import board_config  # noqa: E402


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def clock_role(net):
    n = net.lower()
    if "acc_clk" in n or "clk_gate" in n:
        return "accelerator"
    if "25mhz" in n:
        return "input"
    return "soc"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--run", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--synth-opts", default="")
    ap.add_argument("--write")
    ap.add_argument("--note", default="", help="a sentence for the record (what is unusual)")
    a = ap.parse_args()
    out, run = a.out_dir, a.run
    with open(os.path.join(ROOT, "soc", "data", "configs.json")) as f:
        cfg = {c["name"]: c for c in json.load(f)["configs"]}[a.config]
    bc = board_config.load(a.config)

    rep = json.loads(read(os.path.join(out, run + ".report.json"), "null") or "null")
    log = read(os.path.join(out, run + ".pnr.log"), "")
    status = (read(os.path.join(out, "pnr.status"), "") or "").strip()
    routed = (status == "0" and "Routing complete" in log
              and os.path.isfile(os.path.join(out, run + ".config")))

    names = {"LUT4": "TRELLIS_COMB", "FF": "TRELLIS_FF", "EBR": "DP16KD",
             "DSP": "MULT18X18D", "IO": "TRELLIS_IO", "PLL": "EHXPLLL",
             "DCCA": "DCCA"}
    resources = {}
    if rep and "utilization" in rep:
        u = rep["utilization"]
        for k, cell in names.items():
            if cell in u:
                resources[k] = {"used": u[cell]["used"], "available": u[cell]["available"]}
    else:
        # no report: the packer's utilisation from the log, if it got there
        for k, cell in names.items():
            m = re.findall(r"Info:\s+%s:\s+(\d+)/\s*(\d+)" % cell, log)
            if m:
                resources[k] = {"used": int(m[-1][0]), "available": int(m[-1][1])}
    resources_note = ("nextpnr's report after routing" if rep and "utilization" in rep
                      else "nextpnr's log after packing/placement (no report)" if resources
                      else "none: nextpnr did not get to packing")

    fmax_by = {}
    constraint = {}
    if rep and routed:
        for net, v in rep.get("fmax", {}).items():
            role = clock_role(net)
            if role == "input":
                continue
            fmax_by[role] = round(v["achieved"], 2)
            constraint[role] = round(v["constraint"], 2)
            fmax_by.setdefault("nets", {})[role] = net
    fmax = min((v for k, v in fmax_by.items() if k != "nets"), default=None)
    # nextpnr's estimate after placement (before routing) and the router's
    # progress: first and last iteration (overused wires)
    pre = log.split("Running router2")[0] if "Running router2" in log else log
    est = {}
    if "Running router2" in log or "Routing" in log:
        for net, mhz in re.findall(r"Max frequency for clock\s+'([^']+)': ([\d.]+) MHz", pre):
            role = clock_role(net)
            if role != "input":
                est[role] = float(mhz)
    iters = re.findall(r"iter=(\d+) wires=(\d+) overused=(\d+)", log)
    router = None
    if iters:
        router = {"iterations_logged": int(iters[-1][0]),
                  "overused_wires_first": int(iters[0][2]),
                  "overused_wires_last": int(iters[-1][2])}

    sha = None
    s = read(os.path.join(out, run + ".bit.sha256"))
    if s and routed:
        sha = s.split()[0]

    git = read(os.path.join(out, "git.txt"), "")
    head = re.search(r"^head (\S+)", git, re.M)
    dirty = re.search(r"^dirty (\d+)", git, re.M)
    files = re.findall(r"^file (.*)$", git, re.M)

    tools = {}
    for line in (read(os.path.join(out, "tools.txt"), "") or "").splitlines():
        k, _, v = line.partition(" ")
        tools[k] = v.strip()
    tools["ecp5_pll"] = "soc/boards/ecp5_pll.py"

    wall = {}
    for step in ("fw", "synth", "pnr", "pack"):
        t = read(os.path.join(out, "time." + step))
        if t:
            wall[step] = int(t.strip())
    if "pnr" not in wall and os.path.isfile(os.path.join(out, "time.synth")) \
            and os.path.isfile(os.path.join(out, run + ".pnr.log")):
        # nextpnr still running (or stopped without finishing): its time so far
        import time
        wall["pnr_unfinished"] = int(time.time() - os.path.getmtime(os.path.join(out, "time.synth")))
    fw = {}
    size = read(os.path.join(out, "fw.size"))
    if size:
        v = size.splitlines()[-1].split()
        fw = {"text": int(v[0]), "data": int(v[1]), "bss": int(v[2]),
              "image_and_bss_bytes": int(v[3]),
              "ram_bytes": cfg["ram_kib"] * 1024,
              "stack_bytes": bc["CFG_STACK_KIB"] * 1024,
              "max_logn": cfg["fw"]["max_logn"]}

    cmd = read(os.path.join(out, run + ".cmd"), "")
    env = f"ECP5_SYNTH_OPTS={a.synth_opts} " if a.synth_opts else ""
    rec = {
        "name": run,
        "config": a.config,
        "board": cfg["board"],
        "device": cfg["device"],
        "part": cfg["part"],
        "package": cfg["package"],
        "speed_grade": cfg["speed_grade"],
        "core": cfg["core"],
        "accelerator": cfg["accelerator"],
        "ram_kib": cfg["ram_kib"],
        "mbox": cfg["mbox"],
        "clk_hz": bc["CFG_CLK_HZ"],
        "pll": {"clk_in_mhz": bc["CFG_CLK_IN_MHZ"], "CLKI_DIV": bc["CFG_PLL_CLKI_DIV"],
                "CLKFB_DIV": bc["CFG_PLL_CLKFB_DIV"], "CLKOP_DIV": bc["CFG_PLL_CLKOP_DIV"],
                "vco_mhz": float(bc["CFG_PLL_FVCO_MHZ"])},
        "synth_opts": a.synth_opts,
        "resources": resources,
        "resources_from": resources_note,
        "routed": routed,
        "nextpnr_exit_status": int(status) if status.lstrip("-").isdigit() else None,
        "fmax_mhz": fmax,
        "fmax_by_clock_mhz": fmax_by,
        "fmax_constraint_mhz": constraint,
        "fmax_estimate_after_placement_mhz": est,
        "router2": router,
        "meets_clk_hz": (fmax is not None and fmax * 1e6 >= bc["CFG_CLK_HZ"]),
        "bitstream": f"build/board/{run}/{run}.bit" if sha else None,
        "bitstream_sha256": sha,
        "rtl_commit": {"head": head.group(1) if head else None,
                       "uncommitted_rtl_changes": bool(dirty and int(dirty.group(1)) > 0),
                       "uncommitted_files": files},
        "firmware": fw,
        "command": f"{env}make -C soc/boards {a.config}",
        "commands": [l for l in cmd.splitlines() if l.split(":")[0] in ("fw", "synth", "pnr", "pack")],
        "tools": tools,
        "wall_s": dict(wall, total=sum(wall.values())),
        "note": a.note or None,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }
    text = json.dumps(rec, indent=2) + "\n"
    if a.write:
        with open(a.write, "w") as f:
            f.write(text)
        print(f"make_record: wrote {a.write} (routed {routed}, fmax {fmax} MHz, "
              f"sha256 {sha})")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
