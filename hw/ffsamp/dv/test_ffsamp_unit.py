"""cocotb tests of ffsamp_unit (sampler_prng + ffsamp_engine) against the C
library (hw/sampler/dv/sampler_refmodel: src/ built as a shared object,
emulated FP): the library's LDL tree of a real key (fa_keygen_inner +
fa_expand_privkey_inner) resident in the engine's tree memory, targets
(t0, t1) in, (z0, z1) out bit for bit, and the PRNG state after (block
counter, byte pointer) equal to the library's after ffsamp_tree; a missing
tree, a wrong logn, an illegal sigma_min, a start while busy and the cycle
watchdog report their error; the engine keeps serving after each; the
cycle count outside SamplerZ does not depend on the key or the targets.

Run: cd hw && python3 -m pytest -q ffsamp/dv
  FA_FFSAMP_LOGNS="9 10" FA_FFSAMP_TESTS=matches_library (make
  test-ffsamp-long): the Falcon degrees (Icarus: ~2 k cycles/s, most of an
  hour).
"""
import os
import random
import struct
import sys

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "sampler", "dv"))
import sampler_refmodel as ref  # noqa: E402

ERR_OK, ERR_NOTREE, ERR_LOGN, ERR_WDOG = 0, 1, 2, 3
ERR_SZ_ARG, ERR_SZ_RANGE, ERR_SZ_TRIALS = 5, 6, 7


def f2b(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def b2f(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def record(key, value):
    """Measured figures for the docs: merged into
    $FA_HW_BUILD/ffsamp_results.json."""
    import json
    from fa_cocotb import SIM_BUILD
    path = os.path.join(SIM_BUILD, os.environ.get("FA_FFSAMP_RESULTS", "ffsamp_results.json"))
    data = {}
    if os.path.exists(path):
        with open(path) as f:
            data = json.load(f)
    data[key] = value
    os.makedirs(SIM_BUILD, exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)


class FfsampTB:
    """Drives ffsamp_unit: memory port, PRNG load, commands; counts the
    cycles of each command and those spent waiting for SamplerZ."""

    def __init__(self, dut):
        self.dut = dut
        self.cycle = 0
        self.sz_cycles = 0
        self.refused = 0

    async def start(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, "ns").start())
        cocotb.start_soon(self._count())
        d.rst_ni.value = 0
        for s in ("prng_load_i", "key_i", "ctr_i", "ptr_i", "mem_we_i", "mem_sel_i",
                  "mem_addr_i", "mem_wdata_i", "tree_commit_i", "tree_logn_i", "start_i",
                  "logn_i", "sigma_min_i", "max_trials_i", "wdog_i"):
            getattr(d, s).value = 0
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)

    async def _count(self):
        d = self.dut
        while True:
            await RisingEdge(d.clk_i)
            self.cycle += 1
            await ReadOnly()
            if int(d.u_engine.szf_q.value):
                self.sz_cycles += 1
            if int(d.refused_o.value):
                self.refused += 1

    async def write(self, sel, base, words):
        d = self.dut
        for i, w in enumerate(words):
            await RisingEdge(d.clk_i)
            d.mem_we_i.value, d.mem_sel_i.value = 1, sel
            d.mem_addr_i.value, d.mem_wdata_i.value = base + i, w
        await RisingEdge(d.clk_i)
        d.mem_we_i.value = 0

    async def read(self, sel, base, count):
        d = self.dut
        out = []
        d.mem_sel_i.value = sel
        for i in range(count):
            await RisingEdge(d.clk_i)
            d.mem_addr_i.value = base + i
            await RisingEdge(d.clk_i)
            await ReadOnly()
            out.append(int(d.mem_rdata_o.value))
        return out

    async def load_tree(self, tree, logn, commit=True):
        d = self.dut
        await self.write(1, 0, tree)
        if commit:
            await RisingEdge(d.clk_i)
            d.tree_commit_i.value, d.tree_logn_i.value = 1, logn
            await RisingEdge(d.clk_i)
            d.tree_commit_i.value = 0

    async def tree_ok(self):
        await RisingEdge(self.dut.clk_i)
        await ReadOnly()
        return int(self.dut.tree_ok_o.value)

    async def load_prng(self, state, ptr):
        d = self.dut
        await RisingEdge(d.clk_i)
        d.key_i.value = int.from_bytes(bytes(state[:48]), "little")
        d.ctr_i.value = int.from_bytes(bytes(state[48:56]), "little")
        d.ptr_i.value = ptr
        d.prng_load_i.value = 1
        await RisingEdge(d.clk_i)
        d.prng_load_i.value = 0
        await RisingEdge(d.clk_i)
        while True:
            await ReadOnly()
            if not int(d.prng_busy_o.value):
                break
            await RisingEdge(d.clk_i)

    async def run(self, logn, smin, max_trials=0, wdog=0, poke_busy=False):
        """One command; returns (err, cycles, samples, sz_cycles). With
        poke_busy, start_i is raised again while the command runs."""
        d = self.dut
        await RisingEdge(d.clk_i)
        d.logn_i.value, d.sigma_min_i.value = logn, smin
        d.max_trials_i.value, d.wdog_i.value = max_trials, wdog
        d.start_i.value = 1
        await RisingEdge(d.clk_i)
        d.start_i.value = 0
        sz0, t0 = self.sz_cycles, self.cycle
        poked = False
        while True:
            await ReadOnly()
            if int(d.done_o.value):
                break
            await RisingEdge(d.clk_i)
            if poke_busy and not poked and self.cycle - t0 > 20:
                d.start_i.value = 1
                await RisingEdge(d.clk_i)
                d.start_i.value = 0
                poked = True
            assert self.cycle - t0 < 50_000_000, "no done"
        res = (int(d.err_o.value), int(d.cycles_o.value), int(d.samples_o.value),
               self.sz_cycles - sz0)
        await RisingEdge(d.clk_i)
        return res


def targets(rng, n):
    """Targets of the size a signature produces (|t| up to a few thousand),
    with integers, half-integers and tiny values among them."""
    out = []
    for _ in range(n):
        kind = rng.randrange(5)
        if kind == 0:
            x = float(rng.randint(-3000, 3000))
        elif kind == 1:
            x = rng.randint(-3000, 3000) + 0.5
        elif kind == 2:
            x = rng.uniform(-1.0, 1.0) * 2.0 ** -rng.randint(0, 40)
        else:
            x = rng.uniform(-4000.0, 4000.0)
        out.append(f2b(x))
    return out


def logns():
    return [int(x) for x in os.environ.get("FA_FFSAMP_LOGNS", "1 2 3 4").split()]


async def one_case(tb, rng, logn, tree, log, load=True):
    """Random targets and PRNG state through the RTL and the library."""
    n = 1 << logn
    if load:
        await tb.load_tree(tree, logn)
    t0, t1 = targets(rng, n), targets(rng, n)
    state = bytes(rng.getrandbits(8) for _ in range(56))
    # start pointers near the end of the buffer exercise refills mid-sample
    ptr = rng.choice((0, rng.randrange(512), 500 + rng.randrange(12)))
    await tb.write(0, 0, t0 + t1)
    await tb.load_prng(state, ptr)
    model = ref.RefPrng(state, ptr)
    z0, z1 = model.ffsamp(tree, t0, t1, logn)
    err, cyc, ns, szc = await tb.run(logn, ref.sigma_min(logn))
    assert err == ERR_OK, "err %d" % err
    got = await tb.read(0, 2 * n, 2 * n)
    d = tb.dut
    rtl_state = (int(d.ctr_o.value), int(d.ptr_o.value))
    if got != z0 + z1 or rtl_state != (model.counter, model.ptr.value):
        for i in range(2 * n):
            w = (z0 + z1)[i]
            if got[i] != w:
                log.error("logn %d word %d: rtl %016x (%r) library %016x (%r)", logn, i,
                          got[i], b2f(got[i]), w, b2f(w))
        log.error("PRNG after: rtl %s library %s", rtl_state, (model.counter, model.ptr.value))
        raise AssertionError("RTL differs from the library")
    assert ns == 2 * n
    return cyc, szc


@cocotb.test()
async def matches_library(dut):
    """(z0, z1) bit for bit and the PRNG state after, for real keys of every
    degree in FA_FFSAMP_LOGNS, random targets and PRNG states."""
    tb = FfsampTB(dut)
    await tb.start()
    rng = random.Random(int(os.environ.get("FA_SEED", "7")))
    per = int(os.environ.get("FA_FFSAMP_PER", "2"))
    figures = {}
    for logn in logns():
        for k in range(per):
            tree = ref.expanded_tree(logn, b"ffsamp-key-%d-%d" % (logn, k))
            cyc, szc = await one_case(tb, rng, logn, tree, dut._log)
            dut._log.info("logn %d key %d: %d cycles (%d in SamplerZ, %d samples)",
                          logn, k, cyc, szc, 2 << logn)
            figures.setdefault(str(logn), []).append(
                {"cycles": cyc, "samplerz_cycles": szc, "samples": 2 << logn})
    record("matches_library", figures)


@cocotb.test()
async def errors_and_watchdog(dut):
    """Missing tree, wrong logn, illegal sigma_min, start while busy, the
    watchdog: each reports its code and the engine serves the next command
    bit-exactly."""
    tb = FfsampTB(dut)
    await tb.start()
    rng = random.Random(11)
    logn = 3
    tree = ref.expanded_tree(logn, b"ffsamp-err")
    smin = ref.sigma_min(logn)
    state = bytes(range(56))
    await tb.load_prng(state, 0)
    # no tree committed yet
    assert (await tb.run(logn, smin))[0] == ERR_NOTREE
    await tb.load_tree(tree, logn, commit=False)
    assert (await tb.run(logn, smin))[0] == ERR_NOTREE
    await tb.load_tree(tree, logn)
    assert await tb.tree_ok() == 1
    # wrong degrees
    for bad in (0, 2, 4, 15):
        assert (await tb.run(bad, smin))[0] == ERR_LOGN, bad
    # a tree write clears the committed flag
    await tb.write(1, 0, tree[:1])
    assert await tb.tree_ok() == 0
    assert (await tb.run(logn, smin))[0] == ERR_NOTREE
    await tb.load_tree(tree, logn)
    # sigma_min outside [1, 2): SamplerZ's ERR_ARG at the first leaf
    err, _, ns, _ = await tb.run(logn, f2b(2.5))
    assert (err, ns) == (ERR_SZ_ARG, 1), (err, ns)
    # watchdog: a limit far below a command's length
    await tb.write(0, 0, targets(rng, 2 << logn))
    err, cyc, _, _ = await tb.run(logn, smin, wdog=200)
    assert err == ERR_WDOG and cyc >= 200, (err, cyc)
    # SamplerZ's own trial watchdog (one trial allowed): some leaf fails
    await tb.load_prng(state, 0)
    errs = set()
    for _ in range(3):
        errs.add((await tb.run(logn, smin, max_trials=1))[0])
    assert ERR_SZ_TRIALS in errs, errs
    # start while busy: refused, the running command completes bit-exactly
    r0 = tb.refused
    n = 1 << logn
    t0, t1 = targets(rng, n), targets(rng, n)
    await tb.write(0, 0, t0 + t1)
    await tb.load_prng(state, 5)
    model = ref.RefPrng(state, 5)
    z0, z1 = model.ffsamp(tree, t0, t1, logn)
    err, _, _, _ = await tb.run(logn, smin, poke_busy=True)
    assert err == ERR_OK and tb.refused == r0 + 1
    assert await tb.read(0, 2 * n, 2 * n) == z0 + z1
    assert (int(dut.ctr_o.value), int(dut.ptr_o.value)) == (model.counter, model.ptr.value)
    # and a normal command afterwards
    await one_case(tb, rng, logn, tree, dut._log, load=False)


@cocotb.test()
async def timing_outside_samplerz(dut):
    """Two keys and two targets on the same PRNG stream: the cycles outside
    SamplerZ are the same (the recursion and the vector steps are
    data-independent); SamplerZ's own time depends on trials, BerExp bytes
    and refills only (hw/sampler's timing test)."""
    tb = FfsampTB(dut)
    await tb.start()
    rng = random.Random(5)
    logn = max(l for l in logns() if l <= 4) if any(l <= 4 for l in logns()) else logns()[0]
    rest = set()
    for k in range(2):
        rng_k = random.Random(100)          # the same PRNG state and pointer
        tree = ref.expanded_tree(logn, b"ffsamp-timing-%d" % k)
        await tb.load_tree(tree, logn)
        n = 1 << logn
        t0, t1 = targets(rng, n), targets(rng, n)
        state = bytes(rng_k.getrandbits(8) for _ in range(56))
        await tb.write(0, 0, t0 + t1)
        await tb.load_prng(state, 0)
        err, cyc, _, szc = await tb.run(logn, ref.sigma_min(logn))
        assert err == ERR_OK
        rest.add(cyc - szc)
    assert len(rest) == 1, rest
    record("outside_samplerz_cycles", {str(logn): rest.pop()})


# the engine with four element threads (the default) and, in the short
# runs, eight (THREADS_LOG2 = 3); FA_FFSAMP_THREADS_LOG2 picks one
THREADS = ([int(os.environ["FA_FFSAMP_THREADS_LOG2"])] if os.environ.get("FA_FFSAMP_THREADS_LOG2")
           else [2, 3] if max(logns()) <= 4 else [2])


@pytest.mark.parametrize("threads_log2", THREADS)
def test_ffsamp_unit(threads_log2):
    from fa_cocotb import ip_sources, manifest, run
    ref.build()
    maxlogn = max(max(logns()), 4)
    run("ffsamp_unit",
        ip_sources("fp64", "fft", "sampler") + manifest("ffsamp/data/ffsamp_unit.f"),
        "test_ffsamp_unit", HERE, parameters={"MAXLOGN": maxlogn, "THREADS_LOG2": threads_log2},
        extra_env=dict({"FA_FFSAMP_LOGNS": " ".join(str(x) for x in logns()),
                        "FA_FFSAMP_RESULTS": "ffsamp_results.json" if threads_log2 == 2
                        else "ffsamp_results_t%d.json" % threads_log2},
                       **({"TESTCASE": os.environ["FA_FFSAMP_TESTS"]}
                          if os.environ.get("FA_FFSAMP_TESTS") else {})))


def test_node2_ucode_fresh():
    """K_NODE2's microprogram in ffsamp_engine.v is the one
    util/node2_ucode.py generates (which also checks its values against the
    generic kernels' operations and its register allocation)."""
    import subprocess
    import sys
    util = os.path.join(HERE, "..", "util", "node2_ucode.py")
    eng = os.path.join(HERE, "..", "rtl", "ffsamp_engine.v")
    subprocess.run([sys.executable, util, "--check", eng], check=True)


def test_mps_ucode_fresh():
    """K_MPS's microprogram in ffsamp_engine.v is the one util/mps_ucode.py
    generates (its values checked against K_MERGE, K_T0, K_SPLIT's
    operations there)."""
    import subprocess
    import sys
    util = os.path.join(HERE, "..", "util", "mps_ucode.py")
    eng = os.path.join(HERE, "..", "rtl", "ffsamp_engine.v")
    subprocess.run([sys.executable, util, "--check", eng], check=True)
