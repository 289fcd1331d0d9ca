"""Testbench helpers for the engines (fft_engine / ntt_engine host port)."""
import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import fa_model as m

VOPS = {"add": 0, "sub": 1, "neg": 2, "adj": 3, "mul": 4, "muladj": 5,
        "mulselfadj": 6, "mulconst": 7}


class EngineTB:
    def __init__(self, dut, kind):
        self.dut = dut
        self.kind = kind          # "fft" or "ntt"
        self.cycles = 0

    async def reset(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk, 10, "ns").start())
        d.rst.value = 1
        d.start.value = 0
        d.h_en.value = 0
        d.h_we.value = 0
        d.h_buf.value = 0
        d.h_slot.value = 0
        d.h_wdata.value = 0
        d.c_inv.value = 0
        d.c_vop.value = 0
        d.c_L.value = 0
        if self.kind == "fft":
            d.h_lane.value = 0
            d.c_vsel.value = 0
            d.c_const.value = 0
        for _ in range(3):
            await RisingEdge(d.clk)
        d.rst.value = 0
        await RisingEdge(d.clk)

    def set_L(self, L):
        self.dut.c_L.value = L

    async def _w(self, buf, slot, lane, data):
        d = self.dut
        d.h_en.value, d.h_we.value, d.h_buf.value = 1, 1, buf
        d.h_slot.value, d.h_wdata.value = slot, data
        if self.kind == "fft":
            d.h_lane.value = lane
        await RisingEdge(d.clk)
        d.h_en.value, d.h_we.value = 0, 0

    async def _r(self, buf, slot, lane):
        d = self.dut
        d.h_en.value, d.h_we.value, d.h_buf.value, d.h_slot.value = 1, 0, buf, slot
        if self.kind == "fft":
            d.h_lane.value = lane
        await RisingEdge(d.clk)
        d.h_en.value = 0
        await ReadOnly()
        v = int(d.h_rdata.value)
        await RisingEdge(d.clk)
        return v

    async def load_fpr(self, buf, vals, logn):
        """n fpr bit patterns in the library layout (re[0..hn), im[0..hn))."""
        hn = (1 << logn) >> 1
        for u, v in enumerate(vals):
            j, part = u % hn, u // hn
            base = 2 if part == 0 else 0
            await self._w(buf, j, base, v & 0xFFFFFFFF)
            await self._w(buf, j, base + 1, v >> 32)

    async def read_fpr(self, buf, logn):
        hn = (1 << logn) >> 1
        out = []
        for u in range(1 << logn):
            j, part = u % hn, u // hn
            base = 2 if part == 0 else 0
            lo = await self._r(buf, j, base)
            hi = await self._r(buf, j, base + 1)
            out.append(lo | (hi << 32))
        return out

    async def load_mq(self, buf, vals):
        for i, v in enumerate(vals):
            await self._w(buf, i, 0, v)

    async def read_mq(self, buf, n):
        return [await self._r(buf, i, 0) for i in range(n)]

    async def run(self, inv=0, vop=0, vsel=0, const=0, timeout=100000):
        d = self.dut
        d.c_inv.value, d.c_vop.value = inv, vop
        if self.kind == "fft":
            d.c_vsel.value, d.c_const.value = vsel, const
        d.start.value = 1
        await RisingEdge(d.clk)
        d.start.value = 0
        n = 1
        while True:
            await ReadOnly()
            if int(d.done.value):
                break
            await RisingEdge(d.clk)
            n += 1
            assert n < timeout, "engine timeout"
        self.cycles = n
        await RisingEdge(d.clk)
