#!/usr/bin/env bash
# soc_uart_smoke.sh -- CI step of the SoC's UART host link (the link a board
# uses: soc/doc/soclink.md, UART link):
#  1. soc_uart's cocotb unit test (soc/dv/test_soc_uart.py, Icarus):
#     loopback at bit times 4, 8, 16, 37 cycles, framing error, overrun,
#     glitch, the FIFOs and CTRL; the RTL's assertions on;
#  2. the framing against the firmware on the Verilated SoC through
#     soc_sim --uart-pty (soc/host/soc_uart_link_test.py): bad CRC, length
#     above the maximum, wrong type, garbage, truncated frames answered with
#     FRAME_* replies, the link serving after each; and the host client's
#     serial-port code against a faulty board on a pty (bad reply CRC,
#     oversized reply, FRAME_* answers, silence: clear errors);
#  3. soc-smoke over the UART link (FALCON_ACCEL_SOC_LINK=uart: the host
#     client's board code path on the simulator's pseudo-terminal):
#     Falcon-512 verify, sign_dyn and sign_tree byte-exact against the host
#     library, malformed requests.
# Steps 2 and 3 run on a board configuration's simulation (SOC_CONFIG,
# default ulx3s: soc/data/configs.json; no mailbox, the UART is the only
# host link) with that board's firmware (soc/boards/build_board.sh CONFIG
# fw: its RAM size and Falcon degrees): the SoC and firmware a bitstream
# of that configuration carries. Sign mode accel (FFT/NTT on the device;
# a configuration without SamplerZ samples in software), verify dma.
# Usage: soc/host/soc_uart_smoke.sh
# Env: SOC_BUILD_DIR (default build), SOC_CONFIG (default ulx3s),
# SOC_VERIFY_MODE / SOC_SIGN_MODE (dma / accel).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup_soc.sh >/dev/null
python3 scripts/autogen.py --check socmap soclink >/dev/null
B=${SOC_BUILD_DIR:-build}
mkdir -p "$B"
B=$(cd "$B" && pwd)
echo "== soc_uart unit test (cocotb)"
(cd soc/dv && FA_HW_BUILD="$B/soc-dv" python3 -m pytest -q -p no:cacheprovider test_soc_uart.py)
CONFIG=${SOC_CONFIG:-ulx3s}
eval "$(python3 soc/util/soc_config.py "$CONFIG" --shell)"
SOC_CONFIG=$CONFIG soc/sim/build_sim.sh "$B/soc-sim-$CONFIG"
if [ "$CONFIG" = sim ]; then
	make -s -C soc/fw BUILD="$B/soc-fw" >/dev/null
	CFG_FW=$B/soc-fw/fw.elf
else
	sh soc/boards/build_board.sh "$CONFIG" fw >/dev/null
	CFG_FW=$PWD/build/board/$CONFIG/fw/fw.elf
fi
# the device's sampling is checked only where the configuration has it
NO_SAMPLER=""
[ "$SAMPLER" = 1 ] && [ "$FFSAMP" = 1 ] || NO_SAMPLER=--no-device-sampler
cmake -S . -B "$B/soc-host" -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF \
	-DFA_BUILD_TESTS=OFF >"$B/soc-host.log" 2>&1 || { tail -20 "$B/soc-host.log"; exit 1; }
cmake --build "$B/soc-host" --target soc-smoke -j2 >>"$B/soc-host.log" 2>&1 \
	|| { tail -20 "$B/soc-host.log"; exit 1; }
SIM=${FALCON_ACCEL_SOC_SIM:-$B/soc-sim-$CONFIG/soc_sim}
FW=${FALCON_ACCEL_SOC_FW:-$CFG_FW}
echo "== UART link framing (soc_sim --uart-pty; the client against a faulty board)"
python3 soc/host/soc_uart_link_test.py --sim "$SIM" --fw "$FW" \
	--console "$B/soc-uart-link-console.log" --client "$B/soc-host/tools/soc-smoke"
tail -n 1 "$B/soc-uart-link-console.log"
echo "== soc-smoke over the UART link ($CONFIG)"
FALCON_ACCEL_SOC_SIM=$SIM FALCON_ACCEL_SOC_FW=$FW FALCON_ACCEL_SOC_LINK=uart \
FALCON_ACCEL_SOC_TIMEOUT=${FALCON_ACCEL_SOC_TIMEOUT:-600} \
FALCON_ACCEL_SOC_CONSOLE="$B/soc-uart-smoke-console.log" \
	"$B/soc-host/tools/soc-smoke" --verify-mode "${SOC_VERIFY_MODE:-dma}" \
	--sign-mode "${SOC_SIGN_MODE:-accel}" $NO_SAMPLER
tail -n 1 "$B/soc-uart-smoke-console.log"
