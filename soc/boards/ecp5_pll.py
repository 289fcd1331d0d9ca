#!/usr/bin/env python3
"""ECP5 EHXPLLL dividers for one output clock (CLKOP, fed back on itself).

    ecp5_pll.py --fin 25 --fout 50            # a line of key=value
    ecp5_pll.py --fin 25 --fout 50 --json     # the same as JSON
    ecp5_pll.py --fin 25 --fout 50 --chparam  # "-set CLKI_DIV 1 ..." for Yosys

The search and the limits are those of Project Trellis' ecppll (the
LFE5U family data sheet's PLL limits): input 8..400 MHz, phase detector
3.125..400 MHz, VCO 400..800 MHz; CLKI_DIV 1..128, CLKFB_DIV 1..80,
CLKOP_DIV 1..128. With the feedback from CLKOP the output is
fin / CLKI_DIV * CLKFB_DIV and the VCO fout * CLKOP_DIV. The closest output
wins; among equals the one whose VCO is nearest 600 MHz (mid-range, as
ecppll chooses), then the first found (smallest CLKI_DIV, CLKFB_DIV). CLKOP_CPHASE is (CLKOP_DIV - 1) // 2 (the primary output
shifted by about half a period, as ecppll writes it; no effect on the
frequency). Exit 1 when the result is off by more than --tol percent
(default 1).
"""
import argparse
import json
import sys

PFD_MIN, PFD_MAX = 3.125, 400.0
VCO_MIN, VCO_MAX = 400.0, 800.0
VCO_MID = 600.0
IN_MIN, IN_MAX = 8.0, 400.0


def pll(fin, fout):
    if not IN_MIN <= fin <= IN_MAX:
        raise ValueError(f"input {fin} MHz outside {IN_MIN}..{IN_MAX} MHz")
    best = None
    for idiv in range(1, 129):
        fpfd = fin / idiv
        if fpfd < PFD_MIN or fpfd > PFD_MAX:
            continue
        for fbdiv in range(1, 81):
            f = fpfd * fbdiv
            for odiv in range(1, 129):
                fvco = f * odiv
                if fvco < VCO_MIN or fvco > VCO_MAX:
                    continue
                err = abs(f - fout)
                if (best is None or err < best[0] - 1e-9
                        or (err < best[0] + 1e-9
                            and abs(fvco - VCO_MID) < abs(best[5] - VCO_MID) - 1e-9)):
                    best = (err, idiv, fbdiv, odiv, f, fvco)
    if best is None:
        raise ValueError(f"no divider set reaches {fout} MHz")
    _, idiv, fbdiv, odiv, f, fvco = best
    return {"CLKI_DIV": idiv, "CLKFB_DIV": fbdiv, "CLKOP_DIV": odiv,
            "CLKOP_CPHASE": (odiv - 1) // 2, "fin_mhz": fin,
            "fout_mhz": f, "fvco_mhz": fvco,
            "error_pct": 100.0 * (f - fout) / fout}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fin", type=float, required=True, help="input clock, MHz")
    ap.add_argument("--fout", type=float, required=True, help="requested output, MHz")
    ap.add_argument("--tol", type=float, default=1.0, help="allowed error, percent")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--chparam", action="store_true")
    a = ap.parse_args()
    try:
        p = pll(a.fin, a.fout)
    except ValueError as e:
        print(f"ecp5_pll: {e}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps(p))
    elif a.chparam:
        print(" ".join(f"-set {k} {p[k]}" for k in
                       ("CLKI_DIV", "CLKFB_DIV", "CLKOP_DIV", "CLKOP_CPHASE")))
    else:
        print(" ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in p.items()))
    if abs(p["error_pct"]) > a.tol:
        print(f"ecp5_pll: {p['fout_mhz']:g} MHz is {p['error_pct']:+.2f} % off "
              f"{a.fout:g} MHz (more than {a.tol:g} %)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
