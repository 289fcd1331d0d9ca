#!/usr/bin/env bash
# CI step of the FIDO2 key as SoC firmware:
# 1. the whole e2e suite (apps/fido2/tests/e2e, assertions unchanged) against the
#    bridge falcon-accel-fido2-soc with the firmware's device code in-process
#    (--core host: the SoC link protocol's device side, the flash page store
#    on the flash image, its saving, kill -9 included; seconds);
# 2. the smoke on the simulated SoC (apps/fido2/tests/soc): INIT, PING, getInfo,
#    malformed requests, and getAssertions of FN-DSA-512 credentials
#    provisioned into the persistent image (page store + expanded-key
#    cache), signed by the firmware with the accelerator's kernels: an
#    evicted one (its key expanded into the cache), the same warm
#    (fa_fndsa_sign_tree), then after a simulator restart (a power-up) a
#    discoverable and a non-discoverable one from the adopted persistent
#    cache (no expansion, no key generation).
# Builds the Verilated SoC (build/soc-sim, which soc/host/soc_smoke.sh built
# already in CI), the FIDO2 firmware (make -C apps/fido2/fw in build/soc-fw, the
# library shared with fw.elf), the bridge and the CLI (build/soc-host: FN-DSA
# signatures are verified with the CLI when the installed falcon_accel
# package has no FN-DSA).
# Usage: apps/fido2/tests/run_soc_smoke.sh
# Env: FIDO2_SOC_SIM_DIR, FIDO2_SOC_FW_DIR, FIDO2_SOC_HOST_DIR (build
# directories), FIDO2_SOC_CYCLES_OUT (keep the bridge's cycle log), JOBS
set -euo pipefail
cd "$(dirname "$0")/../../.."
JOBS=${JOBS:-2}
sim_dir=${FIDO2_SOC_SIM_DIR:-build/soc-sim}
fw_dir=$(mkdir -p "${FIDO2_SOC_FW_DIR:-build/soc-fw}" && cd "${FIDO2_SOC_FW_DIR:-build/soc-fw}" && pwd)
host_dir=${FIDO2_SOC_HOST_DIR:-build/soc-host}
scripts/setup_soc.sh >/dev/null
scripts/setup_fido2.sh
# the simulator only when it is missing or older than its sources (CI: the
# SoC smoke step has just built it)
if [ ! -x "$sim_dir/soc_sim" ] || [ -n "$(find hw fw -newer "$sim_dir/soc_sim" \
	\( -name '*.v' -o -name '*.sv' -o -name '*.svh' -o -name '*.cpp' -o -name 'soc_map.h' \
	-o -name 'soc_proto.h' -o -name '*.sh' \) -print -quit)" ]; then
	soc/sim/build_sim.sh "$sim_dir"
fi
make -s -C apps/fido2/fw BUILD="$fw_dir" >"$fw_dir/fido2-build.log" 2>&1 \
	|| { tail -30 "$fw_dir/fido2-build.log"; exit 1; }
mkdir -p "$host_dir"
if [ ! -f "$host_dir/CMakeCache.txt" ]; then
	cmake -S . -B "$host_dir" -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF \
		-DFA_BUILD_TESTS=OFF >"$host_dir/fido2-configure.log" 2>&1 \
		|| { tail -20 "$host_dir/fido2-configure.log"; exit 1; }
fi
cmake --build "$host_dir" --target falcon-accel-fido2-soc falcon-accel -j"$JOBS" \
	>"$host_dir/fido2-build.log" 2>&1 || { tail -20 "$host_dir/fido2-build.log"; exit 1; }
export FIDO2_CLI=${FIDO2_CLI:-$PWD/$host_dir/tools/falcon-accel}
if ! python3 -c 'import falcon_accel' 2>/dev/null; then
	python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
		-Ccmake.define.FA_RTL=OFF ./service/python
fi
export FIDO2_SOC_BRIDGE=$PWD/$host_dir/apps/fido2/host/falcon-accel-fido2-soc
echo "--- e2e suite, bridge with the device code in-process (--core host)"
FIDO2_E2E_TARGET=soc-host FIDO2_KILL_ROUNDS=2 python3 -m pytest -q -p no:cacheprovider \
	--ignore=apps/fido2/tests/e2e/test_fido2_prompt.py --ignore=apps/fido2/tests/e2e/test_fido2_hardening.py apps/fido2/tests/e2e
echo "--- smoke on the simulated SoC (firmware + accelerator, dma kernels)"
export FIDO2_SOC_ARGS="--sim $PWD/$sim_dir/soc_sim --fw $fw_dir/fido2_fw.elf"
export FALCON_ACCEL_SOC_CONSOLE=${FALCON_ACCEL_SOC_CONSOLE:-$fw_dir/fido2-console.log}
export FALCON_ACCEL_SOC_TIMEOUT=${FALCON_ACCEL_SOC_TIMEOUT:-600}
python3 -m pytest -q -s -p no:cacheprovider apps/fido2/tests/soc
