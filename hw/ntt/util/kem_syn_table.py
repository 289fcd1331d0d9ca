#!/usr/bin/env python3
"""Markdown table of the Yosys figures that hw/ntt/util/synth_kem.sh writes
(`stat` outputs; hierarchical ones summed over the design hierarchy):
LUT total = LUT1..6 + INV + LUT-RAM/SRL LUTs (the hw/REPORT.md convention),
FF, DSP48E1, BRAM36 (RAMB36 + RAMB18/2), against the XC7A100T (63,400 LUT,
240 DSP48E1, 135 BRAM36).
  python3 hw/ntt/util/kem_syn_table.py [dir]   (default hw/build/syn)"""
import os
import re
import sys

XC7A100T = {"lut": 63400, "dsp": 240, "bram": 135}
ROWS = [("kem_engine-P4", "kem_engine alone, P = 4 (flattened)"),
        ("H4-base", "falcon_accel_top P = 4 (default build)"),
        ("H4-mlkem", "falcon_accel_top P = 4, MLKEM = 1"),
        ("H2-keccak", "falcon_accel_top P = 2, KECCAK = 1"),
        ("H2-mlkem-keccak", "falcon_accel_top P = 2, KECCAK = 1, MLKEM = 1")]


def stat(path):
    t = open(path).read()
    sec = t.split("=== design hierarchy ===")[-1]
    c = {}
    for m in re.finditer(r"^\s+(\w+)\s+(\d+)\s*$", sec, re.M):
        c[m.group(1)] = c.get(m.group(1), 0) + int(m.group(2))
    lut = sum(v for k, v in c.items() if re.match(r"LUT\d$", k))
    ram = (4 * (c.get("RAM32M", 0) + c.get("RAM64M", 0)) + c.get("SRL16E", 0)
           + c.get("SRLC32E", 0) + 2 * (c.get("RAM32X1D", 0) + c.get("RAM64X1D", 0)))
    return dict(lut=lut, inv=c.get("INV", 0), ram=ram, tot=lut + c.get("INV", 0) + ram,
                ff=sum(v for k, v in c.items() if k.startswith("FD")),
                dsp=c.get("DSP48E1", 0), bram=c.get("RAMB36E1", 0) + c.get("RAMB18E1", 0) / 2)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "syn")
    print("| design | LUT total (logic + INV + LUT-RAM/SRL) | FF | DSP48E1 | BRAM36 | fits XC7A100T |")
    print("|---|---|---|---|---|---|")
    for name, what in ROWS:
        p = os.path.join(d, name + ".stat")
        if not os.path.exists(p):
            continue
        s = stat(p)
        fits = s["tot"] <= XC7A100T["lut"] and s["dsp"] <= XC7A100T["dsp"] and s["bram"] <= XC7A100T["bram"]
        print("| %s | %s (%s + %s + %s) = %d%% | %s | %d = %d%% | %g | %s |" % (
            what, format(s["tot"], ","), format(s["lut"], ","), format(s["inv"], ","),
            format(s["ram"], ","), round(100 * s["tot"] / XC7A100T["lut"]), format(s["ff"], ","),
            s["dsp"], round(100 * s["dsp"] / XC7A100T["dsp"]), s["bram"],
            "yes" if fits else "NO"))


if __name__ == "__main__":
    main()
