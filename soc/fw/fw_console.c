/*
 * fw_console.c -- the SoC UART (soc/rtl/soc_uart.sv) for the firmware:
 * its set-up (bit time from SOCCTL.CLK_HZ, the host link strap), raw bytes
 * in and out for the UART link (fw_link.c), and the console. With the
 * mailbox link the console text goes raw on the line (the harness prints
 * it); with the UART link it travels in CONSOLE frames (one a line, or
 * FA_SOC_LINK_CONSOLE_MAX bytes), so that it never mixes with the link's
 * frames (soc/doc/soclink.md).
 */
#include "fw_hal.h"
#include "soc_proto.h"

static int uart_ready;          /* fw_uart_init has run */
static int uart_link;           /* the host link is the UART */
static uint32_t uart_div;
static char con_buf[FA_SOC_LINK_CONSOLE_MAX];
static uint32_t con_len;

void fw_uart_init(void)
{
	uint32_t hz;

	if (uart_ready) {
		return;
	}
	uart_ready = 1;
	uart_link = (mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_CONFIG)
		& FA_SOC_SOCCTL_CONFIG_MBOX_LINK) == 0;
	hz = mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_CLK_HZ);
	uart_div = hz != 0 ? (hz + FA_SOC_LINK_BAUD / 2) / FA_SOC_LINK_BAUD
		: FA_SOC_LINK_SIM_DIV;
	if (uart_div > FA_SOC_UART_DIV_CYCLES_MASK) {
		uart_div = FA_SOC_UART_DIV_CYCLES_MASK;
	}
	/* nothing was sent before this: the transmitter is idle. What the
	   receiver holds stays (a host may send early: the simulation's bit
	   time is DIV's reset value); the link's receiver skips what is not
	   a frame. */
	mmio_wr(FA_SOC_UART_BASE + FA_SOC_UART_DIV, uart_div);
	mmio_wr(FA_SOC_UART_BASE + FA_SOC_UART_CTRL, FA_SOC_UART_CTRL_RX_CLEAR_ERR);
}

int fw_uart_link(void)
{
	fw_uart_init();
	return uart_link;
}

uint32_t fw_uart_div(void)
{
	fw_uart_init();
	return uart_div;
}

void fw_uart_putc(uint8_t c)
{
	while ((mmio_rd(FA_SOC_UART_BASE + FA_SOC_UART_STATUS)
		& FA_SOC_UART_STATUS_TX_READY) == 0)
	{
	}
	mmio_wr(FA_SOC_UART_BASE + FA_SOC_UART_TXDATA, c);
}

void fw_uart_write(const uint8_t *p, uint32_t n)
{
	while (n -- > 0) {
		fw_uart_putc(*p ++);
	}
}

/* One frame on the line: header, the body in two pieces (b may be NULL), CRC. */
void fw_uart_frame(uint32_t type, const uint8_t *a, uint32_t na,
	const uint8_t *b, uint32_t nb)
{
	uint8_t h[FA_SOC_LINK_HDR], c[4];
	uint32_t crc;

	fa_soc_put32(h, FA_SOC_LINK_MAGIC);
	fa_soc_put32(h + 4, na + nb);
	fa_soc_put32(h + 8, type);
	crc = fa_soc_crc32(0, h + 4, FA_SOC_LINK_HDR - 4);
	crc = fa_soc_crc32(crc, a, na);
	if (b != NULL) {
		crc = fa_soc_crc32(crc, b, nb);
	}
	fa_soc_put32(c, crc);
	fw_uart_write(h, sizeof h);
	fw_uart_write(a, na);
	if (b != NULL) {
		fw_uart_write(b, nb);
	}
	fw_uart_write(c, sizeof c);
}

void fw_console_flush(void)
{
	if (con_len > 0) {
		fw_uart_frame(FA_SOC_FT_CONSOLE, (const uint8_t *)con_buf, con_len, NULL, 0);
		con_len = 0;
	}
}

static void fw_putc(char c)
{
	fw_uart_init();
	if (!uart_link) {
		fw_uart_putc((uint8_t)c);
		return;
	}
	con_buf[con_len ++] = c;
	if (c == '\n' || con_len == sizeof con_buf) {
		fw_console_flush();
	}
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
