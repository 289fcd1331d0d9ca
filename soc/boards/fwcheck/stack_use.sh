#!/bin/sh
# Stack use of a board's firmware (soc/boards/README.md, "Firmware"):
#   1. stack_use.c under qemu-riscv32 against the board build's library
#      (build/board/CONFIG/fw/lib: the same -Os rv32imc library as fw.elf):
#      the high-water mark of keygen, pubkey, sign_dyn, expand + sign_tree,
#      verify at the configuration's max_logn and ML-KEM-1024, portable
#      kernels;
#   2. the firmware's own frames (gcc -fcallgraph-info=su of soc/fw/*.c and
#      the register driver, the board's flags; stack_bound.py): the deepest
#      chain from the request loop to the handler, and the deepest
#      accelerator kernel entry with the driver below it (the units this
#      configuration has);
#   3. (2) + (1) + kernel against the configuration's stack: fails above
#      it. A bound, not a measurement: (1) includes the portable kernels'
#      frames, which an accelerator mode replaces by (2)'s kernel chain.
#   usage: soc/boards/fwcheck/stack_use.sh CONFIG   (after build_board.sh CONFIG fw)
set -e
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
CONFIG=${1:?usage: stack_use.sh CONFIG}
v=$(python3 "$ROOT/soc/boards/board_config.py" "$CONFIG") || exit 1
eval "$v"
OUT=${BOARD_OUT:-$ROOT/build/board/$CONFIG}
LIB=$OUT/fw/lib/libfalcon_accel.a
[ -f "$LIB" ] || { echo "stack_use: $LIB missing (soc/boards/build_board.sh $CONFIG fw)" >&2; exit 1; }
command -v qemu-riscv32 >/dev/null || { echo "stack_use: qemu-riscv32 missing (qemu-user)" >&2; exit 1; }
P=riscv64-unknown-elf-
D=$OUT/stack
mkdir -p "$D"
${P}gcc -march=rv32imc -mabi=ilp32 -Os -ffreestanding -fno-builtin -nostdlib -nostartfiles -static \
	-Wall -Wextra -isystem "$ROOT/cmake/rv32imc-include" -I"$ROOT/include" -I"$ROOT/tests/common" \
	-DFA_FPEMU=1 -DFA_FREESTANDING=1 -DLOGN=$CFG_MAX_LOGN \
	"$ROOT/soc/boards/fwcheck/stack_use.c" "$LIB" -lgcc -o "$D/stack_use.elf"
qemu-riscv32 "$D/stack_use.elf" | tee "$D/stack_use.txt"
lib=$(sed -n 's/^max \([0-9]*\) ok$/\1/p' "$D/stack_use.txt")
[ -n "$lib" ] || { echo "stack_use: FAIL: the run failed" >&2; exit 1; }
FL="-march=rv32imc_zicsr -mabi=ilp32 -Os -std=c11 -ffreestanding -fno-common --specs=picolibc.specs
 -I$ROOT/soc/fw -I$ROOT/include -I$ROOT/src -I$ROOT/src/backend_rtl -DFA_FPEMU=1 -DFA_FREESTANDING=1"
rm -f "$D"/*.ci
for f in fw_main fw_link fw_accel fw_console fw_string; do
	${P}gcc $FL -DFW_MAX_LOGN=$CFG_MAX_LOGN -DFW_REQ_MAX=$CFG_REQ_MAX -DFW_RSP_MAX=$CFG_RSP_MAX \
		-fcallgraph-info=su -c "$ROOT/soc/fw/$f.c" -o "$D/$f.o"
done
for f in rtl_driver rtl_sampling; do
	${P}gcc $FL -fcallgraph-info=su -c "$ROOT/src/backend_rtl/$f.c" -o "$D/$f.o"
done
# kernel entry points this configuration's accelerator never gets (fw_accel.c
# installs them only when CONFIG says the unit is there)
EX=""
[ "$CFG_FFSAMP" = 1 ] || EX="$EX --exclude acc_ffsampling"
[ "$CFG_SAMPLER" = 1 ] || EX="$EX --exclude acc_samplerz --exclude acc_samplerz_pair --exclude acc_prng_refill"
python3 "$ROOT/soc/boards/fwcheck/stack_bound.py" $EX "$D"/*.ci | tee "$D/stack_bound.txt"
link=$(sed -n 's/^link \([0-9]*\) .*/\1/p' "$D/stack_bound.txt")
kern=$(sed -n 's/^kernel \([0-9]*\) .*/\1/p' "$D/stack_bound.txt")
total=$((link + lib + kern))
limit=$((CFG_STACK_KIB * 1024))
echo "stack: request loop and handler $link + library $lib (measured) + accelerator kernel and driver $kern = $total bytes of $limit ($CFG_STACK_KIB KiB)"
[ "$total" -le "$limit" ] || { echo "stack_use: FAIL: $total > $limit" >&2; exit 1; }
