"""cocotb tests of the op FFSAMPLING of falcon_accel_top (FFSAMP = 1:
hw/ffsamp's engine behind the top's AXI4-Lite registers and AXI-Stream
targets FS_TREE / FS_WORK, SamplerZ on the top's PRNG), checked against the
C library (hw/sampler/dv/sampler_refmodel: the library's LDL tree of a real
key, ffsamp_tree from a flat PRNG state): z0, z1 bit for bit, the PRNG
state read back (SZ_STATE_CTR, SZ_STATE_PTR) equal to the library's after
ffsamp_tree, FS_RESULT.SAMPLES = 2n; CYCLES minus FS_SZ_CYCLES (the
vector work and the recursion) the same for two keys, targets and PRNG
states; every illegal request reports its
code (no PRNG, no tree, an uncommitted tree, a wrong LOGN, a start while
busy, the FS_WDOG watchdog, SamplerZ's trial watchdog) and the core keeps
serving bit-exactly.

Run: cd hw && python3 -m pytest -q ffsamp/dv/test_ffsamp_top.py
  FA_FFSAMP_TOP_LOGNS="9 10" (make test-ffsamp-top-long): the Falcon
  degrees, matches_library only (Icarus: most of an hour).
"""
import os
import random
import sys

import cocotb
from cocotb.triggers import RisingEdge

HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HW, "sampler", "dv"))
sys.path.insert(0, os.path.join(HW, "top", "dv"))
import sampler_refmodel as ref  # noqa: E402
from test_falcon_accel_top import ERR, OP, REG, RM, TopTB, fpr_words, words_fpr  # noqa: E402
from test_ffsamp_unit import f2b, record, targets  # noqa: E402

FSERR = {v["name"]: v["value"] for v in RM["enums"]["FSERR"]}
TGT = {v["name"]: v["value"] for v in RM["enums"]["TARGET"]}


def logns():
    return [int(x) for x in os.environ.get("FA_FFSAMP_TOP_LOGNS", "1 2 3 4").split()]


class FfsampTopTB(TopTB):
    async def write64(self, name, v):
        await self.write(REG[name + "_LO"], v & 0xFFFFFFFF)
        await self.write(REG[name + "_HI"], v >> 32)

    async def sz_load(self, state, ptr):
        for k in range(12):
            await self.write(REG["SZ_KEY%d" % k], int.from_bytes(state[4 * k:4 * k + 4], "little"))
        await self.write64("SZ_CTR", int.from_bytes(state[48:56], "little"))
        await self.write(REG["SZ_PTR"], ptr)
        await self.write(REG["OP"], OP["SZ_LOAD"])
        await self.write(REG["CTRL"], 1)
        await self.wait_status()

    async def wait_status(self, limit=10_000_000):
        for _ in range(limit):
            st = await self.read(REG["STATUS"])
            if st & 2 or not st & 1:
                return st
        raise AssertionError("no DONE")

    async def load_tree(self, tree, logn, commit=True):
        await self.stream_in(TGT["FS_TREE"], fpr_words(tree))
        if commit:
            await self.write(REG["FS_TREE"], logn)

    async def stream_at(self, target, start, count):
        """count words of target from word start (STREAM.START)."""
        d = self.dut
        await self.write(REG["STREAM"], target | start << 16)
        await self.write(REG["STREAM_OUT"], count)
        out = []
        d.m_axis_tready.value = 1
        while len(out) < count:
            await RisingEdge(d.aclk)
            await cocotb.triggers.ReadOnly()
            if int(d.m_axis_tvalid.value):
                out.append(int(d.m_axis_tdata.value))
            await cocotb.triggers.NextTimeStep()
        d.m_axis_tready.value = 0
        return out

    async def ffsampling(self, logn, smin, max_trials=0, wdog=0, poke=False):
        """One FFSAMPLING; returns (STATUS.ERR, FS_RESULT.ERR, samples,
        CYCLES). poke: START again while it runs (must be refused)."""
        await self.write(REG["LOGN"], logn)
        await self.write64("SZ_SMIN", smin)
        await self.write(REG["SZ_MAX_TRIALS"], max_trials)
        await self.write(REG["FS_WDOG"], wdog)
        await self.write(REG["OP"], OP["FFSAMPLING"])
        await self.write(REG["CTRL"], 1)
        if poke:
            await self.write(REG["CTRL"], 1)
            st = await self.read(REG["STATUS"])
            assert st & 1 and st >> 4 == ERR["BUSY"], hex(st)
            assert dut_ready(self.dut) == 0
        st = await self.wait_status()
        res = await self.read(REG["FS_RESULT"])
        return st >> 4, res & 7, res >> 16, await self.read(REG["CYCLES"])

    async def prng_state(self):
        lo = await self.read(REG["SZ_STATE_CTR_LO"])
        hi = await self.read(REG["SZ_STATE_CTR_HI"])
        return lo | hi << 32, await self.read(REG["SZ_STATE_PTR"])


def dut_ready(d):
    return int(d.s_axis_tready.value)


async def one_case(tb, rng, logn, tree, log, load=True, poke=False):
    n = 1 << logn
    if load:
        await tb.load_tree(tree, logn)
    t0, t1 = targets(rng, n), targets(rng, n)
    state = bytes(rng.getrandbits(8) for _ in range(56))
    ptr = rng.choice((0, rng.randrange(512), 500 + rng.randrange(12)))
    await tb.stream_in(TGT["FS_WORK"], fpr_words(t0 + t1))
    await tb.sz_load(state, ptr)
    model = ref.RefPrng(state, ptr)
    z0, z1 = model.ffsamp(tree, t0, t1, logn)
    err, fserr, ns, cyc = await tb.ffsampling(logn, ref.sigma_min(logn), poke=poke)
    # a refused START (poke) leaves STATUS.ERR = BUSY: the command itself ran
    assert (err, fserr, ns) == (ERR["BUSY" if poke else "NONE"], FSERR["OK"], 2 * n), (err, fserr, ns)
    got = words_fpr(await tb.stream_at(TGT["FS_WORK"], 4 * n, 4 * n))
    st = await tb.prng_state()
    if got != z0 + z1 or st != (model.counter, model.ptr.value):
        for i in range(2 * n):
            if got[i] != (z0 + z1)[i]:
                log.error("logn %d fpr %d: rtl %016x library %016x", logn, i, got[i], (z0 + z1)[i])
        log.error("PRNG after: rtl %s library %s", st, (model.counter, model.ptr.value))
        raise AssertionError("FFSAMPLING differs from the library")
    # the inputs are still there (the engine writes z0, z1 and scratch only)
    assert words_fpr(await tb.stream_at(TGT["FS_WORK"], 0, 4 * n)) == t0 + t1
    szc = await tb.read(REG["FS_SZ_CYCLES"])
    assert 0 < szc < cyc, (szc, cyc)
    return cyc, szc


@cocotb.test()
async def matches_library(dut):
    """z0, z1 and the PRNG state after, through the top, for real keys."""
    tb = FfsampTopTB(dut, seed=3)
    await tb.start()
    cfg = await tb.read(REG["CONFIG"])
    assert (cfg >> 18) & 1 == 1 and (cfg >> 16) & 1 == 1, hex(cfg)
    rng = random.Random(int(os.environ.get("FA_SEED", "17")))
    figures = {}
    for logn in logns():
        outside = set()
        for k in range(2):
            tree = ref.expanded_tree(logn, b"ffsamp-top-%d-%d" % (logn, k))
            cyc, szc = await one_case(tb, rng, logn, tree, dut._log)
            dut._log.info("logn %d key %d: FFSAMPLING %d cycles (CYCLES), %d waiting for "
                          "SamplerZ, %d outside", logn, k, cyc, szc, cyc - szc)
            figures.setdefault(str(logn), []).append({"cycles": cyc, "samplerz_cycles": szc})
            assert await tb.read(REG["FS_TREE"]) == 0x10 | logn
            outside.add(cyc - szc)
        # the part outside SamplerZ depends on nothing but logn
        assert len(outside) == 1, outside
    record("top_cycles", figures)


@cocotb.test()
async def errors_and_recovery(dut):
    tb = FfsampTopTB(dut, seed=4)
    await tb.start()
    rng = random.Random(23)
    logn = 3
    n = 1 << logn
    smin = ref.sigma_min(logn)
    tree = ref.expanded_tree(logn, b"ffsamp-top-err")
    # no PRNG state yet: refused by the top, FSERR NOSEED
    assert (await tb.ffsampling(logn, smin))[:2] == (ERR["FFSAMP"], FSERR["NOSEED"])
    await tb.sz_load(bytes(range(56)), 0)
    # no tree, then an uncommitted one
    assert (await tb.ffsampling(logn, smin))[:2] == (ERR["FFSAMP"], FSERR["NOTREE"])
    await tb.load_tree(tree, logn, commit=False)
    assert await tb.read(REG["FS_TREE"]) & 0x10 == 0
    assert (await tb.ffsampling(logn, smin))[:2] == (ERR["FFSAMP"], FSERR["NOTREE"])
    await tb.write(REG["FS_TREE"], logn)
    assert await tb.read(REG["FS_TREE"]) == 0x10 | logn
    # LOGN not the tree's; LOGN outside 1..10 is the top's BAD_LOGN
    for bad in (2, 4):
        assert (await tb.ffsampling(bad, smin))[:2] == (ERR["FFSAMP"], FSERR["LOGN"]), bad
    await tb.write(REG["LOGN"], 0)
    await tb.write(REG["CTRL"], 1)
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["BAD_LOGN"]
    # a tree write uncommits
    await tb.stream_in(TGT["FS_TREE"], fpr_words(tree[:1]))
    assert await tb.read(REG["FS_TREE"]) & 0x10 == 0
    assert (await tb.ffsampling(logn, smin))[:2] == (ERR["FFSAMP"], FSERR["NOTREE"])
    await tb.load_tree(tree, logn)
    # the cycle watchdog
    await tb.stream_in(TGT["FS_WORK"], fpr_words(targets(rng, 2 * n)))
    err, fserr, _, cyc = await tb.ffsampling(logn, smin, wdog=300)
    assert (err, fserr) == (ERR["FFSAMP"], FSERR["WDOG"]) and cyc >= 300, (err, fserr, cyc)
    # SamplerZ's trial watchdog at some leaf, and an illegal sigma_min
    errs = set()
    for _ in range(3):
        errs.add((await tb.ffsampling(logn, smin, max_trials=1))[1])
    assert FSERR["SZ_TRIALS"] in errs, errs
    assert (await tb.ffsampling(logn, f2b(2.5)))[1:3] == (FSERR["SZ_ARG"], 1)
    # an unknown target value is refused
    assert await tb.write(REG["STREAM"], 7) == 2
    await tb.write(REG["CTRL"], 2)
    # a START while busy is refused; the running command stays bit-exact
    await one_case(tb, rng, logn, tree, dut._log, load=False, poke=True)
    # and the FFT engine beside it still works
    await tb.write(REG["LOGN"], 4)
    await tb.write(REG["OP"], OP["FFT"])
    await tb.write(REG["CTRL"], 1)
    assert (await tb.wait_status()) & 2


def test_ffsamp_top():
    from fa_cocotb import manifest, TOP_MANIFEST, run
    ref.build()
    maxlogn = max(max(logns()), 4)
    srcs = manifest(TOP_MANIFEST)
    run("falcon_accel_top", srcs, "test_ffsamp_top", HERE, tag="ffsamp",
        parameters={"P": 1, "LP": 0, "SAMPLER": 1, "FFSAMP": 1, "FS_MAXLOGN": maxlogn},
        extra_env=dict({"FA_P": "1", "FA_FFSAMP_TOP_LOGNS": " ".join(str(x) for x in logns())},
                       **({"TESTCASE": os.environ["FA_FFSAMP_TESTS"]}
                          if os.environ.get("FA_FFSAMP_TESTS") else {})))
