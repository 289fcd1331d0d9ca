"""cocotb tests of eksum_unit against the C library: words streamed into
the unit (back to back and with random gaps), the eight lanes read out and
folded as src/privkey_check.c folds them, and the result compared with the
library's fa_expanded_key_checksum32 on the same words (zero, single-bit
and random bodies, expanded-key sizes of logn 1..10, a re-seed in the
middle of a stream).
Run: cd hw && python3 -m pytest eksum/dv -q"""
import ctypes
import os
import random
import sys

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "sampler", "dv"))
import sampler_refmodel  # noqa: E402

M32 = 0xFFFFFFFF


def lib():
    so = sampler_refmodel.lib()
    so.fa_expanded_key_checksum32.argtypes = [ctypes.POINTER(ctypes.c_uint32),
                                              ctypes.c_size_t, ctypes.c_uint]
    so.fa_expanded_key_checksum32.restype = ctypes.c_uint32
    return so


def lib_checksum(words, logn):
    arr = (ctypes.c_uint32 * max(1, len(words)))(*words)
    return lib().fa_expanded_key_checksum32(arr, len(words), logn)


def mix(h, w):
    h = ((h ^ w) * 0x9E3779B1) & M32
    return h ^ (h >> 16)


def fold(lanes, nw):
    """The library's final step: the word count, then lanes 0..7."""
    r = mix(0x452821E6, nw & M32)
    for h in lanes:
        r = mix(r, h)
    return r


def body_words(logn):
    """32-bit words of an expanded key's body: (4n + (logn + 1) n) fpr."""
    n = 1 << logn
    return 2 * (4 * n + (logn + 1) * n)


class EksumTB:
    def __init__(self, dut):
        self.dut = dut

    async def start(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, "ns").start())
        d.rst_ni.value = 0
        d.clr_i.value = 0
        d.logn_i.value = 0
        d.we_i.value = 0
        d.wdata_i.value = 0
        d.lane_sel_i.value = 0
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)

    async def clear(self, logn):
        d = self.dut
        d.clr_i.value, d.logn_i.value = 1, logn
        await RisingEdge(d.clk_i)
        d.clr_i.value = 0

    async def send(self, words, rng=None, gap=0.0):
        d = self.dut
        for w in words:
            while rng is not None and rng.random() < gap:
                d.we_i.value = 0
                await RisingEdge(d.clk_i)
            d.we_i.value, d.wdata_i.value = 1, w
            await RisingEdge(d.clk_i)
        d.we_i.value = 0

    async def result(self, nw):
        """Wait until COUNT = nw (bounded), read the lanes, fold."""
        d = self.dut
        for _ in range(16):
            await ReadOnly()
            if int(d.count_o.value) == nw:
                break
            await RisingEdge(d.clk_i)
        assert int(d.count_o.value) == nw, "count %d, sent %d" % (int(d.count_o.value), nw)
        await RisingEdge(d.clk_i)
        lanes = []
        for i in range(8):
            d.lane_sel_i.value = i
            await ReadOnly()
            lanes.append(int(d.lane_o.value))
            await RisingEdge(d.clk_i)
        return fold(lanes, nw)


@cocotb.test()
async def checksum_matches_library(dut):
    tb = EksumTB(dut)
    await tb.start()
    rng = random.Random(2026)
    cases = [("zero", 4, [0] * body_words(4)),
             ("one bit", 3, [0] * 77 + [1 << 31] + [0] * (body_words(3) - 78))]
    full = bool(os.environ.get("FA_HW_FULL"))
    for logn in (range(1, 11) if full else (1, 2, 5, 9)):
        cases.append(("random", logn, [rng.getrandbits(32) for _ in range(body_words(logn))]))
    for name, logn, words in cases:
        await tb.clear(logn)
        await tb.send(words, rng, gap=0.3 if name == "random" and logn < 6 else 0.0)
        got = await tb.result(len(words))
        exp = lib_checksum(words, logn)
        assert got == exp, "%s logn %d: RTL fold %08x, library %08x" % (name, logn, got, exp)
        dut._log.info("%s logn %d: %d words, checksum %08x", name, logn, len(words), got)
    # a changed word changes the result
    words = [rng.getrandbits(32) for _ in range(body_words(2))]
    await tb.clear(2)
    await tb.send(words)
    a = await tb.result(len(words))
    words[5] ^= 1
    await tb.clear(2)
    await tb.send(words)
    b = await tb.result(len(words))
    assert a != b and b == lib_checksum(words, 2)


@cocotb.test()
async def reseed_mid_stream(dut):
    """A clear while words are in flight drops them: only the words after
    it count."""
    tb = EksumTB(dut)
    await tb.start()
    rng = random.Random(7)
    junk = [rng.getrandbits(32) for _ in range(13)]
    words = [rng.getrandbits(32) for _ in range(body_words(3))]
    await tb.clear(3)
    await tb.send(junk)
    await tb.clear(3)               # the last junk words are still in the pipeline
    await tb.send(words)
    assert await tb.result(len(words)) == lib_checksum(words, 3)


def test_eksum_unit():
    from fa_cocotb import ip_sources, run
    sampler_refmodel.build()
    run("eksum_unit", ip_sources("eksum"), "test_eksum_unit", HERE)
