#!/usr/bin/env bash
# The whole FIDO2 end-to-end suite (apps/fido2/tests/e2e, assertions unchanged)
# against the key as SoC firmware through falcon-accel-fido2-soc:
#   apps/fido2/tests/run_soc_e2e.sh [soc|soc-host]      (make fido2-soc-e2e)
# soc: the firmware on the Verilated SoC, FN-DSA and round-3 Falcon with the
#   accelerator's kernels (dma): hours of simulation (each makeCredential
#   is a key generation + a signature, ~100 M cycles or more, minutes of
#   simulation; FN-DSA-1024 several times that).
# soc-host: the firmware's device code in the bridge process (seconds).
# Not run: test_fido2_prompt.py (the firmware has no button: presence is
# auto only); on `soc` also test_fido2_kill.py, whose kills (5-250 ms after
# each start) all land before the first makeCredential of the SoC can
# finish; soc-host runs it with FIDO2_KILL_ROUNDS=2 (the flash store indexes
# 16 discoverable credentials, FIDO2_FLASH_MAX_CREDS, and 12 rounds make more).
set -euo pipefail
cd "$(dirname "$0")/../../.."
target=${1:-soc}
case $target in soc|soc-host) ;; *) echo "usage: $0 [soc|soc-host]" >&2; exit 2 ;; esac
JOBS=${JOBS:-2}
scripts/setup_fido2.sh
if [ "$target" = soc ]; then
	scripts/setup_soc.sh >/dev/null
	soc/sim/build_sim.sh build/soc-sim
	make -s -C apps/fido2/fw BUILD="$PWD/build/soc-fw" >build/soc-fw-fido2.log 2>&1 \
		|| { tail -30 build/soc-fw-fido2.log; exit 1; }
fi
if [ ! -f build/soc-host/CMakeCache.txt ]; then
	cmake -S . -B build/soc-host -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF \
		-DFA_BUILD_TESTS=OFF >build/soc-host.log 2>&1 || { tail -20 build/soc-host.log; exit 1; }
fi
cmake --build build/soc-host --target falcon-accel-fido2-soc falcon-accel -j"$JOBS" >>build/soc-host.log 2>&1 \
	|| { tail -20 build/soc-host.log; exit 1; }
# FN-DSA signatures are verified with this CLI when the installed
# falcon_accel package has no FN-DSA
export FIDO2_CLI=${FIDO2_CLI:-$PWD/build/soc-host/tools/falcon-accel}
if ! python3 -c 'import falcon_accel' 2>/dev/null; then
	python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
		-Ccmake.define.FA_RTL=OFF ./service/python
fi
export FIDO2_E2E_TARGET=$target
export FIDO2_SOC_BRIDGE=$PWD/build/soc-host/apps/fido2/host/falcon-accel-fido2-soc
ignore=(--ignore=apps/fido2/tests/e2e/test_fido2_prompt.py --ignore=apps/fido2/tests/e2e/test_fido2_hardening.py)
if [ "$target" = soc ]; then
	export FIDO2_SOC_ARGS="--sim $PWD/build/soc-sim/soc_sim --fw $PWD/build/soc-fw/fido2_fw.elf --mode dma --cycle-log $PWD/build/soc-fido2-cycles.jsonl ${FIDO2_SOC_EXTRA:-}"
	export FALCON_ACCEL_SOC_CONSOLE=${FALCON_ACCEL_SOC_CONSOLE:-$PWD/build/soc-fido2-console.log}
	ignore+=(--ignore=apps/fido2/tests/e2e/test_fido2_kill.py)
else
	export FIDO2_KILL_ROUNDS=${FIDO2_KILL_ROUNDS:-2}
fi
shift || true
exec python3 -m pytest -q -p no:cacheprovider "${ignore[@]}" "$@" apps/fido2/tests/e2e
