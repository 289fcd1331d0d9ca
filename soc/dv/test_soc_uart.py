"""cocotb tests of soc_uart (soc/rtl/soc_uart.sv) on Icarus: the
transmitter looped back into the receiver at several bit times (bytes,
order, the bit time on the line, TX_READY/TX_BUSY and the FIFO levels),
a framing error (stop bit low: flagged, the byte dropped, the receiver
back after the break), an overrun (a full receive FIFO: flagged, the first
RxDepth bytes kept), a glitch shorter than half a bit ignored, RXDATA's
empty flag, CTRL's clear and flush. Registers and bits from
soc/data/socmap.json.
Run: make -C soc test-uart   (or: cd soc/dv && python3 -m pytest -q)"""
import json
import os
import random
import sys

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, Timer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "hw", "common", "dv"))

RX_DEPTH = 32
TX_DEPTH = 16


def socmap():
    with open(os.path.join(ROOT, "soc", "data", "socmap.json")) as f:
        sm = json.load(f)
    regs, bits = {}, {}
    for r in sm["blocks"]["UART"]:
        regs[r["name"]] = r["offset"]
        for fl in r.get("fields", []):
            p = [int(x) for x in str(fl["bits"]).split(":")]
            bits["%s.%s" % (r["name"], fl["name"])] = (p[-1], p[0] - p[-1] + 1)
    div_reset = next(r["reset"] for r in sm["blocks"]["UART"] if r["name"] == "DIV")
    return regs, bits, div_reset


REGS, BITS, DIV_RESET = socmap()


def field(v, name):
    lo, w = BITS[name]
    return (v >> lo) & ((1 << w) - 1)


class UartTB:
    def __init__(self, dut):
        self.dut = dut
        self.loop = False

    async def start(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, units="ns").start())
        d.rst_ni.value = 0
        d.req_i.value = 0
        d.we_i.value = 0
        d.addr_i.value = 0
        d.wdata_i.value = 0
        d.uart_rx_i.value = 1
        cocotb.start_soon(self._loopback())
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)

    async def _loopback(self):
        d = self.dut
        while True:
            await RisingEdge(d.clk_i)
            await ReadOnly()
            v = int(d.uart_tx_o.value)
            await Timer(1, units="ns")
            if self.loop:
                d.uart_rx_i.value = v

    async def access(self, we, reg, wdata=0):
        d = self.dut
        await Timer(1, units="ns")
        d.req_i.value = 1
        d.we_i.value = we
        d.addr_i.value = REGS[reg]
        d.wdata_i.value = wdata
        await RisingEdge(d.clk_i)
        await Timer(1, units="ns")
        d.req_i.value = 0
        d.we_i.value = 0
        await ReadOnly()
        assert int(d.rvalid_o.value) == 1
        assert int(d.err_o.value) == 0, "bus error on %s" % reg
        v = int(d.rdata_o.value)
        await RisingEdge(d.clk_i)
        return v

    async def wr(self, reg, v):
        await self.access(1, reg, v)

    async def rd(self, reg):
        return await self.access(0, reg)

    async def drive_byte(self, b, div, stop=1):
        """The far end sends b on uart_rx_i (start, 8 data LSB first, stop)."""
        d = self.dut
        for bit in [0] + [(b >> i) & 1 for i in range(8)] + [stop]:
            await Timer(1, units="ns")
            d.uart_rx_i.value = bit
            for _ in range(div):
                await RisingEdge(d.clk_i)
        await Timer(1, units="ns")
        d.uart_rx_i.value = 1

    async def idle(self, cycles):
        for _ in range(cycles):
            await RisingEdge(self.dut.clk_i)


@cocotb.test()
async def loopback_dividers(dut):
    """TX -> RX at bit times 4, 8, 16 and 37 cycles: every byte back in order;
    the start bit lasts DIV cycles; TX_BUSY and the levels say so."""
    tb = UartTB(dut)
    await tb.start()
    assert await tb.rd("DIV") == DIV_RESET
    tb.loop = True
    rng = random.Random(31)
    for div in (4, 8, 16, 37):
        await tb.wr("DIV", div)
        assert await tb.rd("DIV") == div
        data = [0x00, 0xFF, 0x55, 0xAA] + [rng.randrange(256) for _ in range(8)]
        # measure the first start bit on the line
        start_len = []

        async def measure():
            await RisingEdge(dut.clk_i)
            while int(dut.uart_tx_o.value) == 1:
                await RisingEdge(dut.clk_i)
            n = 0
            while int(dut.uart_tx_o.value) == 0 and n < 10 * div:
                n += 1
                await RisingEdge(dut.clk_i)
            start_len.append(n)
        m = cocotb.start_soon(measure())
        for b in data:
            st = await tb.rd("STATUS")
            assert field(st, "STATUS.TX_READY") == 1
            await tb.wr("TXDATA", b)
        st = await tb.rd("STATUS")
        assert field(st, "STATUS.TX_BUSY") == 1
        await m
        # 0x00 starts with start bit + data bit 0 low: the first low run is 9 bits
        assert start_len[0] == 9 * div, (div, start_len)
        got = []
        for _ in range(len(data) * 12 * div + 200):
            st = await tb.rd("STATUS")
            if field(st, "STATUS.RX_VALID"):
                v = await tb.rd("RXDATA")
                assert not field(v, "RXDATA.RX_EMPTY")
                got.append(field(v, "RXDATA.DATA"))
            elif not field(st, "STATUS.TX_BUSY") and len(got) == len(data):
                break
        assert got == data, (div, got, data)
        st = await tb.rd("STATUS")
        assert field(st, "STATUS.RX_OVERRUN") == 0 and field(st, "STATUS.RX_FRAME_ERR") == 0
        assert field(st, "STATUS.RX_LEVEL") == 0 and field(st, "STATUS.TX_LEVEL") == 0
        v = await tb.rd("RXDATA")
        assert field(v, "RXDATA.RX_EMPTY") == 1 and field(v, "RXDATA.DATA") == 0
    # a bit time below the minimum runs at 4 cycles
    await tb.wr("DIV", 1)
    await tb.wr("TXDATA", 0x3C)
    await tb.idle(60)
    v = await tb.rd("RXDATA")
    assert field(v, "RXDATA.RX_EMPTY") == 0 and field(v, "RXDATA.DATA") == 0x3C


@cocotb.test()
async def tx_fifo_full(dut):
    """TX_READY clears when the transmit FIFO is full (one byte shifting
    plus TxDepth waiting); TX_LEVEL counts them."""
    tb = UartTB(dut)
    await tb.start()
    await tb.wr("DIV", 64)
    for i in range(TX_DEPTH + 1):
        await tb.wr("TXDATA", i)
    st = await tb.rd("STATUS")
    assert field(st, "STATUS.TX_READY") == 0
    assert field(st, "STATUS.TX_LEVEL") == TX_DEPTH
    assert field(st, "STATUS.TX_BUSY") == 1


@cocotb.test()
async def framing_error(dut):
    """A byte whose stop bit is low: RX_FRAME_ERR, nothing in the FIFO; the
    receiver waits for the line to rise, then takes the next byte;
    CTRL.RX_CLEAR_ERR clears the flag."""
    tb = UartTB(dut)
    await tb.start()
    div = 8
    await tb.wr("DIV", div)
    await tb.drive_byte(0x5A, div, stop=0)
    # the line stays low a while (a break), then rises
    dut.uart_rx_i.value = 0
    await tb.idle(5 * div)
    dut.uart_rx_i.value = 1
    await tb.idle(2 * div)
    st = await tb.rd("STATUS")
    assert field(st, "STATUS.RX_FRAME_ERR") == 1
    assert field(st, "STATUS.RX_VALID") == 0
    await tb.drive_byte(0xC3, div)
    await tb.idle(div)
    v = await tb.rd("RXDATA")
    assert field(v, "RXDATA.RX_EMPTY") == 0 and field(v, "RXDATA.DATA") == 0xC3
    st = await tb.rd("STATUS")
    assert field(st, "STATUS.RX_FRAME_ERR") == 1, "sticky"
    await tb.wr("CTRL", 1 << BITS["CTRL.RX_CLEAR_ERR"][0])
    st = await tb.rd("STATUS")
    assert field(st, "STATUS.RX_FRAME_ERR") == 0


@cocotb.test()
async def overrun(dut):
    """RxDepth + 3 bytes without a read: the FIFO holds the first RxDepth,
    RX_OVERRUN is set; CTRL.RX_FLUSH empties the FIFO."""
    tb = UartTB(dut)
    await tb.start()
    div = 4
    await tb.wr("DIV", div)
    data = [(7 * i + 1) & 0xFF for i in range(RX_DEPTH + 3)]
    for b in data:
        await tb.drive_byte(b, div)
    await tb.idle(div)
    st = await tb.rd("STATUS")
    assert field(st, "STATUS.RX_OVERRUN") == 1
    assert field(st, "STATUS.RX_LEVEL") == RX_DEPTH
    got = [field(await tb.rd("RXDATA"), "RXDATA.DATA") for _ in range(4)]
    assert got == data[:4]
    await tb.wr("CTRL", (1 << BITS["CTRL.RX_FLUSH"][0]) | (1 << BITS["CTRL.RX_CLEAR_ERR"][0]))
    st = await tb.rd("STATUS")
    assert field(st, "STATUS.RX_LEVEL") == 0 and field(st, "STATUS.RX_VALID") == 0
    assert field(st, "STATUS.RX_OVERRUN") == 0
    # and it receives again
    await tb.drive_byte(0x81, div)
    await tb.idle(div)
    v = await tb.rd("RXDATA")
    assert field(v, "RXDATA.DATA") == 0x81 and field(v, "RXDATA.RX_EMPTY") == 0


@cocotb.test()
async def glitch_ignored(dut):
    """A low pulse shorter than half a bit starts no byte."""
    tb = UartTB(dut)
    await tb.start()
    div = 16
    await tb.wr("DIV", div)
    dut.uart_rx_i.value = 0
    await tb.idle(div // 2 - 3)
    dut.uart_rx_i.value = 1
    await tb.idle(12 * div)
    st = await tb.rd("STATUS")
    assert field(st, "STATUS.RX_VALID") == 0 and field(st, "STATUS.RX_FRAME_ERR") == 0
    await tb.drive_byte(0x42, div)
    await tb.idle(div)
    v = await tb.rd("RXDATA")
    assert field(v, "RXDATA.DATA") == 0x42


def test_soc_uart():
    import fa_cocotb
    srcs = [os.path.join(ROOT, "soc", "rtl", f)
            for f in ("soc_map_pkg.sv", "soc_fifo.sv", "soc_uart.sv")]
    fa_cocotb.run("soc_uart", srcs, "test_soc_uart", HERE,
                  parameters={"RxDepth": RX_DEPTH, "TxDepth": TX_DEPTH})
