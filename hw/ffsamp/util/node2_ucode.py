#!/usr/bin/env python3
"""K_NODE2, the ffSampling engine's logn-2 node as one microprogram.

A node of n = 4 (split t1, right child of logn 1, merge, phase 3 on two
slots, split, left child, merge) run by one thread on all 32 registers,
values kept in registers between the steps (only the node's outputs z1,
z0 are stored). This script holds the program with symbolic registers
(written in the order of the generic kernels' steps) and

  * orders it for issue (list_schedule: the engine's thread issues in
    order, so the order decides where it waits; SamplerZ calls keep their
    order and pairs),
  * allocates the physical registers (lowest free one; a register is free
    again once its last reader has issued: a reader captures the value a
    cycle after its grant, before any later instruction's result lands),
  * checks the program against the engine's generic kernels (split,
    K_NODE1, merge, K_T0: the same binary64 operations in the same order;
    Python floats are binary64, SamplerZ replaced by a deterministic
    stand-in) on random inputs,
  * models the engine's in-order single-thread issue in grant cycles
    (forwarding; grant to a dependent grant: adder 6, multiplier 5,
    memories / ROM 1 cycle; an SZ starts at its grant with its operands
    from the register file, two cycles after that; SamplerZ runs one
    sample at a time beside the thread, a sample's readers may be granted
    in the cycle it ends)
    and prints the cycles outside SamplerZ (checked to be the same for a
    range of SamplerZ times),
  * with --verilog, prints the case items of ucode() for K_NODE2 (pasted
    into hw/ffsamp/rtl/ffsamp_engine.v; --check compares them with the
    file).

Ports (paddr of K_NODE2): work reads 0..3 = t1 + 0..3, 4..7 = t0 + 0..3;
work writes 8..11 = z1 + 0..3, 12..15 = z0 + 0..3; tree reads p = tree + p
(l10 of the node 0..3, left child 4..7: l10, l10, left leaf, right leaf;
right child 8..11).
"""
import random
import re
import sys

# program: (op, dst, a, b, port); dst of LDW names a pair "x" -> x.re, x.im
PROG = []


def ins(op, dst=None, a=None, b=None, port=0):
    PROG.append((op, dst, a, b, port))


def split(a0, b0, a1, b1, c0r, c0i, c1r, c1i, pre):
    """poly_split_fft at logn 2 (one pair): a = (a0, a1), b = (b0, b1);
    f0 = (a + b)/2 -> (c0r, c0i); f1 = (a - b)/2 * conj(w) -> (c1r, c1i)"""
    ins("SUBH", pre + "dr", a0, b0)
    ins("SUBH", pre + "di", a1, b1)
    ins("ADDH", c0r, a0, b0)
    ins("MUL", pre + "p0", pre + "dr", "w.re")
    ins("MULN", pre + "p2", pre + "dr", "w.im")
    ins("ADDH", c0i, a1, b1)
    ins("MULN", pre + "p1", pre + "di", "w.im")
    ins("MUL", pre + "p3", pre + "di", "w.re")
    ins("SUB", c1r, pre + "p0", pre + "p1")
    ins("ADD", c1i, pre + "p2", pre + "p3")


def child(t0r, t0i, t1r, t1i, tb, pre, zr, zi, yr, yi):
    """K_NODE1 on (t0, t1) with its tree at node tree + tb: z1 = (zr, zi)
    (right leaf), z0 = (yr, yi) (left leaf); also t = z1 * w for the merge
    that follows (pre + tr, pre + ti)"""
    ins("SZ", zr, t1r, pre + "s1")
    ins("SZ", zi, t1i, pre + "s1")
    ins("SUB", pre + "ddr", t1r, zr)
    ins("SUB", pre + "ddi", t1i, zi)
    # the merge's t = z1 * w (z1 is known now)
    ins("MUL", pre + "q0", zr, "w.re")
    ins("MUL", pre + "q1", zi, "w.im")
    ins("MUL", pre + "q2", zr, "w.im")
    ins("MUL", pre + "q3", zi, "w.re")
    ins("MUL", pre + "m0", pre + "ddr", pre + "lr")
    ins("MUL", pre + "m1", pre + "ddi", pre + "li")
    ins("MUL", pre + "m2", pre + "ddr", pre + "li")
    ins("MUL", pre + "m3", pre + "ddi", pre + "lr")
    ins("SUB", pre + "tr", pre + "q0", pre + "q1")
    ins("ADD", pre + "ti", pre + "q2", pre + "q3")
    ins("SUB", pre + "ar", pre + "m0", pre + "m1")
    ins("ADD", pre + "ai", pre + "m2", pre + "m3")
    ins("ADD", pre + "xr", pre + "ar", t0r)
    ins("ADD", pre + "xi", pre + "ai", t0i)
    ins("SZ", yr, pre + "xr", pre + "s0")
    ins("SZ", yi, pre + "xi", pre + "s0")


def merge(yr, yi, pre, outs, st_port):
    """poly_merge_fft at logn 2: f0 = (yr, yi), f1 * w = (pre tr, pre ti)
    already computed; f[0] = f0_re + t_re, f[1] = f0_re - t_re,
    f[2] = f0_im + t_im, f[3] = f0_im - t_im"""
    o0, o1, o2, o3 = outs
    ins("ADD", o0, yr, pre + "tr")
    ins("SUB", o1, yr, pre + "tr")
    ins("ADD", o2, yi, pre + "ti")
    ins("SUB", o3, yi, pre + "ti")
    ins("ST", None, o0, None, st_port + 0)
    ins("ST", None, o1, None, st_port + 1)
    ins("ST", None, o2, None, st_port + 2)
    ins("ST", None, o3, None, st_port + 3)


def build():
    # split t1 -> right child's (t0, t1)
    ins("LD", "a0", port=0)       # t1[0]
    ins("LD", "b0", port=1)       # t1[1]
    ins("LDW", "w")
    ins("LD", "a1", port=2)       # t1[2]
    ins("LD", "b1", port=3)       # t1[3]
    # the rest of the node's inputs: the children's leaves and l10 (right
    # child at tree + 8, left at tree + 4), t0, the node's l10 (where they
    # issue is list_schedule's choice)
    for reg, port in (("R_s1", 11), ("R_lr", 8), ("R_li", 9), ("R_s0", 10),
                      ("L_s1", 7), ("L_lr", 4), ("L_li", 5), ("L_s0", 6),
                      ("l0", 0), ("l1", 1), ("l2", 2), ("l3", 3)):
        ins("LDT", reg, port=port)
    for j in range(4):
        ins("LD", "t0%d" % j, port=4 + j)
    split("a0", "b0", "a1", "b1", "rc0r", "rc0i", "rc1r", "rc1i", "s_")
    # right child, its t = z1 * w for the merge
    child("rc0r", "rc0i", "rc1r", "rc1i", 8, "R_", "rz1r", "rz1i", "rz0r", "rz0i")
    # merge -> z1 (node output) = (z10, z11, z12, z13)
    ins("ADD", "z10", "rz0r", "R_tr")
    ins("SUB", "z11", "rz0r", "R_tr")
    ins("ADD", "z12", "rz0i", "R_ti")
    ins("SUB", "z13", "rz0i", "R_ti")
    # phase 3, slot 0 (re 0, im 2) and slot 1 (re 1, im 3):
    # d = t1 - z1; g = d * l10; h = g + t0
    ins("SUB", "e0r", "a0", "z10")
    ins("SUB", "e1r", "b0", "z11")
    ins("SUB", "e0i", "a1", "z12")
    ins("SUB", "e1i", "b1", "z13")
    ins("ST", None, "z10", None, 8)
    ins("ST", None, "z11", None, 9)
    ins("ST", None, "z12", None, 10)
    ins("ST", None, "z13", None, 11)
    SL = [("e0r", "e0i", "l0", "l2"), ("e1r", "e1i", "l1", "l3")]
    for u, (er, ei, lre, lim) in enumerate(SL):
        ins("MUL", "n1_%d" % u, er, lre)
    for u, (er, ei, lre, lim) in enumerate(SL):
        ins("MUL", "n3_%d" % u, ei, lim)
    for u, (er, ei, lre, lim) in enumerate(SL):
        ins("MUL", "n0_%d" % u, er, lim)
    for u, (er, ei, lre, lim) in enumerate(SL):
        ins("MUL", "n2_%d" % u, ei, lre)
    for u in range(2):
        ins("SUB", "g_r%d" % u, "n1_%d" % u, "n3_%d" % u)
    for u in range(2):
        ins("ADD", "g_i%d" % u, "n0_%d" % u, "n2_%d" % u)
    for u, t0r in enumerate(["t00", "t01"]):
        ins("ADD", "h_r%d" % u, "g_r%d" % u, t0r)
    for u, t0i in enumerate(["t02", "t03"]):
        ins("ADD", "h_i%d" % u, "g_i%d" % u, t0i)
    # split tmp = (h_r0, h_r1, h_i0, h_i1) -> left child's (t0, t1)
    split("h_r0", "h_r1", "h_i0", "h_i1", "lc0r", "lc0i", "lc1r", "lc1i", "s2_")
    child("lc0r", "lc0i", "lc1r", "lc1i", 4, "L_", "lz1r", "lz1i", "lz0r", "lz0i")
    merge("lz0r", "lz0i", "L_", ("z00", "z01", "z02", "z03"), 12)


NREG = 32
# grant to the first dependent grant (forwarded in the read stage, a cycle
# after each grant): adder 6, multiplier 5, memories and ROM 1
LAT = {"LD": 1, "LDT": 1, "LDW": 1, "ADD": 6, "SUB": 6, "ADDH": 6, "SUBH": 6,
       "MUL": 5, "MULN": 5}
# SamplerZ's cycles (issue to done) for the model and the list scheduler:
# a pair's first sample with one trial, its second taken from the
# speculation (hw/sampler/doc/sampler.md); the schedule's cycles outside
# SamplerZ do not depend on them (main() checks a range)
SZ_CYCLES = (77, 12)


def srcs(i):
    op, dst, a, b, port = i
    return [x for x in (a, b) if x is not None]


def dsts(i):
    op, dst, a, b, port = i
    if dst is None:
        return []
    if op == "LDW":
        return [dst + ".re", dst + ".im"]
    return [dst]


def sz_durations(prog, pair):
    """SZ instruction index -> its cycles in the model: pair[0] for a
    pair's first sample, pair[1] for its second"""
    szs = [k for k, i in enumerate(prog) if i[0] == "SZ"]
    return {k: pair[j % 2] for j, k in enumerate(szs)}


def list_schedule(prog, pair=SZ_CYCLES):
    """The program's issue order: a list schedule for the engine's in-order
    thread (one instruction per cycle, see schedule()). Each step takes,
    among the instructions whose producers have issued, the one that can
    issue first, ties broken by the longest latency-weighted path to the
    end. The SZ instructions keep their order (the PRNG stream's order)
    and a pair's second follows its first at once (the engine's pair
    speculation reads it as the next instruction)."""
    n = len(prog)
    prod = {}
    for k, i in enumerate(prog):
        for d in dsts(i):
            prod[d] = k
    preds = [set(prod[x] for x in srcs(i)) for i in prog]
    szs = [k for k, i in enumerate(prog) if i[0] == "SZ"]
    for a, b in zip(szs, szs[1:]):
        preds[b].add(a)
    succ = [set() for _ in range(n)]
    for k in range(n):
        for q in preds[k]:
            succ[q].add(k)
    szd = sz_durations(prog, pair)

    def lat(k):
        return szd[k] + 1 if k in szd else LAT.get(prog[k][0], 1)
    prio = [0] * n
    for k in reversed(range(n)):
        prio[k] = lat(k) + max([prio[x] for x in succ[k]] + [0])
    done, order, ready = set(), [], {}
    c, szfree, second = 0, 0, None

    def earliest(k):
        i = prog[k]
        if i[0] == "SZ":
            return max([c, szfree] + [ready[x] + 2 for x in srcs(i)])
        return max([c] + [ready[x] for x in srcs(i)])
    while len(order) < n:
        cand = [second] if second is not None else \
            [k for k in range(n) if k not in done and preds[k] <= done]
        k = min(cand, key=lambda k: (earliest(k), -prio[k], k))
        c = earliest(k)
        i = prog[k]
        order.append(k)
        done.add(k)
        if i[0] == "SZ":
            rest = [j for j in szs if j not in done]
            second = rest[0] if (second is None and rest and prog[rest[0]][3] == i[3]) \
                else None
            szfree = c + szd[k]
            ready[i[1]] = c + szd[k]
        else:
            for d in dsts(i):
                ready[d] = c + LAT[i[0]]
        c += 1
    return [prog[k] for k in order]


def allocate():
    last_use = {}
    for pc, i in enumerate(PROG):
        for s in srcs(i):
            last_use[s] = pc
    reg = {}
    free = list(range(NREG))
    live = {}
    defined = set()
    for pc, i in enumerate(PROG):
        for s in srcs(i):
            assert s in defined, "pc %d reads %s before it is written" % (pc, s)
        # registers whose last reader is this instruction are free for its
        # destination (its result lands after the read stage has read them)
        for s in set(srcs(i)):
            if last_use[s] == pc and s in live:
                free.append(live.pop(s))
        free.sort()
        ds = dsts(i)
        if i[0] == "LDW":
            for r in free:
                if r % 2 == 0 and r + 1 in free:
                    break
            else:
                raise SystemExit("no register pair free at pc %d" % pc)
            free.remove(r)
            free.remove(r + 1)
            reg[ds[0]] = r
            reg[ds[1]] = r + 1
            live[ds[0]] = r
            live[ds[1]] = r + 1
        else:
            for d in ds:
                assert d not in defined, "%s written twice" % d
                if not free:
                    raise SystemExit("out of registers at pc %d" % pc)
                r = free.pop(0)
                reg[d] = r
                live[d] = r
                if d not in last_use:
                    raise SystemExit("%s never read" % d)
        defined.update(ds)
    return reg


build()
PROG[:] = list_schedule(PROG)
REG = allocate()


def half(x):
    return x / 2.0


def run_program(t0, t1, tree, w, sz):
    """interpret PROG on Python binary64 values"""
    v = {}
    out = {}
    for op, dst, a, b, port in PROG:
        if op == "LD":
            v[dst] = (t1 + t0)[port]
        elif op == "LDT":
            v[dst] = tree[port]
        elif op == "LDW":
            v[dst + ".re"], v[dst + ".im"] = w
        elif op == "ST":
            out[port] = v[a]
        elif op == "SZ":
            v[dst] = sz(v[a], v[b])
        elif op == "ADD":
            v[dst] = v[a] + v[b]
        elif op == "SUB":
            v[dst] = v[a] - v[b]
        elif op == "ADDH":
            v[dst] = half(v[a] + v[b])
        elif op == "SUBH":
            v[dst] = half(v[a] - v[b])
        elif op == "MUL":
            v[dst] = v[a] * v[b]
        elif op == "MULN":
            v[dst] = v[a] * -v[b]
        else:
            raise ValueError(op)
    z1 = [out[8 + j] for j in range(4)]
    z0 = [out[12 + j] for j in range(4)]
    return z0, z1


def ref_node2(t0, t1, tree, w, sz):
    """the generic path: the engine's split / K_NODE1 / merge / K_T0 kernels
    (their microprograms' operations) at n = 4"""
    wr, wi = w

    def split_(f):          # f: 4 words -> (f0 re, f0 im), (f1 re, f1 im)
        a_re, a_im, b_re, b_im = f[0], f[2], f[1], f[3]
        d_re = half(a_re - b_re)
        d_im = half(a_im - b_im)
        f0 = (half(a_re + b_re), half(a_im + b_im))
        f1 = (d_re * wr - d_im * -wi, d_re * -wi + d_im * wr)
        return f0, f1

    def merge_(f0, f1):
        t_re = f1[0] * wr - f1[1] * wi
        t_im = f1[0] * wi + f1[1] * wr
        return [f0[0] + t_re, f0[0] - t_re, f0[1] + t_im, f0[1] - t_im]

    def node1(c0, c1, tb):
        s1, s0 = tree[tb + 3], tree[tb + 2]
        lr, li = tree[tb], tree[tb + 1]
        z1 = (sz(c1[0], s1), sz(c1[1], s1))
        d_re, d_im = c1[0] - z1[0], c1[1] - z1[1]
        a_re = d_re * lr - d_im * li
        a_im = d_re * li + d_im * lr
        x = (a_re + c0[0], a_im + c0[1])
        z0 = (sz(x[0], s0), sz(x[1], s0))
        return z0, z1

    c0, c1 = split_(t1)
    y0, y1 = node1(c0, c1, 8)
    z1 = merge_(y0, y1)
    tmp = [0.0] * 4
    for u in range(2):
        d_re, d_im = t1[u] - z1[u], t1[u + 2] - z1[u + 2]
        lr, li = tree[u], tree[u + 2]
        a_re = d_re * lr - d_im * li
        a_im = d_re * li + d_im * lr
        tmp[u] = a_re + t0[u]
        tmp[u + 2] = a_im + t0[u + 2]
    c0, c1 = split_(tmp)
    y0, y1 = node1(c0, c1, 4)
    z0 = merge_(y0, y1)
    return z0, z1


def check_values(trials=2000):
    rng = random.Random(1)
    for _ in range(trials):
        t0 = [rng.uniform(-3000, 3000) for _ in range(4)]
        t1 = [rng.uniform(-3000, 3000) for _ in range(4)]
        tree = [rng.uniform(-2, 2) for _ in range(12)]
        w = (rng.uniform(-1, 1), rng.uniform(-1, 1))

        def sz(mu, s):      # deterministic stand-in for SamplerZ
            return float(round(mu * 0.75 + s))
        assert run_program(t0, t1, tree, w, sz) == ref_node2(t0, t1, tree, w, sz)


def schedule(pair=SZ_CYCLES):
    """cycles of the kernel outside SamplerZ in the engine's model: one
    thread, in order, one instruction granted per cycle when its operands
    are ready (forwarded in the read stage; an SZ reads the register file
    at its grant, two cycles later) and its destination is not waiting;
    SamplerZ runs one sample at a time beside the thread (the next SZ may
    be granted in the cycle a sample ends, as may the sample's readers,
    which read it from the register file a cycle later). Checks that a pair's second
    mu is in the register file two cycles after the first starts (the
    engine's pair speculation reads it then)."""
    ready = {}       # register -> first cycle a grant may forward it
    inrf = {}        # register -> first cycle it is in the register file
    szd = sz_durations(PROG, pair)
    c = szfree = szc = 0
    for pc, i in enumerate(PROG):
        op = i[0]
        t = c
        for s in srcs(i):
            t = max(t, (inrf if op == "SZ" else ready)[REG[s]])
        for d in dsts(i):   # destination not waiting for a result
            t = max(t, ready.get(REG[d], 0))
        if op == "SZ":
            t = max(t, szfree)
            nxt = PROG[pc + 1]
            if nxt[0] == "SZ" and nxt[3] == i[3]:
                assert inrf[REG[nxt[2]]] <= t + 2, "pc %d: pair's second mu late" % pc
        c = t
        if op == "SZ":
            szfree = c + szd[pc]
            szc += szd[pc]
            for d in dsts(i):
                ready[REG[d]] = c + szd[pc]
                inrf[REG[d]] = c + szd[pc] + 1
        else:
            for d in dsts(i):
                ready[REG[d]] = c + LAT[op]
                inrf[REG[d]] = c + LAT[op] + 2
        c += 1
    # the kernel ends with its last store's grant (its operand arrives in
    # that cycle or the next: the end waits for nothing to be pending
    # after the cycle's arrivals)
    return max(c, szfree + 1) - szc


OPC = {"LD": "O_LD", "ST": "O_ST", "ADD": "O_ADD", "SUB": "O_SUB", "MUL": "O_MUL",
       "MULN": "O_MULN", "LDW": "O_LDW", "SZ": "O_SZ", "ADDH": "O_ADDH",
       "SUBH": "O_SUBH", "LDT": "O_LDT"}


def verilog():
    lines = []
    for pc, i in enumerate(PROG):
        op, dst, a, b, port = i
        rd = REG[dsts(i)[0]] if dsts(i) else 0
        ra = REG[a] if a is not None else 0
        rb = REG[b] if b is not None else 0
        note = op + " " + ", ".join(x for x in (dst, a, b) if x is not None)
        if op in ("LD", "LDT", "ST"):
            note += " @%d" % port
        lines.append("\t\t\t\t%d: ucode = I(%s, %d, %d, %d, %d);  // %s"
                     % (pc, OPC[op], rd, ra, rb, port, note))
    return lines


if __name__ == "__main__":
    check_values()
    print("K_NODE2: %d instructions, %d registers, values match the generic kernels"
          % (len(PROG), len(set(REG.values()))), file=sys.stderr)
    outside = set(schedule((a, b)) for a in (77, 113, 149) for b in (12, 48, 77))
    assert len(outside) == 1, outside
    print("model: %d cycles outside SamplerZ per node" % outside.pop(), file=sys.stderr)
    if "--verilog" in sys.argv:
        print("\n".join(verilog()))
    if "--check" in sys.argv:
        src = open(sys.argv[sys.argv.index("--check") + 1]).read()
        m = re.search(r"// BEGIN K_NODE2 \(generated[^\n]*\n(.*?)\n\s*// END K_NODE2", src, re.S)
        got = [l.strip() for l in m.group(1).splitlines()] if m else []
        want = [l.strip() for l in verilog()]
        if got != want:
            raise SystemExit("ffsamp_engine.v's K_NODE2 differs from node2_ucode.py")
        print("ffsamp_engine.v's K_NODE2 is node2_ucode.py's", file=sys.stderr)
