# soc.f -- the SoC's own RTL around Ibex (soc/rtl; the package first).
# Ibex and its primitives come from pythondata-cpu-ibex
# (soc/sim/sim_sources.sh)
# (Format and readers: hw/common/util/rtl_manifest.py.)
soc/rtl/soc_map_pkg.sv
soc/rtl/soc_ram.sv
soc/rtl/soc_fifo.sv
soc/rtl/soc_uart.sv
soc/rtl/soc_mbox.sv
soc/rtl/soc_axil_master.sv
soc/rtl/soc_dma.sv
soc/rtl/soc_top.sv
