"""cocotb tests of fft_engine: FFT / iFFT for every logn and the FFT-domain
vector ops, against the Python model of src/fft.c (fa_model), for
P = 1, 2, 4 lanes. Run: cd hw && python3 -m pytest fft/dv -q
(FA_HW_FULL=1: every logn for every op, more vectors)."""
import os
import random

import cocotb
import pytest

import fa_model as m
from fa_tb import VOPS, EngineTB

FULL = bool(os.environ.get("FA_HW_FULL"))


def rand_poly(rng, n, scale=1e4):
    return [m.f2b(rng.uniform(-scale, scale)) for _ in range(n)]


def check(dut, name, got, exp):
    bad = [i for i in range(len(exp)) if got[i] != exp[i]]
    for i in bad[:5]:
        dut._log.error("%s[%d] = %016x expected %016x", name, i, got[i], exp[i])
    assert not bad, "%s: %d mismatches" % (name, len(bad))


@cocotb.test()
async def fft_ifft_all_logn(dut):
    tb = EngineTB(dut, "fft")
    await tb.reset()
    rng = random.Random(int(os.environ.get("FA_SEED", "5")))
    lognl = list(range(1, 11)) if FULL or os.environ.get("FA_P") == "4" else [1, 2, 3, 4, 6, 9]
    for logn in lognl:
        n = 1 << logn
        f = rand_poly(rng, n)
        tb.set_L(logn - 1)
        await tb.load_fpr(0, f, logn)
        await tb.run(inv=0)
        c_fft = tb.cycles
        F = await tb.read_fpr(0, logn)
        check(dut, "fft logn=%d" % logn, F, m.fft(f, logn))
        await tb.run(inv=1)
        c_ifft = tb.cycles
        g = await tb.read_fpr(0, logn)
        check(dut, "ifft logn=%d" % logn, g, m.ifft(F, logn))
        dut._log.info("logn=%d fft %d cycles, ifft %d cycles", logn, c_fft, c_ifft)


@cocotb.test()
async def vector_ops(dut):
    tb = EngineTB(dut, "fft")
    await tb.reset()
    rng = random.Random(int(os.environ.get("FA_SEED", "6")))
    lognl = [1, 2, 3, 5, 9] if FULL else [1, 3, 5]
    for logn in lognl:
        n = 1 << logn
        tb.set_L(logn - 1)
        for op, code in VOPS.items():
            a = rand_poly(rng, n)
            b = rand_poly(rng, n)
            c = m.f2b(rng.uniform(-3, 3))
            await tb.load_fpr(0, a, logn)
            await tb.load_fpr(1, b, logn)
            await tb.run(vop=1, vsel=code, const=c)
            got = await tb.read_fpr(0, logn)
            check(dut, "%s logn=%d" % (op, logn), got, m.vec_op(op, a, b, logn, c))
            # B is unchanged by vector ops
            if op == "add":
                check(dut, "B after add", await tb.read_fpr(1, logn), b)


@cocotb.test()
async def special_values(dut):
    """Zeros of both signs, huge/tiny values, inf and NaN through a
    transform and the vector ops (NaN compared as 'is NaN')."""
    tb = EngineTB(dut, "fft")
    await tb.reset()
    logn = 3
    tb.set_L(logn - 1)
    a = [0, m.SIGN, m.f2b(1e300), m.f2b(-1e-300), 0x7FF0000000000000, m.f2b(2.0), m.f2b(-0.5), m.SIGN]
    b = [m.SIGN, m.SIGN, m.f2b(1e300), m.f2b(1e-300), m.f2b(-3.0), 0x7FF8000000000000, 0, 0x000FFFFFFFFFFFFF]
    for op, code in VOPS.items():
        await tb.load_fpr(0, a, logn)
        await tb.load_fpr(1, b, logn)
        await tb.run(vop=1, vsel=code, const=m.SIGN)
        got = await tb.read_fpr(0, logn)
        exp = m.vec_op(op, a, b, logn, m.SIGN)
        for i, (g, e) in enumerate(zip(got, exp)):
            assert g == e or (m.is_nan(e) and g == m.QNAN), (op, i, hex(g), hex(e))
    await tb.load_fpr(0, a, logn)
    await tb.run(inv=0)
    got = await tb.read_fpr(0, logn)
    exp = m.fft(a, logn)
    for i, (g, e) in enumerate(zip(got, exp)):
        assert g == e or (m.is_nan(e) and g == m.QNAN), ("fft", i, hex(g), hex(e))


@pytest.mark.parametrize("P", [1, 2, 4])
def test_fft_engine(P):
    from fa_cocotb import ip_sources, run
    srcs = ip_sources("fp64", "common", "fft", "ntt")
    run("fft_engine", srcs, "test_fft_engine", os.path.dirname(os.path.abspath(__file__)),
        parameters={"P": P, "LP": {1: 0, 2: 1, 4: 2}[P]}, extra_env={"FA_P": str(P)})
