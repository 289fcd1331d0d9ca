# soc_system.f -- soc_top with falcon_accel_top and a clock gate in one
# module (soc/rtl/soc_system.sv; the simulation joins two Verilated
# models instead)
# (Format and readers: hw/common/util/rtl_manifest.py.)
-f top/data/falcon_accel_top.f
-f soc/data/soc.f
soc/rtl/soc_system.sv
