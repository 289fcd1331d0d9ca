#!/usr/bin/env python3
"""Print the synthesis table (Markdown) from hw/build/syn/P<P>.stat and
P<P>.ltp (written by hw/syn/synth.sh) for pasting into hw/REPORT.md."""
import os
import re

HW = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.environ.get("FA_SYN_OUT", os.path.join(HW, "build", "syn"))


def cells(path):
    c = {}
    for line in open(path):
        m = re.match(r"\s+(\w+)\s+(\d+)$", line)
        if m:
            c[m.group(1)] = int(m.group(2))
    return c


def main():
    print("| P | LUT | FF | DSP48E1 | BRAM36 (RAMB36 + RAMB18/2) | LUTRAM/SRL cells | longest path (LUT levels) |")
    print("|---|---|---|---|---|---|---|")
    for p in (1, 2, 4):
        st = os.path.join(OUT, "P%d.stat" % p)
        if not os.path.exists(st):
            continue
        c = cells(st)
        lut = sum(v for k, v in c.items() if re.match(r"LUT\d$", k))
        ff = sum(v for k, v in c.items() if k.startswith("FD"))
        bram = c.get("RAMB36E1", 0) + c.get("RAMB18E1", 0) / 2
        lram = sum(v for k, v in c.items() if k.startswith("RAM") and not k.startswith("RAMB")) + c.get("SRL16E", 0) + c.get("SRLC32E", 0)
        ltp = "n/a"
        lp = os.path.join(OUT, "P%d.ltp" % p)
        if os.path.exists(lp):
            m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", open(lp).read())
            if m:
                ltp = m.group(1)
        print("| %d | %d | %d | %d | %g | %d | %s |" % (p, lut, ff, c.get("DSP48E1", 0), bram, lram, ltp))


if __name__ == "__main__":
    main()
