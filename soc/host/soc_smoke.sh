#!/usr/bin/env bash
# soc_smoke.sh -- CI smoke test of the falcon-accel SoC (soc) and its
# firmware (soc/fw/): builds the Verilated SoC, the firmware and the host
# test (soc/host/soc_smoke.c), then checks a Falcon-512 verify and sign on
# the firmware against the host library's bytes and that malformed
# requests get error replies (the firmware keeps serving).
# Usage: soc/host/soc_smoke.sh
# Env: SOC_VERIFY_MODE (default fw: firmware only), SOC_SIGN_MODE (default
# dma: the accelerated configuration; a firmware-only sign is slower to
# simulate than CI allows), SOC_BUILD_DIR (where soc-sim, soc-fw, soc-host
# are built; default build)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup_soc.sh >/dev/null
python3 soc/util/gen_socmap.py --check
B=${SOC_BUILD_DIR:-build}
mkdir -p "$B"
soc/sim/build_sim.sh "$B/soc-sim"
make -s -C soc/fw BUILD="$(cd "$B" && pwd)/soc-fw" >/dev/null
cmake -S . -B "$B/soc-host" -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF \
	-DFA_BUILD_TESTS=OFF >"$B/soc-host.log" 2>&1 || { tail -20 "$B/soc-host.log"; exit 1; }
cmake --build "$B/soc-host" --target soc-smoke -j2 >>"$B/soc-host.log" 2>&1 \
	|| { tail -20 "$B/soc-host.log"; exit 1; }
export FALCON_ACCEL_SOC_SIM=${FALCON_ACCEL_SOC_SIM:-$(cd "$B" && pwd)/soc-sim/soc_sim}
export FALCON_ACCEL_SOC_FW=${FALCON_ACCEL_SOC_FW:-$(cd "$B" && pwd)/soc-fw/fw.elf}
FALCON_ACCEL_SOC_TIMEOUT=${FALCON_ACCEL_SOC_TIMEOUT:-600} \
FALCON_ACCEL_SOC_CONSOLE="$B/soc-smoke-console.log" \
	"$B/soc-host/tools/soc-smoke" --verify-mode "${SOC_VERIFY_MODE:-fw}" \
	--sign-mode "${SOC_SIGN_MODE:-dma}"
