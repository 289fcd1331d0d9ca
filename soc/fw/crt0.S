/*
 * crt0.S -- start-up code of the falcon-accel SoC firmware (VexRiscv,
 * soc/rtl/soc_core_vexriscv.sv: reset enters at the boot address + 0x80;
 * the vector table at the boot address is what mtvec points to).
 * Reset: mtvec, stack and global pointers, .bss cleared, fw_main().
 * Any exception (direct mode: mtvec + 0; no interrupt is enabled):
 * fresh stack, fw_trap(mcause, mepc, mtval), which answers the request
 * in progress with an error and re-enters the request loop.
 */
	.section .vectors, "ax"
	.option norvc
	.globl _vectors
_vectors:
	.rept 32
	j trap_entry
	.endr
	/* boot_addr + 0x80 */
	j reset_entry

	.section .text.start, "ax"
reset_entry:
	la t0, _vectors
	csrw mtvec, t0
	.option push
	.option norelax
	la gp, __global_pointer$
	.option pop
	la sp, __stack_top
	la t0, __bss_start
	la t1, __bss_end
1:	bgeu t0, t1, 2f
	sw zero, 0(t0)
	addi t0, t0, 4
	j 1b
2:	call fw_main
3:	wfi
	j 3b

	.p2align 2
trap_entry:
	la sp, __stack_top
	csrr a0, mcause
	csrr a1, mepc
	csrr a2, mtval
	call fw_trap
4:	wfi
	j 4b
