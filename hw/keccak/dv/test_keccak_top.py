"""cocotb tests of the Keccak unit inside falcon_accel_top (KECCAK = 1):
SHAKE256 through the KECCAK window (AXI4-Lite XOR-writes, op
KECCAK_PERMUTE, word reads) and through the stream target KECCAK (a block
absorbed by s_axis, squeezed by m_axis with back-pressure), checked
against the C library; CONFIG.KECCAK; the illegal requests: START and
window accesses while the permutation runs (ERR = BUSY, SLVERR), words
past 50, a STREAM target that does not exist.
Run: cd hw && python3 -m pytest keccak/dv/test_keccak_top.py -q"""
import os
import random
import sys

import cocotb
import pytest
from cocotb.triggers import RisingEdge

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "top", "dv"))
import keccak_refmodel as ref  # noqa: E402
from test_falcon_accel_top import ERR, OP, REG, TopTB  # noqa: E402

import gen_regmap  # noqa: E402  (path set by test_falcon_accel_top)

RM = gen_regmap.load()
WIN = {w["name"]: w["offset"] for w in RM["windows"]}
TGT = {v["name"]: v["value"] for v in RM["enums"]["TARGET"]}
RATE = 136


class KeccakTopTB(TopTB):
    async def shake256_window(self, data, outlen):
        """SHAKE256 with every word over AXI4-Lite."""
        await self.op("KECCAK_CLEAR")
        for blk in ref.padded_blocks(data, RATE, 0x1F):
            for i, w in enumerate(ref.words(blk)):
                assert await self.write(WIN["KECCAK"] + 4 * i, w) == 0
            await self.op("KECCAK_PERMUTE")
        out = b""
        while len(out) < outlen:
            for i in range(RATE // 4):
                out += (await self.read(WIN["KECCAK"] + 4 * i)).to_bytes(4, "little")
            if len(out) < outlen:
                await self.op("KECCAK_PERMUTE")
        return out[:outlen]

    async def shake256_stream(self, data, outlen):
        """SHAKE256 with the blocks on the burst path (as the SoC's DMA)."""
        await self.op("KECCAK_CLEAR")
        for blk in ref.padded_blocks(data, RATE, 0x1F):
            await self.stream_in(TGT["KECCAK"], ref.words(blk))
            await self.op("KECCAK_PERMUTE")
        out = b""
        while len(out) < outlen:
            for w in await self.stream_out(TGT["KECCAK"], RATE // 4):
                out += w.to_bytes(4, "little")
            if len(out) < outlen:
                await self.op("KECCAK_PERMUTE")
        return out[:outlen]


@cocotb.test()
async def shake256_window_and_stream(dut):
    tb = KeccakTopTB(dut, seed=4)
    await tb.start()
    cfg = await tb.read(REG["CONFIG"])
    assert (cfg >> 17) & 1 == 1, hex(cfg)
    rng = random.Random(12)
    for n, stall in ((0, 0.0), (RATE, 0.3), (2 * RATE + 5, 0.0)):
        data = bytes(rng.getrandbits(8) for _ in range(n))
        exp = ref.shake256(data, 300)
        tb.stall = stall
        assert await tb.shake256_window(data, 300) == exp, "window, len %d" % n
        assert await tb.shake256_stream(data, 300) == exp, "stream, len %d" % n
    tb.stall = 0.0
    # the full state through the window: a permutation of 25 random lanes
    s = [rng.getrandbits(64) for _ in range(25)]
    await tb.op("KECCAK_CLEAR")
    for i, w in enumerate(ref.lanes_to_words(s)):
        await tb.write(WIN["KECCAK"] + 4 * i, w)
    cyc = await tb.op("KECCAK_PERMUTE")
    got = ref.words_to_lanes([await tb.read(WIN["KECCAK"] + 4 * i) for i in range(50)])
    assert got == ref.permute(s)
    dut._log.info("KECCAK_PERMUTE: CYCLES = %d", cyc)
    # LOGN is not used by the Keccak ops: they run with an illegal LOGN
    await tb.write(REG["LOGN"], 0)
    await tb.op("KECCAK_CLEAR")
    assert await tb.read(WIN["KECCAK"] + 4 * 7) == 0


@cocotb.test()
async def illegal_requests(dut):
    tb = KeccakTopTB(dut, seed=5)
    await tb.start()
    rng = random.Random(13)
    s = [rng.getrandbits(64) for _ in range(25)]
    await tb.op("KECCAK_CLEAR")
    for i, w in enumerate(ref.lanes_to_words(s)):
        await tb.write(WIN["KECCAK"] + 4 * i, w)
    # start the permutation, then (while it runs) START again, write and
    # read the window: refused, the permutation's result is unharmed
    await tb.write(REG["OP"], OP["KECCAK_PERMUTE"])
    dut.s_axil_awaddr.value, dut.s_axil_awvalid.value = REG["CTRL"], 1
    dut.s_axil_wdata.value, dut.s_axil_wvalid.value = 1, 1
    while True:
        await RisingEdge(dut.aclk)
        if int(dut.s_axil_awready.value):
            break
    dut.s_axil_awvalid.value, dut.s_axil_wvalid.value = 0, 0
    for _ in range(4):          # B response, then the START reaches the unit
        await RisingEdge(dut.aclk)
        if int(dut.k_busy.value):
            break
    assert int(dut.k_busy.value) == 1
    assert await tb.write(REG["CTRL"], 1) == 0           # START while busy
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["BUSY"]
    assert await tb.write(WIN["KECCAK"], 1) == 2          # write while busy: SLVERR
    await tb.wait_done()
    got = ref.words_to_lanes([await tb.read(WIN["KECCAK"] + 4 * i) for i in range(50)])
    assert got == ref.permute(s)
    # words 50..63 of the window, a missing STREAM target
    await tb.write(REG["CTRL"], 2)
    assert await tb.write(WIN["KECCAK"] + 4 * 50, 1) == 2
    assert (await tb.read(WIN["KECCAK"] + 4 * 63, want_resp=True))[1] == 2
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["ACCESS"]
    await tb.write(REG["CTRL"], 2)
    assert await tb.write(REG["STREAM"], TGT["NTT_A"]) == 0
    for t in (5, 7):
        assert await tb.write(REG["STREAM"], t) == 2
        assert (await tb.read(REG["STATUS"])) >> 4 == ERR["ACCESS"]
        assert await tb.read(REG["STREAM"]) == TGT["NTT_A"]   # unchanged
        await tb.write(REG["CTRL"], 2)


@pytest.mark.parametrize("P", [1])
def test_keccak_top(P):
    from fa_cocotb import manifest, TOP_MANIFEST, run
    ref.sampler_refmodel.build()
    srcs = manifest(TOP_MANIFEST)
    run("falcon_accel_top", srcs, "test_keccak_top", HERE, tag="keccak",
        parameters={"P": P, "LP": {1: 0, 2: 1, 4: 2}[P], "KECCAK": 1},
        extra_env={"FA_P": str(P)})
