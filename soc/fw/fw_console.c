/*
 * fw_console.c -- console output on the SoC UART (transmit only).
 */
#include "fw_hal.h"

static void fw_putc(char c)
{
	while ((mmio_rd(FA_SOC_UART_BASE + FA_SOC_UART_STATUS) & 1u) == 0) {
	}
	mmio_wr(FA_SOC_UART_BASE + FA_SOC_UART_TXDATA, (uint8_t)c);
}

void fw_puts(const char *s)
{
	while (*s != 0) {
		fw_putc(*s ++);
	}
}

void fw_puthex(uint32_t v)
{
	static const char d[] = "0123456789abcdef";
	int i;

	fw_putc('0');
	fw_putc('x');
	for (i = 28; i >= 0; i -= 4) {
		fw_putc(d[(v >> i) & 15]);
	}
}
