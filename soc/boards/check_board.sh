#!/bin/sh
# Quick check of the board flow (CI; no synthesis, no place and route):
# for each CONFIG (default: every configuration a soc/boards/*/board.json lists)
#   1. the PLL: ecp5_pll.py's dividers give the configuration's clk_hz
#      within 1 % (board_config.py fails otherwise), and the VCO and phase
#      detector are within the ECP5's limits; with yowasp-ecppll installed,
#      the same frequency as Project Trellis' ecppll;
#   2. the LPF: every port bit of the top has a LOCATE and an IOBUF with an
#      IO_TYPE, every LOCATE names a port bit, the input clock has a
#      FREQUENCY of the board's clk_in_mhz, no two ports share a site;
#   3. the top elaborates with the SoC's synthesis sources (Verilator
#      --lint-only, the configuration's parameters, lint models of EHXPLLL
#      and DCCA): a port or parameter of soc_syn_top that the top misses
#      fails here;
#   4. the firmware for the configuration links (the link's ASSERT: image,
#      .bss and the stack fit the RAM) and becomes the RAM image
#      (build_board.sh CONFIG fw);
#   5. its stack bound (fwcheck/stack_use.sh: measured library depth under
#      qemu-riscv32 + the firmware's frames) fits the configured stack.
#   usage: soc/boards/check_board.sh [CONFIG...]   (BOARD_CHECK_OUT: build dir,
#          default build/board-check)
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HW=$ROOT/hw
fail() { echo "board check: FAIL: $*" >&2; exit 1; }
CONFIGS=${*:-$(python3 -c "
import glob, json
for f in sorted(glob.glob('$ROOT/soc/boards/*/board.json')):
    print(' '.join(json.load(open(f))['configs']))")}
BASE=${BOARD_CHECK_OUT:-$ROOT/build/board-check}
for CONFIG in $CONFIGS; do
	OUT=$BASE/$CONFIG
	mkdir -p "$OUT"
	v=$(python3 "$ROOT/soc/boards/board_config.py" "$CONFIG") || fail "$CONFIG: board_config.py"
	eval "$v"
	# 1. PLL
	python3 "$ROOT/soc/boards/ecp5_pll.py" --fin "$CFG_CLK_IN_MHZ" --fout "$(python3 -c "print($CFG_CLK_HZ_REQ / 1e6)")" \
		|| fail "$CONFIG: PLL"
	python3 - "$CFG_CLK_IN_MHZ" "$CFG_PLL_CLKI_DIV" "$CFG_PLL_CLKFB_DIV" "$CFG_PLL_CLKOP_DIV" "$CFG_CLK_HZ" "$CFG_CLK_HZ_REQ" <<'PY' || fail "$CONFIG: PLL limits"
import sys
fin, idiv, fb, od, hz, req = (float(x) for x in sys.argv[1:])
pfd = fin / idiv; out = pfd * fb; vco = out * od
assert 3.125 <= pfd <= 400, f"PFD {pfd} MHz"
assert 400 <= vco <= 800, f"VCO {vco} MHz"
assert abs(out * 1e6 - hz) < 1, f"CLK_HZ {hz} is not the PLL's {out} MHz"
assert abs(hz - req) <= 0.01 * req, f"{hz} Hz more than 1 % off {req}"
print(f"PLL: {fin:g} MHz / {idiv:g} * {fb:g} = {out:g} MHz (VCO {vco:g} MHz, PFD {pfd:g} MHz), requested {req / 1e6:g} MHz")
PY
	if command -v yowasp-ecppll >/dev/null 2>&1; then
		f=$(cd "$OUT" && yowasp-ecppll -i "$CFG_CLK_IN_MHZ" -o "$CFG_FREQ_MHZ" -f ecppll.v 2>/dev/null | sed -n 's/^clkout0 frequency: \([0-9.]*\) MHz/\1/p')
		python3 -c "import sys; a, b = float('$f'), $CFG_CLK_HZ / 1e6; sys.exit(abs(a - b) > 1e-6)" \
			|| fail "$CONFIG: ecppll gives $f MHz, ecp5_pll.py $CFG_CLK_HZ Hz"
		echo "PLL: yowasp-ecppll agrees ($f MHz)"
	fi
	# 2. LPF against the top's ports
	python3 - "$CFG_TOP_SRCS" "$CFG_TOP" "$CFG_LPF" "$CFG_CLK_IN_PORT" "$CFG_CLK_IN_MHZ" <<'PY' || fail "$CONFIG: LPF"
import re, sys
src, top, lpf, clk, mhz = sys.argv[1:]
text = re.sub(r"//[^\n]*", "", open(src.split()[0]).read())
m = re.search(r"module\s+%s\b.*?\)\s*\(\s*(.*?)\);" % top, text, re.S)
assert m, f"module {top} not found"
bits = set()
for d in m.group(1).split(","):
    d = d.strip()
    pm = re.match(r"(input|output|inout)\s+(?:wire|logic|reg)?\s*(\[(\d+):(\d+)\])?\s*(\w+)$", d)
    assert pm, f"cannot read port declaration '{d}'"
    if pm.group(2):
        hi, lo = int(pm.group(3)), int(pm.group(4))
        for i in range(min(hi, lo), max(hi, lo) + 1):
            bits.add(f"{pm.group(5)}[{i}]")
    else:
        bits.add(pm.group(5))
loc, iob, freq = {}, {}, {}
for line in open(lpf):
    line = line.split("#")[0].strip()
    if not line:
        continue
    lm = re.match(r'LOCATE\s+COMP\s+"([^"]+)"\s+SITE\s+"([^"]+)"\s*;', line)
    im = re.match(r'IOBUF\s+PORT\s+"([^"]+)"\s+(.*);', line)
    fm = re.match(r'FREQUENCY\s+PORT\s+"([^"]+)"\s+([\d.]+)\s*MHZ\s*;', line, re.I)
    if lm:
        assert lm.group(1) not in loc, f"{lm.group(1)} located twice"
        loc[lm.group(1)] = lm.group(2)
    elif im:
        iob[im.group(1)] = im.group(2)
    elif fm:
        freq[fm.group(1)] = float(fm.group(2))
    else:
        raise AssertionError(f"line not understood: {line}")
missing = sorted(bits - set(loc))
extra = sorted(set(loc) - bits)
noio = sorted(b for b in bits if "IO_TYPE=" not in iob.get(b, ""))
assert not missing, f"ports without LOCATE: {missing}"
assert not extra, f"LOCATE of no port: {extra}"
assert not noio, f"ports without IOBUF IO_TYPE: {noio}"
sites = list(loc.values())
assert len(sites) == len(set(sites)), "two ports on one site"
assert abs(freq.get(clk, 0) - float(mhz)) < 1e-9, f"no FREQUENCY {mhz} MHZ on {clk}"
print(f"LPF: {len(bits)} port bits, each located with an IO_TYPE; {clk} {mhz} MHz")
PY
	# 3. the top with the SoC's sources
	if command -v verilator >/dev/null 2>&1 && python3 -c "import pythondata_cpu_vexriscv" 2>/dev/null; then
		SOCSYN_TARGET=ecp5; SOCSYN_GEN=$OUT/gen; SOCSYN_RAM_KIB=$CFG_RAM_KIB
		. "$ROOT/soc/syn/sources.sh"
		G="-GCLKI_DIV=$CFG_PLL_CLKI_DIV -GCLKFB_DIV=$CFG_PLL_CLKFB_DIV -GCLKOP_DIV=$CFG_PLL_CLKOP_DIV -GCLKOP_CPHASE=$CFG_PLL_CLKOP_CPHASE -GCLK_HZ=$CFG_CLK_HZ -GP=$CFG_P -GLP=$CFG_LP -GSAMPLER=$CFG_SAMPLER -GKECCAK=$CFG_KECCAK -GFFSAMP=$CFG_FFSAMP"
		G="$G -GMLKEM=$CFG_MLKEM -GKEMENC=$CFG_KEMENC -GRAM_KIB=$CFG_RAM_KIB -GMBOX=$CFG_MBOX"
		verilator --lint-only -Wno-fatal -Wno-lint -Wno-style -Wno-MULTIDRIVEN -Wno-UNOPTFLAT \
			--top-module "$CFG_TOP" -I"$HW/top/rtl" $G \
			"$ROOT/soc/boards/dv/ehxplll_lint.sv" "$ROOT/soc/syn/dv/ecp5_cells_lint.sv" \
			$SOCSYN_SV $CFG_TOP_SRCS "$SOCSYN_VEX" $FA_SRCS > "$OUT/lint.log" 2>&1 \
			|| { tail -n 20 "$OUT/lint.log" >&2; fail "$CONFIG: $CFG_TOP does not elaborate (see $OUT/lint.log)"; }
		! grep -E "%Warning-(PINMISSING|PINNOTFOUND|WIDTH)" "$OUT/lint.log" | grep -i "$CFG_TOP\|boards/" \
			|| fail "$CONFIG: port warnings in the top"
		echo "top: $CFG_TOP elaborates with soc_syn_top (Verilator lint)"
	else
		echo "top: SKIPPED (verilator or pythondata-cpu-vexriscv missing)"
	fi
	# 4. firmware
	BOARD_OUT=$OUT sh "$ROOT/soc/boards/build_board.sh" "$CONFIG" fw > "$OUT/fw-step.log" 2>&1 \
		|| { tail -n 20 "$OUT/fw-step.log" >&2; fail "$CONFIG: firmware"; }
	grep "fw.hex" "$OUT/fw-step.log"
	# 5. stack
	BOARD_OUT=$OUT sh "$ROOT/soc/boards/fwcheck/stack_use.sh" "$CONFIG" > "$OUT/stack.log" 2>&1 \
		|| { cat "$OUT/stack.log" >&2; fail "$CONFIG: stack"; }
	tail -n 1 "$OUT/stack.log"
	echo "board check $CONFIG: OK"
done
