"""cocotb tests of falcon_accel_top: every op through the AXI4-Lite
windows and the AXI-Stream burst path (random valid/ready back-pressure),
register access rules, illegal requests (status codes, SLVERR), reset in
the middle of an operation, the cycle counter. Checked against fa_model.
Run: cd hw && python3 -m pytest top/dv -q"""
import os
import random
import sys

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import fa_model as m

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "util"))
import gen_regmap  # noqa: E402

RM = gen_regmap.load()
REG = {r["name"]: r["offset"] for r in RM["registers"]}
WIN = {w["name"]: w["offset"] for w in RM["windows"]}
OP = {v["name"]: v["value"] for v in RM["enums"]["OP"]}
ERR = {v["name"]: v["value"] for v in RM["enums"]["ERR"]}
VOP = {"add": "VADD", "sub": "VSUB", "neg": "VNEG", "adj": "VADJ", "mul": "VMUL",
       "muladj": "VMULADJ", "mulselfadj": "VMULSELFADJ", "mulconst": "VMULCONST"}
FULL = bool(os.environ.get("FA_HW_FULL"))


class TopTB:
    def __init__(self, dut, seed=1):
        self.dut = dut
        self.rng = random.Random(seed)
        self.stall = 0.0          # probability of a bubble on valid/ready

    async def reset(self, cycles=3):
        d = self.dut
        d.aresetn.value = 0
        for s in ("s_axil_awvalid", "s_axil_wvalid", "s_axil_arvalid", "s_axis_tvalid",
                  "s_axis_tlast"):
            getattr(d, s).value = 0
        d.s_axil_bready.value = 1
        d.s_axil_rready.value = 1
        d.m_axis_tready.value = 0
        d.s_axil_wstrb.value = 0xF
        for _ in range(cycles):
            await RisingEdge(d.clk if hasattr(d, "clk") else d.aclk)
        d.aresetn.value = 1
        await RisingEdge(d.aclk)

    async def start(self):
        cocotb.start_soon(Clock(self.dut.aclk, 10, "ns").start())
        await self.reset()

    async def _bubble(self):
        while self.rng.random() < self.stall:
            await RisingEdge(self.dut.aclk)

    async def write(self, addr, data):
        d = self.dut
        await self._bubble()
        d.s_axil_awaddr.value, d.s_axil_awvalid.value = addr, 1
        d.s_axil_wdata.value, d.s_axil_wvalid.value = data & 0xFFFFFFFF, 1
        d.s_axil_bready.value = 0
        while True:
            await RisingEdge(d.aclk)
            await ReadOnly()
            if int(d.s_axil_awready.value):
                break
        await RisingEdge(d.aclk)
        d.s_axil_awvalid.value, d.s_axil_wvalid.value = 0, 0
        await self._bubble()        # back-pressure on B
        d.s_axil_bready.value = 1
        while True:
            await ReadOnly()
            if int(d.s_axil_bvalid.value):
                resp = int(d.s_axil_bresp.value)
                await RisingEdge(d.aclk)
                return resp
            await RisingEdge(d.aclk)

    async def read(self, addr, want_resp=False):
        d = self.dut
        await self._bubble()
        d.s_axil_araddr.value, d.s_axil_arvalid.value = addr, 1
        d.s_axil_rready.value = 0
        while True:
            await RisingEdge(d.aclk)
            await ReadOnly()
            if int(d.s_axil_arready.value):
                break
        await RisingEdge(d.aclk)
        d.s_axil_arvalid.value = 0
        await self._bubble()        # back-pressure on R
        d.s_axil_rready.value = 1
        while True:
            await ReadOnly()
            if int(d.s_axil_rvalid.value):
                v, resp = int(d.s_axil_rdata.value), int(d.s_axil_rresp.value)
                await RisingEdge(d.aclk)
                return (v, resp) if want_resp else v
            await RisingEdge(d.aclk)

    async def op(self, name, logn=None, wait=True):
        if logn is not None:
            await self.write(REG["LOGN"], logn)
        await self.write(REG["OP"], OP[name])
        await self.write(REG["CTRL"], 1)
        if wait:
            return await self.wait_done()

    async def wait_done(self, limit=20000):
        for _ in range(limit):
            st = await self.read(REG["STATUS"])
            if st & 2:
                return await self.read(REG["CYCLES"])
            assert st & 1 or (st >> 4), "not busy and not done: %x (op %x logn %x)" % (
                st, self.dut.r_op.value, self.dut.r_logn.value)
            if (st >> 4) and not st & 1:
                raise AssertionError("error %d" % (st >> 4))
        raise AssertionError("timeout")

    # --- windows through AXI4-Lite
    async def load_fpr(self, win, vals):
        for u, v in enumerate(vals):
            assert await self.write(WIN[win] + 8 * u, v & 0xFFFFFFFF) == 0
            assert await self.write(WIN[win] + 8 * u + 4, v >> 32) == 0

    async def read_fpr(self, win, n):
        out = []
        for u in range(n):
            lo = await self.read(WIN[win] + 8 * u)
            hi = await self.read(WIN[win] + 8 * u + 4)
            out.append(lo | hi << 32)
        return out

    async def load_mq(self, win, vals):
        for i, v in enumerate(vals):
            assert await self.write(WIN[win] + 4 * i, v) == 0

    async def read_mq(self, win, n):
        return [await self.read(WIN[win] + 4 * i) for i in range(n)]

    # --- burst path
    async def stream_in(self, target, words):
        d = self.dut
        await self.write(REG["STREAM"], target)
        i = 0
        while i < len(words):
            valid = self.rng.random() >= self.stall
            d.s_axis_tvalid.value = int(valid)
            d.s_axis_tdata.value = words[i]
            d.s_axis_tlast.value = int(i == len(words) - 1)
            await RisingEdge(d.aclk)
            await ReadOnly()
            if valid and int(d.s_axis_tready.value):
                i += 1
            await RisingEdge(d.aclk) if False else None
            await cocotb.triggers.NextTimeStep()
        d.s_axis_tvalid.value = 0

    async def stream_out(self, target, count):
        d = self.dut
        await self.write(REG["STREAM"], target)
        await self.write(REG["STREAM_OUT"], count)
        out = []
        while len(out) < count:
            ready = self.rng.random() >= self.stall
            d.m_axis_tready.value = int(ready)
            await RisingEdge(d.aclk)
            await ReadOnly()
            if ready and int(d.m_axis_tvalid.value):
                out.append(int(d.m_axis_tdata.value))
                last = int(d.m_axis_tlast.value)
                assert last == (len(out) == count), "TLAST at %d" % len(out)
            await cocotb.triggers.NextTimeStep()
        d.m_axis_tready.value = 0
        return out


def fpr_words(vals):
    w = []
    for v in vals:
        w += [v & 0xFFFFFFFF, v >> 32]
    return w


def words_fpr(w):
    return [w[2 * i] | w[2 * i + 1] << 32 for i in range(len(w) // 2)]


def rpoly(rng, n):
    return [m.f2b(rng.uniform(-1e4, 1e4)) for _ in range(n)]


@cocotb.test()
async def registers(dut):
    tb = TopTB(dut)
    await tb.start()
    assert await tb.read(REG["ID"]) == 0x46414C43
    cfg = await tb.read(REG["CONFIG"])
    assert cfg & 0xFF == int(os.environ.get("FA_P", "4")) and (cfg >> 8) & 0xFF == RM["version"]
    # built without the SamplerZ unit (SAMPLER = 0, the default): its ops
    # are unknown ops
    assert (cfg >> 16) & 1 == 0
    await tb.write(REG["LOGN"], 9)
    for name in ("SZ_LOAD", "SAMPLERZ"):
        await tb.write(REG["OP"], OP[name])
        await tb.write(REG["CTRL"], 1)
        assert (await tb.read(REG["STATUS"])) >> 4 == ERR["BAD_OP"], name
    await tb.write(REG["CTRL"], 2)
    await tb.write(REG["CONST_LO"], 0x12345678)
    await tb.write(REG["CONST_HI"], 0x9ABCDEF0)
    assert await tb.read(REG["CONST_LO"]) == 0x12345678
    assert await tb.read(REG["CONST_HI"]) == 0x9ABCDEF0
    # illegal accesses: write to RO, unmapped read/write, window beyond n
    assert await tb.write(REG["ID"], 0) == 2
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["ACCESS"]
    await tb.write(REG["CTRL"], 2)
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["NONE"]
    assert (await tb.read(0x3000, want_resp=True))[1] == 2
    assert await tb.write(0x3000, 1) == 2
    assert (await tb.read(REG["CTRL"], want_resp=True))[1] == 2       # write-only
    await tb.write(REG["LOGN"], 3)
    assert await tb.write(WIN["FFT_A"] + 8 * 8, 1) == 2                 # u = 8 >= n
    assert (await tb.read(WIN["NTT_B"] + 4 * 8, want_resp=True))[1] == 2
    # logn 10: the FFT window holds 2048 words, the last one included
    await tb.write(REG["LOGN"], 10)
    assert await tb.write(WIN["FFT_A"] + 8 * 1023 + 4, 0x5A5A0001) == 0
    assert await tb.read(WIN["FFT_A"] + 8 * 1023 + 4, want_resp=True) == (0x5A5A0001, 0)
    assert await tb.write(WIN["FFT_B"], 7) == 0
    assert await tb.write(WIN["NTT_A"] + 4 * 1023, 9) == 0
    # free-running clock advances
    c0 = await tb.read(REG["CLOCK_LO"])
    c1 = await tb.read(REG["CLOCK_LO"])
    assert c1 > c0


@cocotb.test()
async def illegal_requests(dut):
    tb = TopTB(dut)
    await tb.start()
    for logn in (0, 11, 15):
        await tb.op("FFT", logn, wait=False)
        st = await tb.read(REG["STATUS"])
        assert st >> 4 == ERR["BAD_LOGN"] and not st & 3, hex(st)
    await tb.write(REG["LOGN"], 4)
    for code in (0, 6, 15, 24, 255):
        await tb.write(REG["OP"], code)
        await tb.write(REG["CTRL"], 1)
        st = await tb.read(REG["STATUS"])
        assert st >> 4 == ERR["BAD_OP"] and not st & 3, (code, hex(st))
    # start while busy: refused, the running operation completes correctly
    rng = random.Random(3)
    logn = 9
    a = [rng.randrange(m.Q) for _ in range(1 << logn)]
    await tb.write(REG["LOGN"], logn)
    await tb.load_mq("NTT_A", a)
    await tb.op("NTT", wait=False)
    await tb.write(REG["CTRL"], 1)
    st = await tb.read(REG["STATUS"])
    assert st & 1 and st >> 4 == ERR["BUSY"], hex(st)
    assert (await tb.read(WIN["NTT_A"], want_resp=True))[1] == 2        # busy: SLVERR
    assert await tb.write(WIN["FFT_B"], 5) == 2
    assert dut.s_axis_tready.value == 0
    await tb.wait_done()
    assert await tb.read_mq("NTT_A", 1 << logn) == m.ntt(a, logn)


@cocotb.test()
async def reset_mid_operation(dut):
    tb = TopTB(dut)
    await tb.start()
    rng = random.Random(4)
    logn = 10
    await tb.write(REG["LOGN"], logn)
    await tb.op("NTT", wait=False)
    for _ in range(50):
        await RisingEdge(dut.aclk)
    assert (await tb.read(REG["STATUS"])) & 1
    await tb.reset()
    assert await tb.read(REG["STATUS"]) == 0
    logn = 4
    a = [rng.randrange(m.Q) for _ in range(1 << logn)]
    await tb.write(REG["LOGN"], logn)
    await tb.load_mq("NTT_A", a)
    await tb.op("NTT")
    assert await tb.read_mq("NTT_A", 1 << logn) == m.ntt(a, logn)


@cocotb.test()
async def ops_axilite(dut):
    """Every op for a few logn through the AXI4-Lite windows."""
    tb = TopTB(dut, seed=5)
    await tb.start()
    rng = random.Random(6)
    for logn in ([1, 2, 5, 8] if FULL else [1, 3]):
        n = 1 << logn
        await tb.write(REG["LOGN"], logn)
        f = rpoly(rng, n)
        await tb.load_fpr("FFT_A", f)
        await tb.op("FFT")
        F = await tb.read_fpr("FFT_A", n)
        assert F == m.fft(f, logn), logn
        await tb.op("IFFT")
        assert await tb.read_fpr("FFT_A", n) == m.ifft(F, logn), logn
        for vop, name in VOP.items():
            a, b = rpoly(rng, n), rpoly(rng, n)
            c = m.f2b(rng.uniform(-2, 2))
            await tb.write(REG["CONST_LO"], c & 0xFFFFFFFF)
            await tb.write(REG["CONST_HI"], c >> 32)
            await tb.load_fpr("FFT_A", a)
            await tb.load_fpr("FFT_B", b)
            await tb.op(name)
            assert await tb.read_fpr("FFT_A", n) == m.vec_op(vop, a, b, logn, c), (vop, logn)
        a = [rng.randrange(m.Q) for _ in range(n)]
        b = [rng.randrange(m.Q) for _ in range(n)]
        await tb.load_mq("NTT_A", a)
        await tb.load_mq("NTT_B", b)
        await tb.op("NTT_MUL")
        assert await tb.read_mq("NTT_A", n) == [x * y % m.Q for x, y in zip(a, b)]
        await tb.op("INTT")
        assert await tb.read_mq("NTT_A", n) == m.intt([x * y % m.Q for x, y in zip(a, b)], logn)


@cocotb.test()
async def streams_backpressure(dut):
    """Burst path with random bubbles on every valid/ready, FFT and NTT at
    Falcon-512 size; reports compute and transfer cycles."""
    tb = TopTB(dut, seed=7)
    await tb.start()
    rng = random.Random(8)
    for stall, logn in ((0.0, 9), (0.3, 6)):
        tb.stall = stall
        n = 1 << logn
        await tb.write(REG["LOGN"], logn)
        f = rpoly(rng, n)
        t0 = await tb.read(REG["CLOCK_LO"])
        await tb.stream_in(0, fpr_words(f))
        cyc = await tb.op("FFT")
        F = words_fpr(await tb.stream_out(0, 2 * n))
        t1 = await tb.read(REG["CLOCK_LO"])
        assert F == m.fft(f, logn)
        dut._log.info("logn=%d stall=%.1f FFT %d cycles, %d with transfers", logn, stall, cyc, t1 - t0)
        a = [rng.randrange(m.Q) for _ in range(n)]
        await tb.stream_in(2, a)
        cyc = await tb.op("NTT")
        A = await tb.stream_out(2, n)
        assert A == m.ntt(a, logn)
        dut._log.info("logn=%d NTT %d cycles", logn, cyc)


@cocotb.test()
async def kem_absent(dut):
    """Without MLKEM (the default): CONFIG.MLKEM = 0, the KEM ops are
    BAD_OP, the KEM window and stream target SLVERR (ERR = ACCESS)."""
    tb = TopTB(dut, seed=9)
    await tb.start()
    cfg_bit = next(f["lsb"] for r in RM["registers"] if r["name"] == "CONFIG"
                   for f in r["fields"] if f["name"] == "MLKEM")
    assert not (await tb.read(REG["CONFIG"]) >> cfg_bit) & 1
    await tb.write(REG["LOGN"], 8)
    for name in ("KEM_NTT", "KEM_INTT", "KEM_INTT_MONT", "KEM_BASEMUL", "KEM_BASEMUL_MONT"):
        await tb.write(REG["OP"], OP[name])
        await tb.write(REG["CTRL"], 1)
        assert (await tb.read(REG["STATUS"])) >> 4 == ERR["BAD_OP"], name
        await tb.write(REG["CTRL"], 2)
    kem_win = next(w["offset"] for w in RM["windows"] if w["name"] == "KEM")
    assert await tb.write(kem_win, 1) == 2
    assert (await tb.read(kem_win + 4, want_resp=True))[1] == 2
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["ACCESS"]
    await tb.write(REG["CTRL"], 2)
    kem_tgt = next(v["value"] for v in RM["enums"]["TARGET"] if v["name"] == "KEM")
    assert await tb.write(REG["STREAM"], kem_tgt) == 2


@cocotb.test()
async def eksum_stream(dut):
    """The expanded-key checksum unit: CONFIG.EKSUM = 1; a body streamed to
    target EKSUM (with back-pressure) gives, folded, the C library's
    fa_expanded_key_checksum32; EKSUM.COUNT counts the words; STREAM_OUT on
    the target is refused (SLVERR, ERR = ACCESS); a re-seed starts over."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "..", "eksum", "dv"))
    import test_eksum_unit as eks
    tb = TopTB(dut, seed=21)
    await tb.start()
    cfg_bit = next(f["lsb"] for r in RM["registers"] if r["name"] == "CONFIG"
                   for f in r["fields"] if f["name"] == "EKSUM")
    assert (await tb.read(REG["CONFIG"]) >> cfg_bit) & 1
    tgt = next(v["value"] for v in RM["enums"]["TARGET"] if v["name"] == "EKSUM")
    rng = random.Random(5)
    for logn in (2, 4):
        words = [rng.getrandbits(32) for _ in range(eks.body_words(logn))]
        await tb.write(REG["EKSUM"], logn)
        assert await tb.read(REG["EKSUM"]) == 0
        await tb.stream_in(tgt, words)
        # COUNT reaches the words sent a few cycles after the stream
        cnt = [await tb.read(REG["EKSUM"]) for _ in range(4)]
        assert cnt[-1] == len(words) and all(c <= len(words) for c in cnt), cnt
        lanes = [await tb.read(REG["EKSUM_H%d" % i]) for i in range(8)]
        got, exp = eks.fold(lanes, len(words)), eks.lib_checksum(words, logn)
        assert got == exp, "logn %d: %08x, library %08x" % (logn, got, exp)
        assert (await tb.read(REG["STREAM"])) & 0xF == tgt
    assert await tb.write(REG["STREAM_OUT"], 4) == 2
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["ACCESS"]
    await tb.write(REG["CTRL"], 2)
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["NONE"]


@pytest.mark.parametrize("P", [4] + ([1, 2] if FULL else []))
def test_falcon_accel_top(P):
    from fa_cocotb import manifest, TOP_MANIFEST, run
    srcs = manifest(TOP_MANIFEST)
    run("falcon_accel_top", srcs, "test_falcon_accel_top",
        os.path.dirname(os.path.abspath(__file__)),
        parameters={"P": P, "LP": {1: 0, 2: 1, 4: 2}[P]}, extra_env={"FA_P": str(P), **({"TESTCASE": os.environ["FA_TC"]} if os.environ.get("FA_TC") else {})})
