#!/usr/bin/env python3
"""LiteX SoC for the Digilent Arty A7-100T (XC7A100T-1CSG324C): VexRiscv,
the board's DDR3 through LiteDRAM, the console UART, and falcon_accel_top as
a plain AXI4-Lite slave on the CPU bus.

The accelerator's whole AXI4-Lite space (registers and memory windows,
hw/top/data/regmap.json; 2^addr_width bytes) is one uncached bus region at
accel_base (hw/boards/data/boards.json); the register-level driver
(src/backend_rtl/fa_rtl_regs.h) needs nothing else: register R is at
accel_base + FA_RTL_REG_R. LiteX writes the base into the generated
software headers as FALCON_ACCEL_BASE (generated/mem.h) and into csr.json.
The AXI-Stream ports are not used here (s_axis idle, m_axis drained), the
driver moves operands through the memory windows.

Generates the Vivado project (Verilog, .tcl, .xdc) without running Vivado:

    python3 hw/boards/arty_a7_100t.py --output-dir build/board/arty

--build runs Vivado on it (needs Vivado on the PATH; not available on the
project's machines). --compile-software also builds the LiteX BIOS into the
ROM (needs a RISC-V GCC and LiteX's software packages).
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.dirname(HERE)
BOARDS_JSON = os.path.join(HERE, "data", "boards.json")
REGMAP_JSON = os.path.join(HW, "top", "data", "regmap.json")


def board_config(name="arty_a7_100t"):
    with open(BOARDS_JSON) as f:
        return json.load(f)[name]


def accel_window_size():
    """Bytes of the accelerator's AXI4-Lite space (regmap.json addr_width)."""
    with open(REGMAP_JSON) as f:
        return 1 << json.load(f)["addr_width"]


def accel_sources():
    """The accelerator's RTL files, from the synthesis source list."""
    out = subprocess.run(["sh", "-c", '. "$HW/syn/sources.sh"; echo $FA_SRCS'],
                         env=dict(os.environ, HW=HW), check=True,
                         capture_output=True, text=True).stdout.split()
    if not out or not all(os.path.isfile(p) for p in out):
        raise RuntimeError("hw/syn/sources.sh names no or missing files: %r" % out)
    return out


def build_soc(lanes, sampler, sys_clk_freq, accel_base, compile_software):
    from migen import Instance, ClockSignal, ResetSignal, Signal
    from litex.soc.integration.soc import SoCRegion
    from litex.soc.interconnect import axi
    from litex_boards.targets import digilent_arty

    size = accel_window_size()
    if accel_base % size:
        raise ValueError("accel_base 0x%08x is not aligned to the accelerator's "
                         "window (0x%x bytes)" % (accel_base, size))
    if lanes not in (1, 2, 4):
        raise ValueError("lanes must be 1, 2 or 4, not %r" % lanes)
    soc = digilent_arty.BaseSoC(variant="a7-100", toolchain="vivado",
                                sys_clk_freq=sys_clk_freq, cpu_type="vexriscv",
                                cpu_variant="standard",
                                integrated_rom_size=0x20000)
    # The accelerator: AXI4-Lite slave, byte addresses; the low addr_width
    # bits select the register or window word (accel_base is aligned).
    aw = size.bit_length() - 1
    bus = axi.AXILiteInterface(data_width=32, address_width=32)
    soc.bus.add_slave("falcon_accel", bus,
                      SoCRegion(origin=accel_base, size=size, cached=False))
    irq = Signal()
    soc.specials += Instance("falcon_accel_top",
        name="u_falcon_accel",
        p_P=lanes, p_LP={1: 0, 2: 1, 4: 2}[lanes], p_SAMPLER=sampler,
        i_aclk=ClockSignal("sys"), i_aresetn=~ResetSignal("sys"),
        i_s_axil_awaddr=bus.aw.addr[:aw], i_s_axil_awvalid=bus.aw.valid,
        o_s_axil_awready=bus.aw.ready,
        i_s_axil_wdata=bus.w.data, i_s_axil_wstrb=bus.w.strb,
        i_s_axil_wvalid=bus.w.valid, o_s_axil_wready=bus.w.ready,
        o_s_axil_bresp=bus.b.resp, o_s_axil_bvalid=bus.b.valid,
        i_s_axil_bready=bus.b.ready,
        i_s_axil_araddr=bus.ar.addr[:aw], i_s_axil_arvalid=bus.ar.valid,
        o_s_axil_arready=bus.ar.ready,
        o_s_axil_rdata=bus.r.data, o_s_axil_rresp=bus.r.resp,
        o_s_axil_rvalid=bus.r.valid, i_s_axil_rready=bus.r.ready,
        i_s_axis_tdata=0, i_s_axis_tvalid=0, i_s_axis_tlast=0,
        o_s_axis_tready=Signal(),
        o_m_axis_tdata=Signal(32), o_m_axis_tvalid=Signal(),
        i_m_axis_tready=1, o_m_axis_tlast=Signal(),
        o_irq=irq)
    for path in accel_sources():
        soc.platform.add_source(path)
    soc.platform.add_verilog_include_path(os.path.join(HW, "top", "rtl"))
    return soc


def main(argv=None):
    cfg = board_config()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--output-dir", default=os.path.join(HW, "..", "build", "board", "arty"),
                    help="where the project goes (default build/board/arty)")
    ap.add_argument("--lanes", type=int, default=cfg["lanes"],
                    help="accelerator lanes P (1, 2, 4; default %(default)s)")
    ap.add_argument("--sampler", type=int, choices=(0, 1), default=cfg["sampler"],
                    help="build the SamplerZ unit in (default %(default)s)")
    ap.add_argument("--sys-clk-freq", type=float, default=cfg["sys_clk_freq"],
                    help="system clock in Hz (default %(default)s)")
    ap.add_argument("--accel-base", type=lambda s: int(s, 0), default=cfg["accel_base"],
                    help="bus address of the accelerator (default 0x%08x)" % cfg["accel_base"])
    ap.add_argument("--build", action="store_true", help="run Vivado (not available here)")
    ap.add_argument("--compile-software", action="store_true",
                    help="build the LiteX BIOS (needs a RISC-V toolchain)")
    args = ap.parse_args(argv)
    from litex.soc.integration.builder import Builder
    soc = build_soc(args.lanes, args.sampler, args.sys_clk_freq, args.accel_base,
                    args.compile_software)
    out = os.path.abspath(args.output_dir)
    builder = Builder(soc, output_dir=out, compile_software=args.compile_software,
                      compile_gateware=args.build,
                      csr_json=os.path.join(out, "csr.json"))
    builder.build(run=args.build)
    print("project in %s: gateware/%s.{v,tcl,xdc}; accelerator at 0x%08x (%d bytes), P = %d"
          % (out, soc.platform.name, args.accel_base, accel_window_size(), args.lanes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
