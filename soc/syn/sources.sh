# Sourced by the SoC synthesis scripts (soc/syn/*.sh): the RTL of
# soc_syn_top for Yosys' read_verilog. Needs ROOT (the repository) and HW (its hw/ directory),
# SOCSYN_TARGET (xc7 or ecp5: which clock-gate buffer), SOCSYN_GEN (a
# build directory for the copies below) and SOCSYN_RAM_KIB (the RAM
# size in KiB, a power of two, default 256).
# Sets SOCSYN_SV (SystemVerilog: read_verilog -sv), SOCSYN_VEX (VexRiscv,
# plain Verilog), FA_SRCS (the accelerator, hw/syn/sources.sh).
# The RAM size is soc_syn_top's RAM_KIB (the flows set it from
# SOCSYN_RAM_KIB, default 256); every constant of soc_map_pkg is the
# generated one.
. "$HW/syn/sources.sh"
SOCSYN_RAM_KIB=${SOCSYN_RAM_KIB:-256}
case $SOCSYN_TARGET in xc7|ecp5) ;; *) echo "SOCSYN_TARGET must be xc7 or ecp5" >&2; exit 2;; esac
mkdir -p "$SOCSYN_GEN"
if [ -z "${SOCSYN_VEX_DIR:-}" ]; then
  SOCSYN_VEX_DIR=$(python3 -c "import pythondata_cpu_vexriscv as p; print(p.data_location)") \
    || { echo "sources.sh: pythondata-cpu-vexriscv missing (scripts/setup_soc.sh)" >&2; exit 1; }
fi
SOCSYN_VEX="$SOCSYN_VEX_DIR/VexRiscv_IMAC.v"
# Yosys cannot parse a package import in a module header (`module m
# import p::*; #(...)`), so the SoC files that have one are copied into
# $SOCSYN_GEN with the import moved before the module (a file-scope import
# of the same package: the same names).
# The SoC's own files: the manifest soc/data/soc.f.
_own=""
_socf=$(python3 "$HW/common/util/rtl_manifest.py" soc/data/soc.f) \
  || { echo "sources.sh: cannot read soc/data/soc.f" >&2; exit 1; }
for _f in $_socf; do
  _f=$(basename "$_f" .sv)
  sed 's/^module \([A-Za-z0-9_]*\) import \([A-Za-z0-9_]*\)::\*;/import \2::*;\
module \1/' "$ROOT/soc/rtl/$_f.sv" > "$SOCSYN_GEN/$_f.sv"
  _own="$_own $SOCSYN_GEN/$_f.sv"
done
SOCSYN_SV="$_own
 $ROOT/soc/syn/rtl/soc_syn_clk_gate_$SOCSYN_TARGET.sv $ROOT/soc/syn/rtl/soc_syn_top.sv"
SOCSYN_SV=$(echo $SOCSYN_SV)
