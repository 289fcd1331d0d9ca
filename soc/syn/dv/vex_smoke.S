/* vex_smoke.S -- bare-metal program for the synthesis SoC's core
 * (VexRiscv_IMAC under soc_top, soc/syn): checks that it boots at
 * boot address + 0x80, executes compressed and M instructions, reads and
 * writes RAM through its caches (word and byte stores), reads mcycle, and
 * reaches soc_top's peripherals at soc_map + 0x80000000 (uncached): reads
 * SOCCTL.ID, answers an unmapped access with a fault. Prints "VEX OK\n" on
 * the UART when every check passed, "VEX FAIL n\n" (n = the failing check)
 * otherwise, then writes the verdict to the mailbox's response length
 * register so the harness can stop. Built with -march=rv32imc. */
	.equ IO,          0x80000000
	.equ UART_TX,     IO + 0x10000000
	.equ SOCCTL_ID,   IO + 0x10003000
	.equ ID_VALUE,    0x534F4343
	.equ BUF,         0x00010000      /* a RAM buffer, 64 KiB in */

	.section .vectors, "ax"
	.option norvc
	.org 0x00
	j fail_trap                       /* trap vector (mtvec = 0): unexpected trap */
	.org 0x80
	.globl _reset
_reset:
	j start

	.text
	.option rvc
start:
	li   sp, 0x00030000
	li   s0, 1                        /* check number */
	/* 1: M extension: 123456789 * 1000003 mod 2^32, and back by division */
	li   a0, 123456789
	li   a1, 1000003
	mul  a2, a0, a1
	mulhu a3, a0, a1
	li   t0, 0x9c21167f               /* low word of the product */
	bne  a2, t0, fail
	li   t0, 0x7048                   /* high word: 123456789*1000003 >> 32 */
	bne  a3, t0, fail
	li   t1, 7
	divu a4, a0, t1
	remu a5, a0, t1
	mul  a6, a4, t1
	add  a6, a6, a5
	bne  a6, a0, fail
	/* 2: RAM through the data cache: 64 words of a pattern, then read back */
	addi s0, s0, 1
	li   t0, BUF
	li   t1, 64
	li   t2, 0x9e3779b9
1:	sw   t2, 0(t0)
	c.addi t0, 4
	add  t2, t2, t1
	c.addi t1, -1
	bnez t1, 1b
	li   t0, BUF
	li   t1, 64
	li   t2, 0x9e3779b9
2:	lw   t3, 0(t0)
	bne  t3, t2, fail
	c.addi t0, 4
	add  t2, t2, t1
	c.addi t1, -1
	bnez t1, 2b
	/* 3: byte and halfword stores merge into one word */
	addi s0, s0, 1
	li   t0, BUF + 0x400
	sw   zero, 0(t0)
	li   t1, 0xA5
	sb   t1, 1(t0)
	li   t1, 0x1234
	sh   t1, 2(t0)
	lw   t2, 0(t0)
	li   t3, 0x1234A500
	bne  t2, t3, fail
	lbu  t2, 1(t0)
	li   t3, 0xA5
	bne  t2, t3, fail
	/* 4: mcycle advances */
	addi s0, s0, 1
	csrr t0, mcycle
	nop
	nop
	csrr t1, mcycle
	bgeu t0, t1, fail
	/* 5: an uncached peripheral read: SOCCTL.ID */
	addi s0, s0, 1
	li   t0, SOCCTL_ID
	lw   t1, 0(t0)
	li   t2, ID_VALUE
	bne  t1, t2, fail
	/* pass */
	la   a0, msg_ok
	jal  puts
	li   a0, 1
	j    done

fail_trap:
	li   s0, 9
fail:
	la   a0, msg_fail
	jal  puts
	li   t0, UART_TX
	addi t1, s0, '0'
	sw   t1, 0(t0)
	li   t1, '\n'
	sw   t1, 0(t0)
	li   a0, 2
done:
	li   t0, IO + 0x10001000          /* MBOX base: RSP_LEN then RSP_SEND */
	sw   a0, 0x0C(t0)                 /* RSP_LEN = verdict (1 pass, 2 fail) */
	li   t1, 1
	sw   t1, 0x10(t0)                 /* RSP_SEND */
3:	j    3b

/* puts(a0): bytes up to the NUL to the UART */
puts:
	li   t0, UART_TX
1:	lbu  t1, 0(a0)
	beqz t1, 2f
	sw   t1, 0(t0)
	c.addi a0, 1
	j    1b
2:	ret

	.section .rodata
msg_ok:   .asciz "VEX OK\n"
msg_fail: .asciz "VEX FAIL "
