#!/usr/bin/env bash
# build_sim.sh -- Verilate the falcon-accel SoC (soc/rtl/soc_top.sv:
# Ibex from the pythondata-cpu-ibex package) and falcon_accel_top as two
# models, joined by the harness soc/sim/soc_sim.cpp into BUILD/soc_sim.
# Usage: soc/sim/build_sim.sh [build-dir]   (default build/soc-sim)
# Env:   SOC_P (accelerator lanes, 1/2/4; default 4), JOBS (default 2)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HW=$ROOT/hw
BUILD=$(mkdir -p "${1:-$ROOT/build/soc-sim}" && cd "${1:-$ROOT/build/soc-sim}" && pwd)
P=${SOC_P:-4}
case $P in 1) LP=0 ;; 2) LP=1 ;; 4) LP=2 ;; *) echo "build_sim: SOC_P must be 1, 2 or 4" >&2; exit 2 ;; esac
IBEX=$(python3 -c "import pythondata_cpu_ibex as p; print(p.data_location)" 2>/dev/null) || {
	echo "build_sim: python package pythondata-cpu-ibex missing (scripts/setup_soc.sh)" >&2; exit 2; }
. "$HW/syn/sources.sh"
. "$ROOT/soc/sim/sim_sources.sh"
python3 "$ROOT/soc/util/gen_socmap.py" --check
mkdir -p "$BUILD"
# 1. the accelerator, a model of its own (clocked only while enabled), with
# the Keccak unit, SamplerZ and the ffSampling engine (FS_MAXLOGN 10), the
# ML-KEM-768 encaps sequencer (KEMENC, SOC_KEMENC=0 leaves it out): a
# simulation configuration (soc/README.md)
nice verilator --cc --build -j "${JOBS:-2}" -O3 --x-assign fast --x-initial fast \
	--top-module falcon_accel_top -GP=$P -GLP=$LP -GKECCAK=1 -GMLKEM=1 -GSAMPLER=1 -GFFSAMP=1 -GFS_MAXLOGN=10 -GKEMENC=${SOC_KEMENC:-1} -Wno-fatal -Wno-WIDTH -Wno-UNUSEDSIGNAL \
	-I"$HW/top/rtl" --Mdir "$BUILD/acc_obj" -CFLAGS -O2 $FA_SRCS >"$BUILD/build-acc.log" 2>&1 || {
	grep -E '%Error|error' "$BUILD/build-acc.log" | head -30; exit 1; }
# 2. the SoC and the harness, linked with the accelerator's model.
# Verilator warnings in the vendored core are not ours: -Wno-fatal.
nice verilator ${SOC_VFLAGS:-} --cc --exe --build -j "${JOBS:-2}" -O3 --x-assign fast --x-initial fast \
	--top-module soc_top -GP=$P -Wno-fatal -Wno-lint -Wno-style -Wno-MULTIDRIVEN \
	-Wno-UNOPTFLAT -Wno-SELRANGE -Wno-WIDTH \
	-DSYNTHESIS $SOC_INCDIRS \
	--Mdir "$BUILD/obj" -o "$BUILD/soc_sim" \
	-CFLAGS "-O2 -I$ROOT/soc/fw -I$BUILD/acc_obj" -LDFLAGS "$BUILD/acc_obj/Vfalcon_accel_top__ALL.a" \
	$SOC_IBEX_SRCS $SOC_OWN_SRCS "$ROOT/soc/sim/soc_sim.cpp" >"$BUILD/build.log" 2>&1 || {
	grep -E '%Error|error' "$BUILD/build.log" | head -30; exit 1; }
echo "build_sim: $BUILD/soc_sim (P = $P)"
