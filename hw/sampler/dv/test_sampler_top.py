"""cocotb tests of the SamplerZ ops of falcon_accel_top through AXI4-Lite
(SZ_LOAD, SAMPLERZ; registers generated from hw/top/data/regmap.json),
checked against the C library (sampler_refmodel): z, the PRNG state read
back (SZ_STATE_CTR, SZ_STATE_PTR), CYCLES; error codes (STATUS.ERR =
SAMPLER with SZ_RESULT.ERR) and that the core keeps serving.

Run: cd hw && python3 -m pytest -q sampler/dv/test_sampler_top.py
"""
import os
import random
import struct
import sys

import cocotb

HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HW, "top", "dv"))
import sampler_refmodel as ref  # noqa: E402
from test_falcon_accel_top import ERR, OP, REG, RM, TopTB  # noqa: E402

SZERR = {v["name"]: v["value"] for v in RM["enums"]["SZERR"]}


def f2b(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


class SamplerTopTB(TopTB):
    async def write64(self, name, v):
        await self.write(REG[name + "_LO"], v & 0xFFFFFFFF)
        await self.write(REG[name + "_HI"], v >> 32)

    async def sz_load(self, state, ptr=0):
        for k in range(12):
            await self.write(REG["SZ_KEY%d" % k], int.from_bytes(state[4 * k:4 * k + 4], "little"))
        await self.write64("SZ_CTR", int.from_bytes(state[48:56], "little"))
        await self.write(REG["SZ_PTR"], ptr)
        return await self.sz_op("SZ_LOAD")

    async def sz_op(self, name):
        await self.write(REG["OP"], OP[name])
        await self.write(REG["CTRL"], 1)
        while True:
            st = await self.read(REG["STATUS"])
            if st & 2:
                break
        res = await self.read(REG["SZ_RESULT"])
        return (st >> 4) & 0xF, (res >> 8) & 7, res & 0xFF, await self.read(REG["CYCLES"])

    async def samplerz(self, mu, isig, smin):
        await self.write64("SZ_MU", mu)
        await self.write64("SZ_ISIGMA", isig)
        await self.write64("SZ_SMIN", smin)
        err, szerr, trials, cyc = await self.sz_op("SAMPLERZ")
        z = await self.read(REG["SZ_Z"])
        z -= (z >> 31) << 32
        ctr = await self.read(REG["SZ_STATE_CTR_LO"]) | (await self.read(REG["SZ_STATE_CTR_HI"]) << 32)
        ptr = await self.read(REG["SZ_STATE_PTR"])
        return err, szerr, z, ctr, ptr, trials, cyc


@cocotb.test()
async def samplerz_ops(dut):
    tb = SamplerTopTB(dut)
    await tb.start()
    assert (await tb.read(REG["CONFIG"]) >> 16) & 1 == 1, "CONFIG.SAMPLER not set"
    rng = random.Random(21)
    # before any load: refused by the unit, reported, core keeps serving
    smin = ref.sigma_min(9)
    got = await tb.samplerz(f2b(1.5), f2b(0.7), smin)
    assert got[0] == ERR["SAMPLER"] and got[1] == SZERR["NOSEED"], got
    # no buffer to read out yet: STREAM_OUT on SZ_BUF refused
    szb = next(v["value"] for v in RM["enums"]["TARGET"] if v["name"] == "SZ_BUF")
    await tb.write(REG["CTRL"], 2)
    await tb.write(REG["STREAM"], szb)
    assert await tb.write(REG["STREAM_OUT"], 4) == 2
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["ACCESS"]
    await tb.write(REG["CTRL"], 2)
    state = bytes(rng.getrandbits(8) for _ in range(56))
    ptr = 505
    err, szerr, _, cyc = await tb.sz_load(state, ptr)
    assert err == ERR["NONE"] and szerr == 0
    dut._log.info("SZ_LOAD: %d cycles", cyc)
    model = ref.RefPrng(state, ptr)
    n = 12 if os.environ.get("FA_HW_FULL") else 5
    for i in range(n):
        mu = f2b(rng.uniform(-300, 300))
        isig = f2b(rng.uniform(1 / 1.8205, 1 / 1.2778))
        got = await tb.samplerz(mu, isig, smin)
        z, ctr, p = model.samplerz(mu, isig, smin)
        assert got[:5] == (ERR["NONE"], 0, z, ctr, p), (got, z, ctr, p)
        dut._log.info("SAMPLERZ z=%d trials=%d CYCLES=%d", z, got[5], got[6])
        # the buffer read out is the library's fa_prng buf (across refills:
        # the first samples start at ptr 505)
        if i in (0, n - 1):
            words = await tb.stream_out(szb, 128)
            exp = [int.from_bytes(bytes(model.buf[4 * k:4 * k + 4]), "little") for k in range(128)]
            assert words == exp, "SZ_BUF after sample %d" % i
    # illegal operand: ERR = SAMPLER, SZERR = ARG; the next sample is exact
    got = await tb.samplerz(f2b(1.0), f2b(1.5), smin)
    assert got[0] == ERR["SAMPLER"] and got[1] == SZERR["ARG"], got
    mu = f2b(-2.25)
    got = await tb.samplerz(mu, f2b(0.6), smin)
    z, ctr, p = model.samplerz(mu, f2b(0.6), smin)
    assert got[:5] == (ERR["NONE"], 0, z, ctr, p)
    # the FFT engine still works beside it (LOGN checks unchanged)
    await tb.write(REG["LOGN"], 0)
    await tb.write(REG["OP"], OP["FFT"])
    await tb.write(REG["CTRL"], 1)
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["BAD_LOGN"]


def test_sampler_top():
    from fa_cocotb import manifest, TOP_MANIFEST, run
    ref.build()
    srcs = manifest(TOP_MANIFEST)
    run("falcon_accel_top", srcs, "test_sampler_top", HERE, tag="sampler",
        parameters={"P": 1, "LP": 0, "SAMPLER": 1}, extra_env={"FA_P": "1"})
