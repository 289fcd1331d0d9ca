"""cocotb tests of kem_engine, the ML-KEM (q = 3329) mode of the NTT unit:
forward NTT, inverse NTT (plain and times 2^16) and base multiplication
(plain and times 2^-16) on zero, single-coefficient and random
polynomials, against the C library's portable kernels (the Montgomery-
scaled modes, which the rtl backend's slots use) and FIPS 203's
algorithms written out in kem_refmodel.py (the plain modes), P = 1, 2, 4.
Also: the generated constants (kem_tw_rom.v) are fresh.
Run: cd hw && python3 -m pytest ntt/dv/test_kem_engine.py -q"""
import os
import random
import subprocess
import sys

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import kem_refmodel as km

Q = km.Q
FULL = bool(os.environ.get("FA_HW_FULL"))


class KemTB:
    """Drives kem_engine's control inputs and host port."""

    def __init__(self, dut):
        self.dut = dut
        self.cycles = 0

    async def reset(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk, 10, "ns").start())
        d.rst.value = 1
        for s in (d.start, d.h_en, d.h_we, d.h_buf, d.h_slot, d.h_wdata,
                  d.c_inv, d.c_vop, d.c_mont):
            s.value = 0
        for _ in range(3):
            await RisingEdge(d.clk)
        d.rst.value = 0
        await RisingEdge(d.clk)

    async def load(self, buf, f):
        d = self.dut
        for i, w in enumerate(km.pack(f)):
            d.h_en.value, d.h_we.value, d.h_buf.value = 1, 1, buf
            d.h_slot.value, d.h_wdata.value = i, w
            await RisingEdge(d.clk)
        d.h_en.value, d.h_we.value = 0, 0

    async def read(self, buf):
        d = self.dut
        words = []
        for i in range(128):
            d.h_en.value, d.h_we.value, d.h_buf.value, d.h_slot.value = 1, 0, buf, i
            await RisingEdge(d.clk)
            d.h_en.value = 0
            await ReadOnly()
            words.append(int(d.h_rdata.value))
            await RisingEdge(d.clk)
        assert all(w >> 24 == 0 for w in words), "bits above 23 set"
        return km.unpack(words)

    async def run(self, inv=0, vop=0, mont=0):
        d = self.dut
        d.c_inv.value, d.c_vop.value, d.c_mont.value = inv, vop, mont
        d.start.value = 1
        await RisingEdge(d.clk)
        d.start.value = 0
        n = 1
        while True:
            await RisingEdge(d.clk)
            n += 1
            await ReadOnly()
            if int(d.done.value):
                break
            assert n < 20000, "engine did not finish"
        self.cycles = n
        await RisingEdge(d.clk)


def check(dut, name, got, exp):
    """got in [0, q-1]; exp any representatives mod q."""
    bad = [i for i in range(256) if got[i] != exp[i] % Q or not 0 <= got[i] < Q]
    for i in bad[:5]:
        dut._log.error("%s[%d] = %d expected %d", name, i, got[i], exp[i] % Q)
    assert not bad, "%s: %d mismatches" % (name, len(bad))


def polys(rng, count):
    out = [[0] * 256, [1] + [0] * 255, [0] * 255 + [Q - 1]]
    if FULL:
        out += [[0] * 7 + [1] + [0] * 248, [Q - 1] * 256]
    out += [[rng.randrange(Q) for _ in range(256)] for _ in range(count)]
    return out


@cocotb.test()
async def ntt_and_inverse(dut):
    tb = KemTB(dut)
    await tb.reset()
    rng = random.Random(int(os.environ.get("FA_SEED", "11")))
    for k, f in enumerate(polys(rng, 8 if FULL else 1)):
        await tb.load(0, f)
        await tb.run()
        fh = await tb.read(0)
        check(dut, "ntt#%d" % k, fh, km.ntt(f))
        check(dut, "ntt#%d vs C" % k, fh, km.c_ntt([x if x <= Q // 2 else x - Q for x in f]))
        c_fwd = tb.cycles
        await tb.run(inv=1)
        check(dut, "intt#%d" % k, await tb.read(0), f)
        # inverse times 2^16 (the library slot) on a fresh random NTT-domain input
        g = [rng.randrange(Q) for _ in range(256)] if k else [0] * 256
        await tb.load(0, g)
        await tb.run(inv=1, mont=1)
        check(dut, "intt_mont#%d vs C" % k, await tb.read(0), km.c_invntt(g))
        dut._log.info("ntt %d cycles, intt %d cycles", c_fwd, tb.cycles)


@cocotb.test()
async def base_multiplication(dut):
    tb = KemTB(dut)
    await tb.reset()
    rng = random.Random(12)
    ps = polys(rng, 6 if FULL else 2)
    nr = 6 if FULL else 2                 # the random ones are last
    # each special polynomial (zero, 1, x^255 (q-1), ...) times a random
    # one, a random one times 1, and random times random
    pairs = [(p, ps[-1 - (i % nr)]) for i, p in enumerate(ps[:-nr])]
    pairs += [(ps[-1], ps[1]), (ps[-1], ps[-2])]
    for k, (a, b) in enumerate(pairs):
        for mont in (0, 1):
            await tb.load(0, a)
            await tb.load(1, b)
            await tb.run(vop=1, mont=mont)
            got = await tb.read(0)
            if mont:
                check(dut, "basemul_mont#%d vs C" % k, got, km.c_basemul(a, b))
            else:
                check(dut, "basemul#%d" % k, got, km.basemul(a, b))
            # B is untouched by the product
            check(dut, "B after basemul#%d" % k, await tb.read(1), b)
        dut._log.info("basemul %d cycles", tb.cycles)


@pytest.mark.parametrize("P", [4] + ([1, 2] if FULL else []))
def test_kem_engine(P):
    from fa_cocotb import ip_sources, run
    srcs = ip_sources("common", "ntt", "fp64", "fft")
    run("kem_engine", srcs, "test_kem_engine", os.path.dirname(os.path.abspath(__file__)),
        parameters={"P": P, "LP": {1: 0, 2: 1, 4: 2}[P]}, extra_env={"FA_P": str(P)})


def test_kem_rom_fresh():
    gen = os.path.join(km.HW, "ntt", "util", "gen_kem_tables.py")
    r = subprocess.run([sys.executable, gen, "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
