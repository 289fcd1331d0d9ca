# soc.f -- the SoC's own RTL (soc/rtl; the package first). The core,
# VexRiscv_IMAC.v, comes from pythondata-cpu-vexriscv (soc/syn/sources.sh,
# soc/sim/sim_sources.sh).
# (Format and readers: hw/common/util/rtl_manifest.py.)
soc/rtl/soc_map_pkg.sv
soc/rtl/soc_wb_obi.sv
soc/rtl/soc_core_vexriscv.sv
soc/rtl/soc_ram.sv
soc/rtl/soc_fifo.sv
soc/rtl/soc_uart.sv
soc/rtl/soc_mbox.sv
soc/rtl/soc_axil_master.sv
soc/rtl/soc_dma.sv
soc/rtl/soc_top.sv
