#!/usr/bin/env bash
# build_sim.sh -- Verilate the falcon-accel SoC of one configuration
# (soc/data/configs.json: soc/rtl/soc_top.sv with the VexRiscv core, the
# RAM and host mailbox of that configuration) and falcon_accel_top with the
# configuration's units, as two models joined by the harness
# soc/sim/soc_sim.cpp into BUILD/soc_sim. The same RTL is what
# soc/syn and soc/boards synthesise for that configuration.
# Usage: soc/sim/build_sim.sh [build-dir]   (default build/soc-sim)
# Env:   SOC_CONFIG (a configuration name, default "sim"), JOBS (default 2)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HW=$ROOT/hw
BUILD=$(mkdir -p "${1:-$ROOT/build/soc-sim}" && cd "${1:-$ROOT/build/soc-sim}" && pwd)
CONFIG=${SOC_CONFIG:-sim}
# P LP KECCAK SAMPLER FFSAMP MLKEM KEMENC RAM_KIB MBOX from the configuration
eval "$(python3 "$ROOT/soc/util/soc_config.py" "$CONFIG" --shell)"
VEX=$(python3 -c "import pythondata_cpu_vexriscv as p; print(p.data_location)" 2>/dev/null) || {
	echo "build_sim: python package pythondata-cpu-vexriscv missing (scripts/setup_soc.sh)" >&2; exit 2; }
. "$HW/syn/sources.sh"
. "$ROOT/soc/sim/sim_sources.sh"
python3 "$ROOT/soc/util/gen_socmap.py" --check
mkdir -p "$BUILD"
# a configuration change rebuilds both models
STAMP="config=$CONFIG P=$P KECCAK=$KECCAK SAMPLER=$SAMPLER FFSAMP=$FFSAMP MLKEM=$MLKEM KEMENC=$KEMENC RAM_KIB=$RAM_KIB MBOX=$MBOX"
if [ "$(cat "$BUILD/config.stamp" 2>/dev/null)" != "$STAMP" ]; then
	rm -rf "$BUILD/acc_obj" "$BUILD/obj"
fi
# 1. the accelerator, a model of its own (clocked only while enabled)
nice verilator --cc --build -j "${JOBS:-2}" -O3 --x-assign fast --x-initial fast \
	--top-module falcon_accel_top -GP=$P -GLP=$LP -GKECCAK=$KECCAK -GMLKEM=$MLKEM -GSAMPLER=$SAMPLER \
	-GFFSAMP=$FFSAMP -GFS_MAXLOGN=10 -GKEMENC=$KEMENC -Wno-fatal -Wno-WIDTH -Wno-UNUSEDSIGNAL \
	-I"$HW/top/rtl" --Mdir "$BUILD/acc_obj" -CFLAGS -O2 $FA_SRCS >"$BUILD/build-acc.log" 2>&1 || {
	grep -E '%Error|error' "$BUILD/build-acc.log" | head -30; exit 1; }
# 2. the SoC and the harness, linked with the accelerator's model.
# Verilator warnings in the vendored core are not ours: -Wno-fatal.
nice verilator ${SOC_VFLAGS:-} --cc --exe --build -j "${JOBS:-2}" -O3 --x-assign fast --x-initial fast \
	--top-module soc_top -GP=$P -GRamKib=$RAM_KIB -GMbox=$MBOX -Wno-fatal -Wno-lint -Wno-style -Wno-MULTIDRIVEN \
	-Wno-UNOPTFLAT -Wno-SELRANGE -Wno-WIDTH \
	--Mdir "$BUILD/obj" -o "$BUILD/soc_sim" \
	-CFLAGS "-O2 -I$ROOT/soc/fw -I$BUILD/acc_obj -DSOC_MBOX=$MBOX" -LDFLAGS "$BUILD/acc_obj/Vfalcon_accel_top__ALL.a" \
	$SOC_VEX_SRCS $SOC_OWN_SRCS "$ROOT/soc/sim/soc_sim.cpp" >"$BUILD/build.log" 2>&1 || {
	grep -E '%Error|error' "$BUILD/build.log" | head -30; exit 1; }
echo "$STAMP" > "$BUILD/config.stamp"
echo "build_sim: $BUILD/soc_sim ($STAMP)"
