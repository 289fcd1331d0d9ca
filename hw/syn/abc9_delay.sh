#!/bin/sh
# Estimated longest register-to-register path per module: Yosys
# `synth_xilinx -family xc7 -abc9` (hierarchical, each module mapped once)
# and the delay that ABC9 reports for the mapping it keeps.
#
# What the figure is: ABC9's *estimate* of the longest path, in ps, from a
# flip-flop / block-RAM / DSP output (or a module input) to a flip-flop
# input (or a module output), with Yosys' xc7 timing model of the cells
# (LUT, CARRY4, MUXF7/8, DSP48E1 arcs from the Yosys Xilinx cell library)
# plus a fixed 300 ps per net (`&if -W 300`, synth_xilinx's default). It is
# NOT a post-route timing: there is no placement, no real routing, no
# clock skew or setup time, so real paths on an Artix-7 (-1) are longer.
# 1e6 / estimate (MHz) is therefore an upper bound on Fmax before routing.
#
#   usage: hw/syn/abc9_delay.sh [NAME ...]     (default: all names below but
#          samplerz and sampler_prng, which the sampler_unit run includes)
#   NAME: fp64_add fp64_mul fft_cmul fft_bf ntt_modmul ntt_bf
#         tf_core_fft tf_core_ntt (tf_core at P = 4 with the parameters
#         that fft_engine / ntt_engine give it) top (falcon_accel_top's own
#         logic at P = 4) sampler_unit samplerz sampler_prng (hw/sampler:
#         the SamplerZ unit with its own fp64 adder and multiplier)
#         mlkem_encaps (hw/mlkem: the ML-KEM-768 encaps sequencer with its
#         Keccak unit) eksum_unit (hw/eksum: the expanded-key checksum lanes)
# The hierarchical run estimates each module's paths between its own
# ports and registers; a path that crosses a module boundary (e.g. a bank
# RAM read in tf_core -> read crossbar -> fp64_add stage 1 in a lane) is
# cut at the port, so the two parts are estimated separately. For tf_core
# and the top, the lanes, ROMs, RAMs (tf_core) and engines (top) are read
# as black boxes (`read_verilog -lib`): Yosys 0.23's abc9 aborts
# (std::out_of_range in abc9_ops) on the engines with their block RAMs,
# and a black box's outputs count as arriving at 0 ps, so a block-RAM
# clock-to-out (about 2 ns) is not in the tf_core figure.
# Writes $FA_SYN_OUT (default hw/build/syn)/delay-<NAME>.json, one JSON
# object: {"name", "top", "params", "modules": {module: ps}, "own_ps"
# (the module of interest itself, without its submodules), "max_ps" (over
# every module of the run), "max_module", "seconds"}, and the Yosys log
# delay-<NAME>.log, and the cell counts (`stat -top`) to delay-<NAME>.stat.
set -e
HW=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FA_SYN_OUT:-$HW/build/syn}
mkdir -p "$OUT"
. "$HW/syn/sources.sh"
NAMES="$*"
if [ -z "$NAMES" ]; then
	NAMES="fp64_add fp64_mul fft_cmul fft_bf ntt_modmul ntt_bf tf_core_fft tf_core_ntt top sampler_unit mlkem_encaps eksum_unit"
fi
for name in $NAMES; do
	params=""; libs=""; top=$name
	F=$HW/fp64/rtl; C=$HW/common/rtl; T=$HW/fft/rtl; N=$HW/ntt/rtl
	# only the files the module needs (ABC's result moves by a percent or
	# two with the order and set of modules read, so keep it fixed)
	case $name in
	fp64_add|fp64_mul) srcs="$F/$name.v";;
	fft_cmul) srcs="$F/fp64_add.v $F/fp64_mul.v $C/fa_delay.v $T/fft_cmul.v";;
	fft_bf) srcs="$F/fp64_add.v $F/fp64_mul.v $C/fa_delay.v $T/fft_cmul.v $T/fft_bf.v";;
	ntt_modmul) srcs="$N/ntt_modmul.v";;
	ntt_bf) srcs="$C/fa_delay.v $N/ntt_modmul.v $N/ntt_tw_rom.v $N/ntt_bf.v";;
	tf_core_fft|tf_core_ntt)
		# tf_core alone at P = 4, with the parameters its engine gives
		# it; lanes, ROMs and RAMs are black boxes (see above)
		top=tf_core; srcs="$C/tf_core.v"
		libs="$C/fa_ram.v $T/fft_roots_rom.v $T/fft_bf.v $N/ntt_tw_rom.v $N/ntt_bf.v"
		kl=$(sed -n 's/.*tf_core #(\(.*\)) core.*/\1/p' "$HW/${name#tf_core_}/rtl/${name#tf_core_}_engine.v" |
			sed 's/\.\([A-Z]*\)(\([0-9A-Z]*\))/\1 \2/g; s/,//g')
		set -- $kl
		params=""
		while [ $# -ge 2 ]; do
			v=$2; [ "$v" = P ] && v=4; [ "$1" = LP ] && v=2
			params="$params -set $1 $v"; shift 2
		done;;
	top)
		# the top's own logic (AXI, registers, windows) at P = 4; the
		# engines are black boxes
		top=falcon_accel_top; params="-set P 4 -set LP 2"; srcs="$HW/top/rtl/falcon_accel_top.v"
		libs="$T/fft_engine.v $N/ntt_engine.v $HW/sampler/rtl/sampler_unit.v $HW/eksum/rtl/eksum_unit.v";;
	eksum_unit) srcs="$HW/eksum/rtl/eksum_unit.v";;
	sampler_unit|samplerz|sampler_prng)
		S=$HW/sampler/rtl
		srcs="$F/fp64_add.v $F/fp64_mul.v $S/sampler_tables.v $S/sampler_fpconv.v"
		srcs="$srcs $S/sampler_mulhi.v $S/sampler_prng.v $S/samplerz.v $S/sampler_unit.v";;
	mlkem_encaps)
		# hw/mlkem's ML-KEM-768 encaps sequencer with its Keccak unit
		srcs=$(python3 "$HW/common/util/rtl_manifest.py" keccak/data/keccak.f mlkem/data/mlkem.f);;
	*) echo "abc9_delay.sh: unknown name $name" >&2; exit 2;;
	esac
	own=$top
	chp=""
	[ -n "$params" ] && chp="chparam $params $top"
	rdl=""
	[ -n "$libs" ] && rdl="read_verilog -lib $libs"
	t0=$(date +%s)
	yosys -q -l "$OUT/delay-$name.log" -p "
	$rdl
	read_verilog -I$HW/top/rtl $srcs
	$chp
	synth_xilinx -family xc7 -top $top -abc9
	tee -q -o $OUT/delay-$name.stat stat -top $top
	"
	t1=$(date +%s)
	# Each ABC9 run starts with "Extracted ... from module `M'"; the last
	# "ABC: A: Del = D." line of the run is the delay of the kept mapping.
	awk -v name="$name" -v top="$top" -v own="$own" -v params="$params" \
	    -v secs=$((t1 - t0)) '
	function flush() {
		if (mod != "" && del != "") {
			if (!(mod in d) || del + 0 > d[mod] + 0) d[mod] = del
			if (!(mod in seen)) { order[n++] = mod; seen[mod] = 1 }
		}
		del = ""
	}
	/^Extracted .* from module `/ {
		flush()
		m = $0; sub(/.* from module `/, "", m); sub(/'"'"'.*/, "", m)
		sub(/^\$paramod\$[0-9a-f]+\\/, "", m); sub(/^\\/, "", m)
		sub(/^\$paramod\\/, "", m); sub(/\\.*/, "", m)
		mod = m
		next
	}
	/^ABC: A: +Del = / { v = $0; sub(/.*Del = */, "", v); sub(/\..*/, "", v); del = v }
	END {
		flush()
		mx = -1; mm = ""
		for (i = 0; i < n; i++) if (d[order[i]] + 0 > mx) { mx = d[order[i]] + 0; mm = order[i] }
		printf "{\"name\": \"%s\", \"top\": \"%s\", \"params\": \"%s\", \"modules\": {", name, top, params
		for (i = 0; i < n; i++) printf "%s\"%s\": %d", (i ? ", " : ""), order[i], d[order[i]]
		printf "}, \"own_ps\": %s, \"max_ps\": %d, \"max_module\": \"%s\", \"seconds\": %d, ",
			((own in d) ? d[own] : "null"), mx, mm, secs
		printf "\"what\": \"ABC9 estimate (Yosys 0.23 synth_xilinx -family xc7 -abc9, xc7 cell delays + 300 ps per net), not post-route\"}\n"
	}' "$OUT/delay-$name.log" > "$OUT/delay-$name.json.tmp"
	mv "$OUT/delay-$name.json.tmp" "$OUT/delay-$name.json"
	cat "$OUT/delay-$name.json"
done
