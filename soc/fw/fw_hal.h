/*
 * fw_hal.h -- the firmware's view of the SoC: memory-mapped registers
 * (addresses from soc_map.h, generated from soc/data/socmap.json),
 * the cycle counter and the console.
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

void fw_puts(const char *s);
void fw_puthex(uint32_t v);

#endif
