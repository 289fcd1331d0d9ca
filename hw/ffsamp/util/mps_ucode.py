#!/usr/bin/env python3
"""K_MPS, the ffSampling engine's fused merge -> phase 3 -> split kernel.

Phases 2, 3 and 4 of a node (merge of the right child's output into z1,
tmp = (t1 - z1) * l10 + t0, split of tmp into the left child's inputs)
as one kernel of n/4 elements: element k is pair k. The merge of pair k
writes z1[2k], z1[2k + 1], z1[2k + hn], z1[2k + 1 + hn], exactly the two
slots 2k, 2k + 1 that phase 3 then computes, and the split of pair k
reads exactly those two slots of tmp: so phase 3's result stays in
registers (tmp is not stored) and no element reads what another writes
(merge reads tmp's child output at k, k + qn, hn + k, hn + k + qn; split
writes z0 there). Two threads, 16 registers each (thread t: R(16t + f)).

Like node2_ucode.py (whose helpers it uses): register allocation, a value
check against the generic kernels' operations, an issue model, the
Verilog case items (--verilog) and a freshness check (--check FILE).

Ports: work reads 0..3 tmp[k], tmp[k + qn], tmp[hn + k], tmp[hn + k + qn]
(child output: f0 re, f0 im, f1 re, f1 im), 4..7 t1[2k], t1[2k + 1],
t1[2k + hn], t1[2k + 1 + hn], 8..11 t0 at the same four; tree reads 0..3
l10 at the same four; work writes 0..3 z1 at the same four, 4..7 z0[k],
z0[k + qn], z0[hn + k], z0[hn + k + qn].
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import node2_ucode as n2  # noqa: E402

n2.PROG = []
ins = n2.ins


def build():
    ins("LDW", "w")
    ins("LD", "f1r", port=2)
    ins("LD", "f1i", port=3)
    ins("MUL", "q0", "f1r", "w.re")
    ins("MUL", "q1", "f1i", "w.im")
    ins("MUL", "q2", "f1r", "w.im")
    ins("MUL", "q3", "f1i", "w.re")
    ins("LD", "f0r", port=0)
    ins("LD", "f0i", port=1)
    ins("LD", "a0", port=4)     # t1[2k]
    ins("LD", "b0", port=5)     # t1[2k + 1]
    ins("SUB", "tr", "q0", "q1")
    ins("ADD", "ti", "q2", "q3")
    ins("LD", "a1", port=6)     # t1[2k + hn]
    ins("LD", "b1", port=7)     # t1[2k + 1 + hn]
    ins("LDT", "l0", port=0)
    ins("LDT", "l1", port=1)
    ins("LDT", "l2", port=2)
    ins("LDT", "l3", port=3)
    # merge: z1[2k] = f0r + tr, z1[2k+1] = f0r - tr, z1[2k+hn] = f0i + ti,
    # z1[2k+1+hn] = f0i - ti
    ins("ADD", "z10", "f0r", "tr")
    ins("SUB", "z11", "f0r", "tr")
    ins("ADD", "z12", "f0i", "ti")
    ins("SUB", "z13", "f0i", "ti")
    # phase 3 on slots 2k (re z10, im z12) and 2k + 1 (re z11, im z13)
    ins("SUB", "e0r", "a0", "z10")
    ins("SUB", "e1r", "b0", "z11")
    ins("SUB", "e0i", "a1", "z12")
    ins("SUB", "e1i", "b1", "z13")
    ins("ST", None, "z10", None, 0)
    ins("ST", None, "z11", None, 1)
    ins("ST", None, "z12", None, 2)
    ins("ST", None, "z13", None, 3)
    ins("LD", "t00", port=8)
    ins("LD", "t01", port=9)
    ins("LD", "t02", port=10)
    ins("LD", "t03", port=11)
    SL = [("e0r", "e0i", "l0", "l2"), ("e1r", "e1i", "l1", "l3")]
    for u, (er, ei, lre, lim) in enumerate(SL):
        ins("MUL", "n1_%d" % u, er, lre)
        ins("MUL", "n0_%d" % u, er, lim)
        ins("MUL", "n3_%d" % u, ei, lim)
        ins("MUL", "n2_%d" % u, ei, lre)
    for u in range(2):
        ins("SUB", "g_r%d" % u, "n1_%d" % u, "n3_%d" % u)
    for u in range(2):
        ins("ADD", "g_i%d" % u, "n0_%d" % u, "n2_%d" % u)
    for u, t0r in enumerate(["t00", "t01"]):
        ins("ADD", "h_r%d" % u, "g_r%d" % u, t0r)
    for u, t0i in enumerate(["t02", "t03"]):
        ins("ADD", "h_i%d" % u, "g_i%d" % u, t0i)
    # split: a = (h_r0, h_i0), b = (h_r1, h_i1) -> z0[k], z0[k + qn]
    # (f0), z0[hn + k], z0[hn + k + qn] (f1)
    ins("SUBH", "dr", "h_r0", "h_r1")
    ins("SUBH", "di", "h_i0", "h_i1")
    ins("ADDH", "c0r", "h_r0", "h_r1")
    ins("ADDH", "c0i", "h_i0", "h_i1")
    ins("MUL", "p0", "dr", "w.re")
    ins("MULN", "p2", "dr", "w.im")
    ins("MULN", "p1", "di", "w.im")
    ins("MUL", "p3", "di", "w.re")
    ins("ST", None, "c0r", None, 4)
    ins("ST", None, "c0i", None, 5)
    ins("SUB", "c1r", "p0", "p1")
    ins("ADD", "c1i", "p2", "p3")
    ins("ST", None, "c1r", None, 6)
    ins("ST", None, "c1i", None, 7)


build()
PROG = n2.PROG
n2.NREG = 16
REG = n2.allocate()
n2.REG = REG


def run_program(f, t1, t0, l, w):
    """f: child output (f0 re, f0 im, f1 re, f1 im) at ports 0..3; t1, t0,
    l: the four words at 2k, 2k + 1, 2k + hn, 2k + 1 + hn"""
    v = {}
    out = {}
    for op, dst, a, b, port in PROG:
        if op == "LD":
            v[dst] = (f + t1 + t0)[port]
        elif op == "LDT":
            v[dst] = l[port]
        elif op == "LDW":
            v[dst + ".re"], v[dst + ".im"] = w
        elif op == "ST":
            out[port] = v[a]
        elif op == "ADD":
            v[dst] = v[a] + v[b]
        elif op == "SUB":
            v[dst] = v[a] - v[b]
        elif op == "ADDH":
            v[dst] = (v[a] + v[b]) / 2.0
        elif op == "SUBH":
            v[dst] = (v[a] - v[b]) / 2.0
        elif op == "MUL":
            v[dst] = v[a] * v[b]
        elif op == "MULN":
            v[dst] = v[a] * -v[b]
        else:
            raise ValueError(op)
    return [out[j] for j in range(8)]


def ref(f, t1, t0, l, w):
    """the generic kernels' operations (K_MERGE, K_T0, K_SPLIT) for pair k"""
    wr, wi = w
    f0r, f0i, f1r, f1i = f
    t_re = f1r * wr - f1i * wi
    t_im = f1r * wi + f1i * wr
    z1 = [f0r + t_re, f0r - t_re, f0i + t_im, f0i - t_im]   # 2k, 2k+1, 2k+hn, 2k+1+hn
    h = [0.0] * 4
    for u in range(2):
        d_re, d_im = t1[u] - z1[u], t1[u + 2] - z1[u + 2]
        lr, li = l[u], l[u + 2]
        h[u] = (d_re * lr - d_im * li) + t0[u]
        h[u + 2] = (d_re * li + d_im * lr) + t0[u + 2]
    a_re, a_im, b_re, b_im = h[0], h[2], h[1], h[3]
    d_re, d_im = (a_re - b_re) / 2.0, (a_im - b_im) / 2.0
    c0 = [(a_re + b_re) / 2.0, (a_im + b_im) / 2.0]
    c1 = [d_re * wr - d_im * -wi, d_re * -wi + d_im * wr]
    return z1 + c0 + c1


def check_values(trials=2000):
    rng = random.Random(2)
    for _ in range(trials):
        f = [rng.uniform(-3000, 3000) for _ in range(4)]
        t1 = [rng.uniform(-3000, 3000) for _ in range(4)]
        t0 = [rng.uniform(-3000, 3000) for _ in range(4)]
        l = [rng.uniform(-2, 2) for _ in range(4)]
        w = (rng.uniform(-1, 1), rng.uniform(-1, 1))
        assert run_program(f, t1, t0, l, w) == ref(f, t1, t0, l, w)


if __name__ == "__main__":
    check_values()
    print("K_MPS: %d instructions, %d registers, values match the generic kernels"
          % (len(PROG), len(set(REG.values()))), file=sys.stderr)
    print("model: %d cycles per element on one thread alone" % n2.schedule(), file=sys.stderr)
    lines = [l.replace("ST z", "ST z") for l in n2.verilog()]
    if "--verilog" in sys.argv:
        print("\n".join(lines))
    if "--check" in sys.argv:
        src = open(sys.argv[sys.argv.index("--check") + 1]).read()
        m = re.search(r"// BEGIN K_MPS \(generated[^\n]*\n(.*?)\n\s*// END K_MPS", src, re.S)
        got = [x.strip() for x in m.group(1).splitlines()] if m else []
        if got != [x.strip() for x in lines]:
            raise SystemExit("ffsamp_engine.v's K_MPS differs from mps_ucode.py")
        print("ffsamp_engine.v's K_MPS is mps_ucode.py's", file=sys.stderr)
