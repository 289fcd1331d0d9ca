#!/usr/bin/env python3
"""measure_cycles.py -- cycles of every operation on one SoC configuration's
simulation, written to results/cycles/NAME.json for
soc/util/make_board_results.py.

    soc/util/measure_cycles.py NAME [--mode dma|accel|fw] [--cli PATH]
                               [--sim PATH] [--fw PATH] [--out FILE]

Runs `falcon-accel bench --json --backend soc --degree D` (every Falcon
degree the configuration's firmware serves: fw.max_logn) on the Verilated
SoC of that configuration (build/soc-sim-NAME/soc_sim, soc/sim/build_sim.sh
with SOC_CONFIG=NAME) and its firmware (build/soc-fw-NAME/fw.elf, make -C
soc/fw CONFIG=NAME), over the UART link when the configuration has no
mailbox (a board's host link) and the mailbox otherwise; mode dma (the
fastest: the accelerator with DMA bursts) unless --mode says otherwise.
The record holds the cycles per operation, the commit (with "+dirty" when
hw/, soc/ or src/ have uncommitted changes), the firmware's SHA-256, the
command and the machine. Minutes to tens of minutes (keygen runs on the
firmware).
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "soc", "util"))
import soc_config  # noqa: E402


def git_commit():
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "hw", "soc/rtl",
                            "soc/fw", "src", "include"], capture_output=True, text=True).stdout
    return head + (" + uncommitted changes" if dirty.strip() else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("name")
    ap.add_argument("--mode", default="dma", choices=("dma", "accel", "fw"))
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "soc-host", "tools", "falcon-accel"))
    ap.add_argument("--sim")
    ap.add_argument("--fw")
    ap.add_argument("--out")
    a = ap.parse_args()
    try:
        c = soc_config.get(a.name)
    except (KeyError, ValueError) as e:
        sys.exit(e.args[0])
    suffix = "" if a.name == "sim" else "-" + a.name
    sim = a.sim or os.path.join(ROOT, "build", "soc-sim" + suffix, "soc_sim")
    fw = a.fw or os.path.join(ROOT, "build", "soc-fw" + suffix, "fw.elf")
    for what, p in (("simulation", sim), ("firmware", fw), ("CLI", a.cli)):
        if not os.path.isfile(p):
            sys.exit("measure_cycles: the %s %s is missing (make -C soc sim fw host CONFIG=%s)"
                     % (what, p, a.name))
    env = dict(os.environ, FALCON_ACCEL_SOC_SIM=sim, FALCON_ACCEL_SOC_FW=fw,
               FALCON_ACCEL_SOC_MODE=a.mode, FALCON_ACCEL_SOC_TIMEOUT="7200")
    if c["mbox"] == 0:
        env["FALCON_ACCEL_SOC_LINK"] = "uart"
    rec = {"generated_by": "soc/util/measure_cycles.py", "config": a.name,
           "rtl_commit": git_commit(),
           "fw_sha256": hashlib.sha256(open(fw, "rb").read()).hexdigest(),
           "soc_mode": a.mode, "link": "uart" if c["mbox"] == 0 else "mailbox",
           "command": "soc/util/measure_cycles.py %s --mode %s" % (a.name, a.mode),
           "machine": "Verilator %s simulation of the configuration (cycle-accurate RTL), on %s"
                      % (subprocess.run(["verilator", "--version"], capture_output=True,
                                        text=True).stdout.split()[1], platform.machine()),
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    degrees = [512] + ([1024] if c["fw"]["max_logn"] >= 10 else [])
    for d in degrees:
        r = subprocess.run([a.cli, "bench", "--json", "--backend", "soc", "--degree", str(d),
                            "--runs", "1"], env=env, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("measure_cycles: bench --degree %d failed (exit %d): %s"
                     % (d, r.returncode, r.stderr.strip()[-2000:]))
        data = json.loads(r.stdout)
        rec["falcon%d" % d] = {x["op"]: x["cycles"] for x in data["results"]}
        rec["falcon%d_detail" % d] = data["results"]
    out = a.out or os.path.join(ROOT, "results", "cycles", a.name + ".json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=1)
        f.write("\n")
    os.replace(tmp, out)
    print("measure_cycles: %s" % os.path.relpath(out, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
