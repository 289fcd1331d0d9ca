"""cocotb tests of ntt_engine (and ntt_modmul inside it): NTT / iNTT for
every logn = 1..10 and the pointwise product, against the definition of
the NTT representation (fa_model.ntt_direct for small n, the network
model checked against it otherwise), for P = 1, 2, 4.
Run: cd hw && python3 -m pytest ntt/dv -q"""
import os
import random

import cocotb
import pytest

import fa_model as m
from fa_tb import EngineTB

FULL = bool(os.environ.get("FA_HW_FULL"))


def check(dut, name, got, exp):
    bad = [i for i in range(len(exp)) if got[i] != exp[i]]
    for i in bad[:5]:
        dut._log.error("%s[%d] = %d expected %d", name, i, got[i], exp[i])
    assert not bad, "%s: %d mismatches" % (name, len(bad))


@cocotb.test()
async def ntt_intt_all_logn(dut):
    tb = EngineTB(dut, "ntt")
    await tb.reset()
    rng = random.Random(int(os.environ.get("FA_SEED", "7")))
    lognl = list(range(1, 11)) if FULL or os.environ.get("FA_P") == "4" else [1, 2, 3, 5, 9]
    for logn in lognl:
        n = 1 << logn
        # edge values first, then random
        a = [0, m.Q - 1, 1][:n] + [rng.randrange(m.Q) for _ in range(n - min(n, 3))]
        tb.set_L(logn)
        await tb.load_mq(0, a)
        await tb.run(inv=0)
        c_ntt = tb.cycles
        A = await tb.read_mq(0, n)
        exp = m.ntt_direct(a, logn) if logn <= 6 else m.ntt(a, logn)
        check(dut, "ntt logn=%d" % logn, A, exp)
        await tb.run(inv=1)
        c_intt = tb.cycles
        back = await tb.read_mq(0, n)
        check(dut, "intt logn=%d" % logn, back, a)
        dut._log.info("logn=%d ntt %d cycles, intt %d cycles", logn, c_ntt, c_intt)


@cocotb.test()
async def pointwise_mul(dut):
    tb = EngineTB(dut, "ntt")
    await tb.reset()
    rng = random.Random(8)
    for logn in ([1, 4, 10] if FULL else [1, 4]):
        n = 1 << logn
        a = [rng.randrange(m.Q) for _ in range(n)]
        b = [m.Q - 1] * 2 + [rng.randrange(m.Q) for _ in range(n - 2)]
        tb.set_L(logn)
        await tb.load_mq(0, a)
        await tb.load_mq(1, b)
        await tb.run(vop=1)
        check(dut, "mul logn=%d" % logn, await tb.read_mq(0, n),
              [x * y % m.Q for x, y in zip(a, b)])


@pytest.mark.parametrize("P", [1, 2, 4])
def test_ntt_engine(P):
    from fa_cocotb import ip_sources, run
    srcs = ip_sources("common", "ntt", "fp64", "fft")
    run("ntt_engine", srcs, "test_ntt_engine", os.path.dirname(os.path.abspath(__file__)),
        parameters={"P": P, "LP": {1: 0, 2: 1, 4: 2}[P]}, extra_env={"FA_P": str(P)})
