"""cocotb tests of fp64_add and fp64_mul against the Python binary64 model
(fa_model.fadd / fmul: Python float arithmetic plus flush-to-zero).

Run: cd hw && python3 -m pytest fp64/dv -q   (FA_HW_FULL=1 for more vectors)
"""
import os
import random
import struct

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge

import fa_model as m

# result latency in cycles (pipeline depth of each unit)
LAT = {"fp64_add": 6, "fp64_mul": 5}
OPS = {"fp64_add": m.fadd, "fp64_mul": m.fmul}


def bits(x):
    return m.f2b(x)


# Directed corner cases (operand bit patterns).
P0, N0 = 0, m.SIGN
PINF, NINF = 0x7FF0000000000000, 0xFFF0000000000000
SNAN, QN = 0x7FF0000000000001, 0xFFF8000000000123
MAXN = 0x7FEFFFFFFFFFFFFF
MINN = 0x0010000000000000
SUB = 0x000FFFFFFFFFFFFF
SUB1 = 0x8000000000000001
ONE = bits(1.0)
ULP = bits(2.0 ** -52)
DIRECTED = [
    (P0, P0), (P0, N0), (N0, P0), (N0, N0), (ONE, N0), (N0, ONE),
    (ONE, bits(-1.0)), (bits(-1.0), ONE),
    (PINF, ONE), (NINF, ONE), (PINF, NINF), (PINF, PINF), (PINF, P0),
    (N0, NINF), (SNAN, ONE), (ONE, QN), (QN, PINF),
    (MAXN, MAXN), (MAXN, bits(2.0)), (MAXN, bits(-1.0)), (MAXN, bits(0.5)),
    (MINN, MINN), (MINN, bits(0.5)), (MINN, bits(-0.75)), (MINN, bits(2.0)),
    (MINN, MINN ^ m.SIGN), (MINN + 1, MINN ^ m.SIGN),
    (SUB, ONE), (ONE, SUB), (SUB, SUB), (SUB1, bits(-3.0)), (SUB, MINN),
    (ONE, bits(2.0 ** -53)), (ONE, bits(3 * 2.0 ** -53)),
    (bits(1.0 + 2.0 ** -52), bits(2.0 ** -53)),
    (ONE, bits(-(2.0 ** -54))), (ONE, bits(-(1.0 - 2.0 ** -53))),
    (bits(1.5), bits(1.5)), (bits(1.0 + 2.0 ** -52), bits(1.0 + 2.0 ** -52)),
    (bits(1.0 - 2.0 ** -53), bits(1.0 - 2.0 ** -53)),
    (0x3FFFFFFFFFFFFFFF, 0x3FFFFFFFFFFFFFFF), (0x3FFFFFFFFFFFFFFF, ONE),
    (bits(2.0 ** 600), bits(2.0 ** 500)), (bits(2.0 ** -600), bits(2.0 ** -500)),
    (bits(2.0 ** -511), bits(2.0 ** -511)), (bits(1e300), bits(-1e-300)),
    (bits(12289.0), bits(1.0 / 12289.0)), (ONE, bits(2.0 ** -1000)),
]


def rand_operand(rng, kind):
    if kind == 0:   # Falcon-like range
        return bits(rng.uniform(-1e6, 1e6) * 2.0 ** rng.randint(-30, 30))
    if kind == 1:   # close exponents (cancellation)
        return bits(rng.choice([-1, 1]) * (1 + rng.random()) * 2.0 ** rng.randint(-3, 3))
    # any finite normal bit pattern
    return (rng.getrandbits(1) << 63) | (rng.randint(1, 2046) << 52) | rng.getrandbits(52)


def rand_pairs(rng, count):
    out = []
    for _ in range(count):
        k = rng.randrange(3)
        a = rand_operand(rng, k)
        if k == 1 and rng.random() < 0.5:
            # b very close to -a: massive cancellation
            b = (a ^ m.SIGN) + rng.randint(-3, 3)
        else:
            b = rand_operand(rng, k)
        out.append((a, b))
    return out


class FpTB:
    def __init__(self, dut):
        self.dut = dut
        self.model = OPS[dut._name]

    def check(self, pairs, got):
        bad = 0
        for (a, b), y in zip(pairs, got):
            exp = self.model(a, b)
            ok = (m.is_nan(exp) and y == m.QNAN) or y == exp
            if not ok:
                bad += 1
                if bad < 10:
                    self.dut._log.error("%s(%016x, %016x) = %016x, expected %016x",
                                        self.dut._name, a, b, y, exp)
        assert bad == 0, "%d mismatches" % bad


@cocotb.test()
async def directed(dut):
    tb = FpTB(dut)
    pairs = DIRECTED + [(b, a) for a, b in DIRECTED]
    got = await collect(dut, pairs)
    tb.check(pairs, got)


@cocotb.test()
async def random_vectors(dut):
    tb = FpTB(dut)
    rng = random.Random(int(os.environ.get("FA_SEED", "1")))
    pairs = rand_pairs(rng, int(os.environ.get("FA_NVEC", "2000")))
    got = await collect(dut, pairs)
    tb.check(pairs, got)


async def collect(dut, pairs):
    """Feed one pair per cycle; sample y LAT cycles after each pair."""
    lat = LAT[dut._name]
    clk = cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
    got = []
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.a.value, dut.b.value = pairs[0]
    for i in range(1, len(pairs) + lat + 1):
        await RisingEdge(dut.clk)
        if i < len(pairs):
            dut.a.value, dut.b.value = pairs[i]
        if i >= lat:
            await cocotb.triggers.ReadOnly()
            got.append(int(dut.y.value))
            await cocotb.triggers.NextTimeStep()
    clk.kill()
    return got[:len(pairs)]


@pytest.mark.parametrize("unit", ["fp64_add", "fp64_mul"])
def test_fp64(unit):
    from fa_cocotb import ip_sources, run, nvec
    run(unit, ip_sources("fp64"), "test_fp64",
        os.path.dirname(os.path.abspath(__file__)),
        extra_env={"FA_NVEC": str(nvec(3000, 100000))})
