"""cocotb tests of keccak_unit (and keccak_round inside it): the
permutation against the C library's fa_keccak_f1600 (zero, single-bit
and random states), sponges driven word by word through the unit
(multi-block absorb, squeeze across permutations) against the library's
SHAKE256 and hashlib's SHAKE128 / SHA3-256 / SHA3-512, and the illegal
requests (a command or a write while busy, an unknown command) reported
on err_o without touching the state.
Run: cd hw && python3 -m pytest keccak/dv/test_keccak_unit.py -q"""
import hashlib
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import keccak_refmodel as ref

CLEAR, PERMUTE = 1, 2
FULL = bool(os.environ.get("FA_HW_FULL"))


class KeccakTB:
    def __init__(self, dut):
        self.dut = dut
        self.errs = 0

    async def start(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, "ns").start())
        cocotb.start_soon(self._count_errs())
        d.rst_ni.value = 0
        d.cmd_valid_i.value = 0
        d.cmd_i.value = 0
        d.h_en_i.value = 0
        d.h_we_i.value = 0
        d.h_idx_i.value = 0
        d.h_wdata_i.value = 0
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)

    async def _count_errs(self):
        while True:
            await RisingEdge(self.dut.clk_i)
            await ReadOnly()
            if self.dut.err_o.value.is_resolvable and int(self.dut.err_o.value):
                self.errs += 1

    async def write(self, idx, v):
        d = self.dut
        d.h_en_i.value, d.h_we_i.value = 1, 1
        d.h_idx_i.value, d.h_wdata_i.value = idx, v
        await RisingEdge(d.clk_i)
        d.h_en_i.value, d.h_we_i.value = 0, 0

    async def read(self, idx):
        d = self.dut
        d.h_en_i.value, d.h_we_i.value, d.h_idx_i.value = 1, 0, idx
        await RisingEdge(d.clk_i)
        d.h_en_i.value = 0
        await ReadOnly()
        v = int(d.h_rdata_o.value)
        await RisingEdge(d.clk_i)
        return v

    async def cmd(self, c, limit=100):
        """Issue command c and wait for done_o; returns the cycles from the
        command to done_o."""
        d = self.dut
        d.cmd_valid_i.value, d.cmd_i.value = 1, c
        await RisingEdge(d.clk_i)
        d.cmd_valid_i.value = 0
        for n in range(1, limit):
            await ReadOnly()
            if int(d.done_o.value):
                await RisingEdge(d.clk_i)
                return n
            await RisingEdge(d.clk_i)
        raise AssertionError("command %d: no done_o in %d cycles" % (c, limit))

    async def load(self, lanes):
        await self.cmd(CLEAR)
        for i, w in enumerate(ref.lanes_to_words(lanes)):
            await self.write(i, w)

    async def state(self):
        return ref.words_to_lanes([await self.read(i) for i in range(50)])

    async def sponge(self, kind, data, outlen):
        rate, pad = ref.SPONGES[kind]
        await self.cmd(CLEAR)
        for blk in ref.padded_blocks(data, rate, pad):
            for i, w in enumerate(ref.words(blk)):
                await self.write(i, w)
            await self.cmd(PERMUTE)
        out = b""
        while True:
            for i in range(rate // 4):
                out += (await self.read(i)).to_bytes(4, "little")
            if len(out) >= outlen:
                return out[:outlen]
            await self.cmd(PERMUTE)


def check_lanes(dut, what, got, exp):
    bad = [i for i in range(25) if got[i] != exp[i]]
    for i in bad[:3]:
        dut._log.error("%s: lane %d = %016x expected %016x", what, i, got[i], exp[i])
    assert not bad, "%s: %d lanes differ" % (what, len(bad))


@cocotb.test()
async def permutation_vs_library(dut):
    tb = KeccakTB(dut)
    await tb.start()
    rng = random.Random(int(os.environ.get("FA_SEED", "11")))
    states = [[0] * 25]
    bits = [0, 1, 63, 64, 799, 1088, 1599] + rng.sample(range(1600), 20 if FULL else 3)
    for b in bits:
        s = [0] * 25
        s[b // 64] = 1 << (b % 64)
        states.append(s)
    states += [[rng.getrandbits(64) for _ in range(25)] for _ in range(20 if FULL else 4)]
    states.append([(1 << 64) - 1] * 25)
    for k, s in enumerate(states):
        await tb.load(s)
        cyc = await tb.cmd(PERMUTE)
        # accepted at the command's clock edge, 24 rounds, done_o after the last
        assert cyc == 25, "permutation took %d cycles" % cyc
        check_lanes(dut, "state %d" % k, await tb.state(), ref.permute(s))
    # twice in a row on the resident state (no reload)
    s = states[-2]
    await tb.load(s)
    await tb.cmd(PERMUTE)
    await tb.cmd(PERMUTE)
    check_lanes(dut, "two permutations", await tb.state(), ref.permute(ref.permute(s)))
    assert tb.errs == 0


@cocotb.test()
async def sponges(dut):
    kind = os.environ.get("FA_SPONGE", "shake256")
    tb = KeccakTB(dut)
    await tb.start()
    rng = random.Random(5)
    rate = ref.SPONGES[kind][0]
    # message lengths around the block boundary: multi-block absorb with the
    # padding in a block of its own (len = rate - 1 puts 0x1F|0x80 in one byte)
    lens = [0, rate - 1, rate, 2 * rate + 7] + ([3 * rate + 1, 1000] if FULL else [])
    for n in lens:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        if kind.startswith("shake"):
            outlen = 2 * rate + 40          # squeeze across permutations
            got = await tb.sponge(kind, data, outlen)
            exp = getattr(hashlib, kind.replace("shake", "shake_"))(data).digest(outlen)
            if kind == "shake256":
                assert ref.shake256(data, outlen) == exp
        else:
            outlen = int(kind[5:]) // 8
            got = await tb.sponge(kind, data, outlen)
            exp = getattr(hashlib, kind)(data).digest()
        assert got == exp, "%s len %d: %s expected %s" % (kind, n, got.hex(), exp.hex())
    assert tb.errs == 0


@cocotb.test()
async def illegal_requests(dut):
    tb = KeccakTB(dut)
    await tb.start()
    d = dut
    rng = random.Random(9)
    s = [rng.getrandbits(64) for _ in range(25)]
    exp = ref.permute(s)
    await tb.load(s)
    # PERMUTE, then during it: a second PERMUTE, a CLEAR and a write
    d.cmd_valid_i.value, d.cmd_i.value = 1, PERMUTE
    await RisingEdge(d.clk_i)
    d.cmd_valid_i.value = 0
    await RisingEdge(d.clk_i)
    await ReadOnly()
    assert int(d.busy_o.value) == 1
    await RisingEdge(d.clk_i)
    e0 = tb.errs
    d.cmd_valid_i.value, d.cmd_i.value = 1, PERMUTE
    await RisingEdge(d.clk_i)
    d.cmd_i.value = CLEAR
    await RisingEdge(d.clk_i)
    d.cmd_valid_i.value = 0
    await tb.write(3, 0xDEADBEEF)
    for _ in range(40):
        await ReadOnly()
        if not int(d.busy_o.value):
            break
        await RisingEdge(d.clk_i)
    await RisingEdge(d.clk_i)
    assert tb.errs - e0 == 3, "errors reported: %d" % (tb.errs - e0)
    check_lanes(dut, "after refused requests", await tb.state(), exp)
    # unknown commands (0, 3): reported, nothing happens
    for c in (0, 3):
        e0 = tb.errs
        d.cmd_valid_i.value, d.cmd_i.value = 1, c
        await RisingEdge(d.clk_i)
        d.cmd_valid_i.value = 0
        for _ in range(3):
            await RisingEdge(d.clk_i)
            await ReadOnly()
            assert not int(d.done_o.value) and not int(d.busy_o.value)
        await RisingEdge(d.clk_i)
        assert tb.errs - e0 == 1
    check_lanes(dut, "after unknown commands", await tb.state(), exp)
    # words >= 50 read 0 and are not written
    await tb.write(50, 0x12345678)
    assert await tb.read(50) == 0
    check_lanes(dut, "after an out-of-range write", await tb.state(), exp)


@pytest.mark.parametrize("sponge", ["shake256", "shake128", "sha3_256", "sha3_512"])
def test_keccak_unit(sponge):
    from fa_cocotb import ip_sources, run
    ref.sampler_refmodel.build()
    tests = None if sponge == "shake256" else "sponges"
    run("keccak_unit", ip_sources("keccak"),
        "test_keccak_unit", os.path.dirname(os.path.abspath(__file__)), tag=sponge,
        extra_env={"FA_SPONGE": sponge, **({"TESTCASE": tests} if tests else {})})
