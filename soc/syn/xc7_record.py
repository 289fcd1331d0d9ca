#!/usr/bin/env python3
"""xc7_record.py -- results/runs/NAME.json for an XC7A100T configuration of
soc/data/configs.json from its Yosys synthesis (soc/syn/synth_xc7.sh NAME:
OUT/xc7-NAME.stat, .cmd, .time) and the ABC9 timing estimates of its
modules (hw/syn/abc9_delay.sh and hw/ffsamp/util/delay_ffsamp.sh JSON
files: {"name", "max_ps", "max_module", ...}).

    soc/syn/xc7_record.py NAME --out-dir build/socsyn --delay F.json ...

There is no open place and route for the 7-series here, so the record is
not routed ("routed": false) and its clock is the estimate: fmax_mhz =
1e6 / the largest ABC9 delay among the given modules, fmax_kind
"estimate" (no placement, no routing: an upper bound). Resources are
Yosys' cell counts against the device's: LUT (LUT1..LUT6), FF, DSP48E1,
BRAM36 (RAMB36E1 + RAMB18E1 / 2). A design fits when each is within the
device.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "soc", "util"))
import soc_config  # noqa: E402

# the XC7A100T's resources (DS180: 15,850 slices x 4 LUT6 / 8 FF, 240
# DSP48E1, 135 RAMB36E1)
DEVICE = {"XC7A100T": {"LUT": 63400, "FF": 126800, "DSP": 240, "BRAM36": 135}}


def cells(stat):
    """The last `stat` block's cell counts: {cell type: count}."""
    out = {}
    for m in re.finditer(r"^\s+(\d+)\s+(\$?[A-Za-z0-9_$]+)\s*$|^\s+([A-Za-z0-9_$]+)\s+(\d+)\s*$",
                         stat, re.M):
        if m.group(1):
            out[m.group(2)] = int(m.group(1))
        else:
            out[m.group(3)] = int(m.group(4))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("name")
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "build", "socsyn"))
    ap.add_argument("--delay", nargs="*", default=[], help="ABC9 delay JSON files")
    ap.add_argument("--note", help="what the record does not cover, in words")
    ap.add_argument("--write", action="store_true", help="write results/runs/NAME.json")
    a = ap.parse_args()
    cfg = soc_config.get(a.name)
    base = os.path.join(a.out_dir, "xc7-" + a.name)
    try:
        stat = open(base + ".stat", encoding="utf-8").read()
        cmd = open(base + ".cmd", encoding="utf-8").read()
    except OSError as e:
        sys.exit("xc7_record: %s (soc/syn/synth_xc7.sh %s first)" % (e, a.name))
    c = cells(stat)
    lut = sum(v for k, v in c.items() if re.fullmatch(r"LUT[1-6]", k))
    ff = sum(v for k, v in c.items() if re.fullmatch(r"FD[A-Z]*", k))
    dsp = c.get("DSP48E1", 0)
    bram = c.get("RAMB36E1", 0) + c.get("RAMB18E1", 0) / 2
    dev = DEVICE[cfg["device"]]
    used = {"LUT": lut, "FF": ff, "DSP": dsp, "BRAM36": bram}
    resources = {k: {"used": v, "available": dev[k]} for k, v in used.items()}
    fits = all(used[k] <= dev[k] for k in dev)
    delays = {}
    for f in a.delay:
        d = json.load(open(f, encoding="utf-8"))
        delays[d["name"]] = {"max_ps": d["max_ps"], "max_module": d.get("max_module")}
    worst = max(delays.items(), key=lambda kv: kv[1]["max_ps"]) if delays else None
    fmax = round(1e6 / worst[1]["max_ps"], 1) if worst else None
    rtl = re.search(r"^rtl: git (\S+)(.*?),", cmd, re.M)
    tools = {"yosys": (re.search(r"^yosys: (.*)$", cmd, re.M) or [None, None])[1],
             "abc9 estimate": "hw/syn/abc9_delay.sh (Debian yosys), hw/ffsamp/util/delay_ffsamp.sh"}
    rec = {
        "name": a.name, "config": a.name, "board": cfg["board"], "device": cfg["device"],
        "part": cfg["part"], "speed_grade": cfg["speed_grade"], "core": cfg["core"],
        "accelerator": cfg["accelerator"], "ram_kib": cfg["ram_kib"], "mbox": cfg["mbox"],
        "resources": resources, "fits": fits,
        "routed": False,
        "fmax_mhz": fmax, "fmax_kind": "estimate" if fmax else None,
        "fmax_detail": {"worst": worst[0] if worst else None, "modules": delays,
                        "what": "1e6 / the largest Yosys ABC9 delay estimate (ps) among the "
                                "configuration's modules: no placement, no routing, an upper "
                                "bound of the Fmax"},
        "bitstream_sha256": None,
        "rtl_commit": (rtl.group(1) + (" + uncommitted changes" if "uncommitted" in rtl.group(2)
                                       else "")) if rtl else None,
        "command": "soc/syn/synth_xc7.sh %s (P=%d SAMPLER=%d KECCAK=%d FFSAMP=%d SOCSYN_RAM_KIB=%d)"
                   " && soc/syn/xc7_record.py %s --delay ..." % (
                       a.name, cfg["accelerator"]["P"], cfg["accelerator"]["SAMPLER"],
                       cfg["accelerator"]["KECCAK"], cfg["accelerator"]["FFSAMP"],
                       cfg["ram_kib"], a.name),
        "synth": (re.search(r"^synth: (.*)$", cmd, re.M) or [None, None])[1],
        "tools": tools,
        "note": a.note,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }
    text = json.dumps(rec, indent=2) + "\n"
    if a.write:
        out = os.path.join(ROOT, "results", "runs", a.name + ".json")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
        print("xc7_record: %s (fits %s; LUT %d, FF %d, DSP %d, BRAM36 %.1f; fmax estimate %s MHz)"
              % (os.path.relpath(out, ROOT), fits, lut, ff, dsp, bram, fmax))
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
