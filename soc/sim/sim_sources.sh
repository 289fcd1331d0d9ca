# Sourced by soc/sim/build_sim.sh: the SoC's RTL for Verilator. Needs HW
# (the hw/ directory) and VEX (pythondata_cpu_vexriscv.data_location).
# The core: VexRiscv_IMAC.v, as soc/syn reads it.
SOC_VEX_SRCS="$VEX/VexRiscv_IMAC.v"
# The SoC's own RTL: the manifest soc/data/soc.f (new SoC files go there).
SOC_OWN_SRCS=$(python3 "$HW/common/util/rtl_manifest.py" soc/data/soc.f) \
  || { echo "sim_sources.sh: cannot read soc/data/soc.f" >&2; exit 1; }
