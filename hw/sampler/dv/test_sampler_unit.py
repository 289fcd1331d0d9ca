"""cocotb tests of sampler_unit (PRNG + SamplerZ) against the C library
(sampler_refmodel: src/ built as a shared object, emulated FP): the same
PRNG state in gives the same z out and the same PRNG state after (block
counter and byte pointer), on random and edge inputs, across refills;
illegal requests report their error code; the trial watchdog ends every
command; a chi-square test against the ideal discrete Gaussian; the
cycle count depends on the inputs only through trials, bytes and refills.

Run: cd hw && python3 -m pytest -q sampler/dv   (FA_HW_FULL=1: more vectors)
"""
import math
import os
import random
import struct
import sys

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sampler_refmodel as ref  # noqa: E402

CMD_LOAD, CMD_SAMPLE = 1, 2
ERR_OK, ERR_ARG, ERR_RANGE, ERR_TRIALS, ERR_NOSEED, ERR_CMD = range(6)
FULL = bool(os.environ.get("FA_HW_FULL"))
SIGMA0 = 1.8205


def record(key, value):
    """Measured figures for the docs: merged into
    $FA_HW_BUILD/sampler_results.json."""
    import json
    from fa_cocotb import SIM_BUILD
    path = os.path.join(SIM_BUILD, "sampler_results.json")
    data = json.load(open(path)) if os.path.exists(path) else {}
    data[key] = value
    os.makedirs(SIM_BUILD, exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)


def f2b(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def b2f(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def nextafter(x, d):
    b = f2b(x)
    if x == 0.0:
        return b2f(1) if d > 0 else -b2f(1)
    return b2f(b + 1 if (x > 0) == (d > 0) else b - 1)


class SamplerTB:
    """Drives sampler_unit's command port; counts cycles per command."""

    def __init__(self, dut):
        self.dut = dut
        self.cycle = 0
        self.refill_cycles = 0   # cycles with the PRNG refilling
        self.bytes_read = 0      # bytes delivered on the PRNG byte port
        self.nonspec = 0         # trials started at the committed cursor (align)
        self.rewinds = 0         # speculations dropped after n_k > 1 BerExp bytes

    async def start(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, "ns").start())
        cocotb.start_soon(self._count())
        d.rst_ni.value = 0
        d.cmd_valid_i.value = 0
        d.cmd_i.value = 0
        for s in ("key_i", "ctr_i", "ptr_i", "mu_i", "isigma_i", "sigma_min_i", "max_trials_i",
                  "ext_sel_i", "ext_rd_valid_i", "ext_rd_align_i", "ext_pk_addr_i",
                  "ext_cm_valid_i", "ext_cm_ptr_i", "host_rd_i", "host_word_i",
                  "nmu_i", "nvalid_i"):
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
            if int(d.u_prng.busy_o.value):
                self.refill_cycles += 1
            elif int(d.u_prng.rd_valid_i.value) and not int(d.u_prng.rd_align_i.value):
                self.bytes_read += 1
            elif int(d.u_prng.rd_valid_i.value):
                self.nonspec += 1
            z = d.u_samplerz
            # a rejecting BerExp byte after the first (B_BER state) while a
            # speculative trial runs: the speculation is dropped
            if (int(z.bst_q.value) == 2 and int(d.u_prng.rd_ready_o.value)
                    and int(z.ber_last.value) and not int(z.ber_acc.value)
                    and int(z.spec_q.value) and int(z.trials_q.value) != int(z.maxt_q.value)):
                self.rewinds += 1

    async def command(self, cmd):
        """Issue cmd (valid until the edge where ready is high), wait for
        done; returns (err, cycles from that edge to done)."""
        d = self.dut
        await RisingEdge(d.clk_i)
        d.cmd_i.value = cmd
        d.cmd_valid_i.value = 1
        while True:
            await ReadOnly()
            rdy = int(d.cmd_ready_o.value)
            await RisingEdge(d.clk_i)
            if rdy:
                break
        t0 = self.cycle
        d.cmd_valid_i.value = 0
        while True:
            await ReadOnly()
            if int(d.done_o.value):
                break
            await RisingEdge(d.clk_i)
        err, cyc = int(d.err_o.value), self.cycle - t0
        await RisingEdge(d.clk_i)
        return err, cyc

    async def load(self, state, ptr=0):
        d = self.dut
        d.key_i.value = int.from_bytes(bytes(state[:48]), "little")
        d.ctr_i.value = int.from_bytes(bytes(state[48:56]), "little")
        d.ptr_i.value = ptr
        return await self.command(CMD_LOAD)

    async def sample(self, mu, isigma, smin, max_trials=0, nmu=None):
        """(err, z, trials, counter, ptr, cycles); nmu: announce the next
        sample's mu (samplerz's pair speculation)."""
        d = self.dut
        d.mu_i.value, d.isigma_i.value, d.sigma_min_i.value = mu, isigma, smin
        d.max_trials_i.value = max_trials
        d.nvalid_i.value, d.nmu_i.value = (0, 0) if nmu is None else (1, nmu)
        err, cyc = await self.command(CMD_SAMPLE)
        d.nvalid_i.value = 0
        z = d.z_o.value.signed_integer
        return (err, z, int(d.trials_o.value), int(d.ctr_o.value), int(d.ptr_o.value), cyc)


def rand_state(rng):
    return bytes(rng.getrandbits(8) for _ in range(56))


def isigma_bounds(logn):
    """The extreme 1/sigma of a degree: 1/sigma_min (the smallest leaf
    sigma) and 1/sigma0 (the largest), as bit patterns."""
    smin = b2f(ref.sigma_min(logn))
    return f2b(1.0 / smin), f2b(1.0 / SIGMA0)


def edge_mus(rng, count):
    out = []
    for _ in range(count):
        k = rng.randint(-3000, 3000)
        kind = rng.randrange(6)
        if kind == 0:
            x = float(k)
        elif kind == 1:
            x = nextafter(float(k), rng.choice((-1, 1)))
        elif kind == 2:
            x = k + 0.5
        elif kind == 3:
            x = nextafter(k + 0.5, rng.choice((-1, 1)))
        elif kind == 4:
            x = k + rng.choice((-1, 1)) * 2.0 ** -rng.randint(20, 50)
        else:
            x = rng.uniform(-5000.0, 5000.0)
        out.append(f2b(x))
    return out


async def check_stream(tb, rng, state, ptr, cases, log):
    """Load (state, ptr) into the RTL and the library, run every
    (mu, isigma, smin) case on both, compare z and the PRNG state after."""
    err, _ = await tb.load(state, ptr)
    assert err == ERR_OK
    model = ref.RefPrng(state, ptr)
    rows = []
    for mu, isig, smin in cases:
        got = await tb.sample(mu, isig, smin)
        z, ctr, p = model.samplerz(mu, isig, smin)
        if got[0] != ERR_OK or got[1:2] + got[3:5] != (z, ctr, p):
            log.error("mu=%016x isigma=%016x smin=%016x: rtl err=%d z=%d ctr=%d ptr=%d,"
                      " library z=%d ctr=%d ptr=%d", mu, isig, smin, got[0], got[1],
                      got[3], got[4], z, ctr, p)
            raise AssertionError("RTL differs from the library")
        rows.append(got)
    return rows


@cocotb.test()
async def edge_and_random(dut):
    """mu near integers and half-integers, extreme and random 1/sigma of
    both degrees, random PRNG states and start pointers."""
    tb = SamplerTB(dut)
    await tb.start()
    rng = random.Random(int(os.environ.get("FA_SEED", "1")))
    nstreams = int(os.environ.get("FA_NSTREAM", "3"))
    per = int(os.environ.get("FA_NVEC", "12"))
    total = trials = cycles = 0
    for k in range(nstreams):
        logn = (9, 10)[k % 2]
        smin = ref.sigma_min(logn)
        hi, lo = isigma_bounds(logn)
        cases = []
        for mu in edge_mus(rng, per):
            c = rng.randrange(3)
            isig = hi if c == 0 else lo if c == 1 else f2b(rng.uniform(b2f(lo), b2f(hi)))
            cases.append((mu, isig, smin))
        ptr = rng.choice((0, rng.randrange(512), 495, 502, 503, 510, 511))
        rows = await check_stream(tb, rng, rand_state(rng), ptr, cases, dut._log)
        total += len(rows)
        trials += sum(r[2] for r in rows)
        cycles += sum(r[5] for r in rows)
    dut._log.info("%d samples bit-exact; %.2f trials/sample, %.1f cycles/sample (refills incl.)",
                  total, trials / total, cycles / total)
    record("edge_and_random", {"samples": total, "trials_per_sample": trials / total,
                               "cycles_per_sample": cycles / total})


@cocotb.test()
async def refill_boundaries(dut):
    """Start pointers around both refill rules: the 9-byte check before
    the base sampler's 8 bytes (ptr >= 503) and the single-byte reads that
    reach the end (ptr = 511), many samples in a row (several refills)."""
    tb = SamplerTB(dut)
    await tb.start()
    rng = random.Random(7)
    smin = ref.sigma_min(9)
    hi, lo = isigma_bounds(9)
    ptrs = (494, 498, 501, 502, 503, 504, 508, 510, 511) if FULL else (501, 502, 503, 511)
    for ptr in ptrs:
        cases = [(f2b(rng.uniform(-100, 100)), hi, smin) for _ in range(3)]
        await check_stream(tb, rng, rand_state(rng), ptr, cases, dut._log)
    # a long run through at least one refill from the start of a buffer
    n = 60 if FULL else 35
    cases = [(f2b(rng.uniform(-100, 100)), lo, smin) for _ in range(n)]
    err, _ = await tb.load(rand_state(rng), 0)
    rows = await check_stream(tb, rng, rand_state(rng), 0, cases, dut._log)
    ctr0 = rows[0][3]
    assert rows[-1][3] > ctr0, "no refill happened in the long run"


@cocotb.test()
async def illegal_requests(dut):
    """Error codes; the unit keeps serving after each."""
    tb = SamplerTB(dut)
    await tb.start()
    rng = random.Random(3)
    smin = ref.sigma_min(9)
    hi, _ = isigma_bounds(9)
    one = f2b(1.0)
    # SAMPLE before any LOAD
    got = await tb.sample(one, hi, smin)
    assert got[0] == ERR_NOSEED, got
    # unknown command
    err, _ = await tb.command(7)
    assert err == ERR_CMD
    err, _ = await tb.command(0)
    assert err == ERR_CMD
    state = rand_state(rng)
    assert (await tb.load(state, 0))[0] == ERR_OK
    bad = [
        (f2b(float("nan")), hi, smin), (f2b(float("inf")), hi, smin),
        (f2b(2.0 ** 30), hi, smin), (f2b(-(2.0 ** 31)), hi, smin),
        (one, f2b(1.0), smin), (one, f2b(0.4999), smin), (one, f2b(-0.7), smin),
        (one, 0, smin), (one, hi, f2b(0.9)), (one, hi, f2b(2.0)), (one, hi, f2b(-1.3)),
    ]
    for mu, isig, sm in bad:
        got = await tb.sample(mu, isig, sm)
        assert got[0] == ERR_ARG, (hex(mu), hex(isig), hex(sm), got)
        assert got[3:5] == (int.from_bytes(state[48:56], "little") + 8, 0), "PRNG moved"
    # still serving, bit-exact, from the untouched state
    model = ref.RefPrng(state, 0)
    mu = f2b(12.25)
    got = await tb.sample(mu, hi, smin)
    assert got[0] == ERR_OK and got[1] == model.samplerz(mu, hi, smin)[0]


@cocotb.test()
async def trial_watchdog(dut):
    """max_trials bounds the rejection loop: a sample that needs k > 1
    trials reports ERR_TRIALS with max_trials < k and succeeds, bit-exact,
    with the default bound."""
    tb = SamplerTB(dut)
    await tb.start()
    rng = random.Random(11)
    smin = ref.sigma_min(10)
    _, lo = isigma_bounds(10)
    for _ in range(40):
        state, mu = rand_state(rng), f2b(rng.uniform(-50, 50))
        await tb.load(state, 0)
        got = await tb.sample(mu, lo, smin)
        assert got[0] == ERR_OK
        if got[2] > 1:
            break
    else:
        raise AssertionError("no multi-trial sample found")
    k = got[2]
    await tb.load(state, 0)
    bad = await tb.sample(mu, lo, smin, max_trials=k - 1)
    assert bad[0] == ERR_TRIALS and bad[2] == k - 1, bad
    await tb.load(state, 0)
    again = await tb.sample(mu, lo, smin, max_trials=k)
    assert again[:5] == got[:5]
    assert again[1] == ref.RefPrng(state, 0).samplerz(mu, lo, smin)[0]


def find_negative_exponent_state(rng):
    """A PRNG state whose first trial has z0 >= 7 and b = 0 at ptr: with
    mu = 0 and isigma = 0.5 (sigma = 2 > sigma0) BerExp's exponent is then
    negative, which the unit must report as ERR_RANGE."""
    rcdt6 = 1163297957344668388   # 2^72 P(z > 6)
    while True:
        state = rand_state(rng)
        buf = bytes(ref.RefPrng(state, 0).buf)
        for p in range(0, 500):
            v = int.from_bytes(buf[p:p + 9], "little")
            if v < rcdt6 and buf[p + 9] & 1 == 0:
                return state, p


@cocotb.test()
async def range_error(dut):
    tb = SamplerTB(dut)
    await tb.start()
    state, p = find_negative_exponent_state(random.Random(5))
    await tb.load(state, p)
    got = await tb.sample(0, f2b(0.5), f2b(1.25))
    assert got[0] == ERR_RANGE, got
    # and keeps serving after a reload
    await tb.load(state, 0)
    got = await tb.sample(f2b(3.5), f2b(0.7), f2b(1.25))
    assert got[0] == ERR_OK and got[1] == ref.RefPrng(state, 0).samplerz(
        f2b(3.5), f2b(0.7), f2b(1.25))[0]


def chi2_critical(df, z=3.09):
    """Upper 0.1 % point of chi-square(df) (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@cocotb.test()
async def chi_square(dut):
    """Fixed-seed run of the RTL against the ideal discrete Gaussian
    D_{Z, mu, sigma}: every sample also checked against the library."""
    tb = SamplerTB(dut)
    await tb.start()
    rng = random.Random(2024)
    n = int(os.environ.get("FA_NCHI", "400"))
    smin = ref.sigma_min(9)
    mu, sigma = 0.3, 1.5
    isig = f2b(1.0 / sigma)
    state = rand_state(rng)
    rows = await check_stream(tb, rng, state, 0, [(f2b(mu), isig, smin)] * n, dut._log)
    zs = [r[1] for r in rows]
    w = {z: math.exp(-(z - mu) ** 2 / (2 * sigma * sigma)) for z in range(-30, 31)}
    tot = sum(w.values())
    # bins: merge the tails so that every expected count is >= 5
    lo_z, hi_z = 0, 0
    while n * w[lo_z - 1] / tot >= 5:
        lo_z -= 1
    while n * w[hi_z + 1] / tot >= 5:
        hi_z += 1
    bins = []
    bins.append((sum(v for z, v in w.items() if z <= lo_z) / tot, sum(1 for z in zs if z <= lo_z)))
    for z in range(lo_z + 1, hi_z):
        bins.append((w[z] / tot, zs.count(z)))
    bins.append((sum(v for z, v in w.items() if z >= hi_z) / tot, sum(1 for z in zs if z >= hi_z)))
    chi2 = sum((obs - n * p) ** 2 / (n * p) for p, obs in bins)
    df = len(bins) - 1
    crit = chi2_critical(df)
    mean = sum(zs) / n
    dut._log.info("chi-square %.2f, %d dof, 0.1%% critical %.2f; mean %.3f (mu %.3f)",
                  chi2, df, crit, mean, mu)
    record("chi_square", {"samples": n, "mu": mu, "sigma": sigma, "chi2": chi2, "dof": df,
                          "critical_0.1%": crit,
                          "trials_per_sample": sum(r[2] for r in rows) / n,
                          "cycles_per_sample": sum(r[5] for r in rows) / n})
    assert chi2 < crit, "SamplerZ histogram departs from D_{Z,%.2f,%.2f}" % (mu, sigma)


@cocotb.test()
async def timing_depends_only_on_trials(dut):
    """Different secret inputs (mu, 1/sigma, degree) on the same PRNG
    stream: the cycles of a sample are A + B*trials + C*(trials started at
    the committed cursor) + (bytes read on the byte port) + (refill
    cycles), with the same A, B, C for every input. The trials started at
    the committed cursor are the first one and those after a speculation
    was not made (the stream position: a BerExp byte at >= 501) or was
    dropped (a rejection after n_k > 1 BerExp bytes): all functions of the
    trial count, the BerExp byte counts and the stream positions, i.e. of
    the library's own loops, not of mu or sigma. Samples are grouped by
    (trials, committed-cursor starts, bytes read, refill wait cycles); a
    group must have one cycle count; the linear model is fitted on the
    samples without refill waits."""
    tb = SamplerTB(dut)
    await tb.start()
    rng = random.Random(99)
    state = rand_state(rng)
    _, load_cycles = await tb.load(state, 0)
    record("load_cycles", load_cycles)
    rest, groups = {}, {}
    n = 20 if FULL else 6
    # 491..501: the first trial's BerExp byte at 501..511, no speculation
    for ptr in (0, 300, 400, 491, 495, 500, 501):
        for mu, logn, c in ((0.0, 9, 0), (1234.567, 10, 1), (-7.5, 9, 2), (0.5, 10, 0)):
            smin = ref.sigma_min(logn)
            isig = isigma_bounds(logn)[c] if c < 2 else f2b(0.65)
            await tb.load(state, ptr)
            for _ in range(n):
                r0, b0, a0 = tb.refill_cycles, tb.bytes_read, tb.nonspec
                got = await tb.sample(f2b(mu), isig, smin)
                assert got[0] == ERR_OK
                key = (got[2], tb.nonspec - a0, tb.bytes_read - b0, tb.refill_cycles - r0)
                groups.setdefault(key, set()).add(got[5])
                if key[3] == 0:
                    rest.setdefault(key[:2], set()).add(got[5] - key[2])
    dut._log.info("cycles - refill cycles - bytes read, by (trials, committed-cursor starts):"
                  " %s", rest)
    # equal cycles within each (trials, committed-cursor starts, bytes
    # read, refill wait cycles) group, whatever mu and sigma
    for key, vals in groups.items():
        assert len(vals) == 1, (key, vals)
    # the linear model on the samples without refill waits (a refill wait
    # of the byte port can overlap a speculative trial, so it is not
    # simply added; it is a function of the stream position and the time
    # since the load, not of mu or sigma)
    for key, vals in rest.items():
        assert len(vals) == 1, (key, vals)
    pts = sorted((t, a, v.pop()) for (t, a), v in rest.items())
    # fit A + B t + C a on three independent points, check all
    one = [p for p in pts if p[1] == 1]
    assert len(one) >= 2, "need two trial counts with one committed-cursor start"
    slope = one[1][2] - one[0][2]
    a = one[0][2] - slope * one[0][0]
    more = [p for p in pts if p[1] > 1]
    # restarts without a refill wait: only where a rejected trial's BerExp
    # byte falls at 501..511 away from a load (the stream's luck); the
    # equal-cycles groups above cover the others
    cc = (more[0][2] - a - slope * more[0][0]) // (more[0][1] - 1) if more else 0
    assert all(v == a + slope * t + cc * (s - 1) for t, s, v in pts), (a, slope, cc, pts)
    dut._log.info("per sample: %d + %d * trials + %d * (committed-cursor starts - 1)"
                  " + bytes + refills (cycles)", a, slope, cc)
    record("cycle_model", {"setup": a, "per_trial": slope,
                           "per_restart": cc if more else None,
                           "plus": "bytes read on the byte port + refill cycles"})


@cocotb.test()
async def pair_speculation(dut):
    """Pairs as ffSampling's leaves ask them: A announced with B's mu
    (nvalid_i), then B; and the starts that must not take B's ticket: a
    different mu, a different 1/sigma, a different trial limit, a single
    sample in between. Every z and PRNG state against the library (one
    stream, refills crossed); B's cycles when announced are lower when the
    ticket is taken, and the test asserts that both paths happened."""
    tb = SamplerTB(dut)
    await tb.start()
    rng = random.Random(31)
    smin = ref.sigma_min(9)
    hi, lo = isigma_bounds(9)
    state = rand_state(rng)
    err, _ = await tb.load(state, 0)
    assert err == ERR_OK
    model = ref.RefPrng(state, 0)
    n = 120 if FULL else 48
    fast = slow = 0
    fast_cycles = []
    # a one-trial sample started afresh takes at least setup + bytes + the
    # trial's chain + its Horner rule (77 cycles by the fitted cycle model,
    # `timing_depends_only_on_trials`); a taken ticket leaves B only the
    # commit of its bytes and the BerExp byte when its context is done
    # (about a dozen cycles, a few more if the start comes early)
    FAST = 50

    async def one(mu, isig, nmu=None, maxt=0):
        got = await tb.sample(mu, isig, smin, max_trials=maxt, nmu=nmu)
        z, ctr, p = model.samplerz(mu, isig, smin)
        assert got[0] == ERR_OK and (got[1], got[3], got[4]) == (z, ctr, p), \
            "mu=%016x: rtl %s, library z=%d ctr=%d ptr=%d" % (mu, got, z, ctr, p)
        return got

    for i in range(n):
        isig = f2b(rng.uniform(b2f(lo), b2f(hi)))
        mu_a, mu_b = f2b(rng.uniform(-200, 200)), f2b(rng.uniform(-200, 200))
        kind = i % 6
        a = await one(mu_a, isig, nmu=mu_b)
        if kind <= 2:                     # the announced B
            b = await one(mu_b, isig)
            # a one-trial B: its cycles tell whether the ticket was taken
            if b[2] == 1:
                if b[5] < FAST:
                    fast += 1
                    fast_cycles.append(b[5])
                else:
                    slow += 1
        elif kind == 3:                   # another mu
            await one(f2b(rng.uniform(-200, 200)), isig)
        elif kind == 4:                   # another 1/sigma
            await one(mu_b, hi if isig != hi else lo)
        else:                             # B with another trial limit
            b = await one(mu_b, isig, maxt=200)
            assert b[2] != 1 or b[5] >= FAST, "a start with another trial limit took the ticket"
        assert a[0] == ERR_OK
    dut._log.info("pairs: %d one-trial B samples took the ticket (cycles %s), %d did not",
                  fast, sorted(set(fast_cycles)), slow)
    assert fast > 0, "no B sample took its speculated ticket"
    record("pair_speculation", {"taken_one_trial_b_cycles": sorted(set(fast_cycles)),
                                "taken": fast, "not_taken": slow})


@cocotb.test()
async def speculation_rewind(dut):
    """A rejection after n_k > 1 BerExp bytes (a byte equal to zb's byte)
    while the next trial runs speculatively at the guessed cursor: the
    speculation is dropped and the trial restarts at the committed cursor.
    Samples on one stream until that happened (the test asserts it did), every one bit-exact with the library (z, ctr, ptr)."""
    tb = SamplerTB(dut)
    await tb.start()
    rng = random.Random(2024)
    state = rand_state(rng)
    smin = ref.sigma_min(9)
    hi, lo = isigma_bounds(9)
    err, _ = await tb.load(state, 0)
    assert err == ERR_OK
    model = ref.RefPrng(state, 0)
    limit = 3000
    for k in range(limit):
        mu, isig = f2b(rng.uniform(-50, 50)), rng.choice((hi, lo))
        w0 = tb.rewinds
        got = await tb.sample(mu, isig, smin)
        z, ctr, p = model.samplerz(mu, isig, smin)
        assert got[0] == ERR_OK and (got[1], got[3], got[4]) == (z, ctr, p), (k, got, z, ctr, p)
        if tb.rewinds > w0:
            dut._log.info("sample %d: rewind (trials %d), bit-exact", k, got[2])
        if tb.rewinds >= 1:
            break
    assert tb.rewinds >= 1, "no rewind in %d samples" % limit
    record("speculation_rewind", {"samples_until_rewind": k + 1})


def test_sampler_unit():
    from fa_cocotb import ip_sources, run
    ref.build()
    run("sampler_unit",
        ip_sources("fp64", "sampler"),
        "test_sampler_unit", HERE,
        extra_env={"FA_NVEC": "40" if FULL else "12", "FA_NSTREAM": "8" if FULL else "3",
                   "FA_NCHI": "5000" if FULL else "250"})
