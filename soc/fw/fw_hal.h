/*
 * fw_hal.h -- the firmware's view of the SoC: memory-mapped registers
 * (addresses from soc_map.h, generated from soc/data/socmap.json),
 * the cycle counter, the console and the UART.
 */
#ifndef FW_HAL_H
#define FW_HAL_H

#include <stddef.h>
#include <stdint.h>

#include "soc_map.h"

static inline void mmio_wr(uint32_t addr, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)addr = v;
}

static inline uint32_t mmio_rd(uint32_t addr)
{
	return *(volatile uint32_t *)(uintptr_t)addr;
}

/* The data cache (VexRiscv, soc/rtl/soc_core_vexriscv.sv): write-through,
   so the DMA engine reading RAM sees every store the compiler has made
   (the "memory" clobber makes it make them first); not coherent with the
   DMA engine writing RAM, so after such a transfer every line is
   discarded (VexRiscv's data-cache flush instruction, 0x0000500F). */
static inline void fw_dcache_invalidate(void)
{
	__asm__ volatile (".word 0x0000500F" ::: "memory");
}

static inline void fw_compiler_barrier(void)
{
	__asm__ volatile ("" ::: "memory");
}

/* 64-bit mcycle (high word re-read around the low word). */
static inline uint64_t fw_cycles(void)
{
	uint32_t hi, lo, hi2;

	do {
		__asm__ volatile ("csrr %0, mcycleh" : "=r"(hi));
		__asm__ volatile ("csrr %0, mcycle" : "=r"(lo));
		__asm__ volatile ("csrr %0, mcycleh" : "=r"(hi2));
	} while (hi != hi2);
	return ((uint64_t)hi << 32) | lo;
}

/* The console (fw_console.c): raw on the UART with the mailbox link, in
   CONSOLE frames with the UART link (flushed at a newline, when full, and
   by fw_console_flush before each reply). */
void fw_puts(const char *s);
void fw_puthex(uint32_t v);
void fw_console_flush(void);

/* The UART (fw_console.c). fw_uart_init (idempotent; the first console
   byte or fw_uart_link runs it) reads the link strap and sets the bit
   time: SOCCTL.CLK_HZ / FA_SOC_LINK_BAUD, or FA_SOC_LINK_SIM_DIV when the
   clock is unknown (simulation). */
void fw_uart_init(void);
int fw_uart_link(void);             /* 1: the host link is the UART */
uint32_t fw_uart_div(void);         /* the bit time in cycles */
void fw_uart_putc(uint8_t c);
void fw_uart_write(const uint8_t *p, uint32_t n);
/* A UART link frame of `type` whose body is a[0..na) then b[0..nb) (b may
   be NULL): header, body, CRC-32. */
void fw_uart_frame(uint32_t type, const uint8_t *a, uint32_t na,
	const uint8_t *b, uint32_t nb);

#endif
