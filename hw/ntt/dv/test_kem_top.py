"""cocotb tests of the ML-KEM mode inside falcon_accel_top (MLKEM = 1):
KEM_NTT / KEM_INTT_MONT / KEM_BASEMUL_MONT (the rtl backend's slots) and
KEM_INTT / KEM_BASEMUL (FIPS 203 as written) with operands through the KEM
window (AXI4-Lite) and the stream target KEM (s_axis / m_axis with
back-pressure), checked against the C library's portable kernels and
kem_refmodel's FIPS algorithms; CONFIG.MLKEM; the illegal requests: START
and window accesses while an op runs (ERR = BUSY, SLVERR), an unknown op
next to the KEM ops (BAD_OP), LOGN not used by the KEM ops.
Run: cd hw && python3 -m pytest ntt/dv/test_kem_top.py -q"""
import os
import random
import sys

import cocotb
import pytest
from cocotb.triggers import RisingEdge

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "top", "dv"))
import kem_refmodel as km  # noqa: E402
from test_falcon_accel_top import ERR, OP, REG, TopTB  # noqa: E402

import gen_regmap  # noqa: E402  (path set by test_falcon_accel_top)

RM = gen_regmap.load()
WIN = {w["name"]: w["offset"] for w in RM["windows"]}
TGT = {v["name"]: v["value"] for v in RM["enums"]["TARGET"]}
CFG_MLKEM = 1 << next(f["lsb"] for r in RM["registers"] if r["name"] == "CONFIG"
                      for f in r["fields"] if f["name"] == "MLKEM")
Q = km.Q


class KemTopTB(TopTB):
    async def load_window(self, f, b=0):
        for i, w in enumerate(km.pack(f)):
            assert await self.write(WIN["KEM"] + 4 * (128 * b + i), w) == 0

    async def read_window(self, b=0):
        return km.unpack([await self.read(WIN["KEM"] + 4 * (128 * b + i)) for i in range(128)])

    async def load_stream(self, a, b):
        """A and B in one burst (256 words)."""
        await self.stream_in(TGT["KEM"], km.pack(a) + km.pack(b))

    async def read_stream(self, words=128):
        return km.unpack(await self.stream_out(TGT["KEM"], words))


def check(dut, name, got, exp):
    bad = [i for i in range(256) if got[i] != exp[i] % Q]
    for i in bad[:5]:
        dut._log.error("%s[%d] = %d expected %d", name, i, got[i], exp[i] % Q)
    assert not bad, "%s: %d mismatches" % (name, len(bad))


def centred(f):
    return [x - Q if x > Q // 2 else x for x in f]


@cocotb.test()
async def ops_against_library(dut):
    tb = KemTopTB(dut, seed=3)
    await tb.start()
    rng = random.Random(21)
    assert await tb.read(REG["CONFIG"]) & CFG_MLKEM
    await tb.write(REG["LOGN"], 0)      # not used by the KEM ops
    one = [0] * 256
    one[1] = 1
    a = [rng.randrange(Q) for _ in range(256)]
    b = [rng.randrange(Q) for _ in range(256)]
    # through the window: forward NTT of a single coefficient
    await tb.load_window(one)
    cyc = await tb.op("KEM_NTT")
    check(dut, "KEM_NTT(x)", await tb.read_window(), km.c_ntt(one))
    dut._log.info("KEM_NTT %d cycles", cyc)
    # through the stream (operands A and B in one burst, results by m_axis):
    # forward NTT of a random polynomial, the inverse times 2^16 (the
    # library slot) of the result
    await tb.load_stream(a, b)
    await tb.op("KEM_NTT")
    fh = await tb.read_stream()
    check(dut, "KEM_NTT", fh, km.c_ntt(centred(a)))
    cyc = await tb.op("KEM_INTT_MONT")
    check(dut, "KEM_INTT_MONT", await tb.read_stream(), km.c_invntt(centred(fh)))
    dut._log.info("KEM_INTT_MONT %d cycles", cyc)
    tb.stall = 0.3
    await tb.load_stream(a, b)
    cyc = await tb.op("KEM_BASEMUL_MONT")
    got = await tb.read_stream(256)
    check(dut, "KEM_BASEMUL_MONT", got[:256], km.c_basemul(centred(a), centred(b)))
    check(dut, "B after KEM_BASEMUL_MONT", got[256:], b)
    dut._log.info("KEM_BASEMUL_MONT %d cycles", cyc)
    tb.stall = 0.0
    await tb.load_stream(a, b)
    await tb.op("KEM_BASEMUL")
    check(dut, "KEM_BASEMUL", await tb.read_stream(), km.basemul(a, b))
    await tb.op("KEM_INTT")
    check(dut, "KEM_INTT", await tb.read_stream(), km.intt(km.basemul(a, b)))


@cocotb.test()
async def illegal_requests(dut):
    tb = KemTopTB(dut, seed=4)
    await tb.start()
    rng = random.Random(22)
    a = [rng.randrange(Q) for _ in range(256)]
    await tb.load_stream(a, a)
    # an op code next to the KEM ops is refused (with a legal LOGN: BAD_LOGN
    # comes first for unknown ops, as for every op that uses LOGN)
    await tb.write(REG["LOGN"], 8)
    await tb.write(REG["OP"], OP["KEM_BASEMUL_MONT"] + 1)
    await tb.write(REG["CTRL"], 1)
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["BAD_OP"]
    await tb.write(REG["CTRL"], 2)
    # START while KEM_NTT runs: BUSY; window write/read while busy: SLVERR
    await tb.write(REG["OP"], OP["KEM_NTT"])
    await tb.write(REG["CTRL"], 1)
    for _ in range(4):
        if int(dut.kem_busy.value):
            break
        await RisingEdge(dut.aclk)
    assert int(dut.kem_busy.value) == 1
    assert await tb.write(REG["CTRL"], 1) == 0
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["BUSY"]
    assert await tb.write(WIN["KEM"] + 4, 5) == 2
    assert (await tb.read(WIN["KEM"], want_resp=True))[1] == 2
    await tb.wait_done()
    # the refused requests changed nothing
    check(dut, "KEM_NTT after refused requests", await tb.read_stream(), km.ntt(a))


@pytest.mark.parametrize("P", [4])
def test_kem_top(P):
    from fa_cocotb import manifest, TOP_MANIFEST, run
    km.lib()
    srcs = manifest(TOP_MANIFEST)
    run("falcon_accel_top", srcs, "test_kem_top", HERE, tag="mlkem",
        parameters={"P": P, "LP": {1: 0, 2: 1, 4: 2}[P], "MLKEM": 1},
        extra_env={"FA_P": str(P)})
