#!/usr/bin/env bash
# soc_smoke.sh -- CI smoke test of the falcon-accel SoC (hw/soc) and its
# firmware (fw/): builds the Verilated SoC, the firmware and the host
# test (tools/soc_smoke.c), then checks a Falcon-512 verify and sign on
# the firmware against the host library's bytes and that malformed
# requests get error replies (the firmware keeps serving).
# Usage: scripts/soc_smoke.sh
# Env: SOC_VERIFY_MODE (default fw: firmware only), SOC_SIGN_MODE (default
# dma: the accelerated configuration; a firmware-only sign is slower to
# simulate than CI allows)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup_soc.sh >/dev/null
python3 hw/soc/util/gen_socmap.py --check
hw/soc/build_sim.sh build/soc-sim
make -s -C fw BUILD="$PWD/build/soc-fw" >/dev/null
cmake -S . -B build/soc-host -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF \
	-DFA_BUILD_TESTS=OFF >build/soc-host.log 2>&1 || { tail -20 build/soc-host.log; exit 1; }
cmake --build build/soc-host --target soc-smoke -j2 >>build/soc-host.log 2>&1 \
	|| { tail -20 build/soc-host.log; exit 1; }
FALCON_ACCEL_SOC_TIMEOUT=${FALCON_ACCEL_SOC_TIMEOUT:-600} \
FALCON_ACCEL_SOC_CONSOLE=build/soc-smoke-console.log \
	build/soc-host/tools/soc-smoke --verify-mode "${SOC_VERIFY_MODE:-fw}" \
	--sign-mode "${SOC_SIGN_MODE:-dma}"
