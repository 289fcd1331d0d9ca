/*
 * fw_link.c -- the host link every SoC firmware shares (see fw_link.h):
 * the mailbox (the simulation harness's fast path), or frames on the UART
 * (a board, soc_sim --uart-pty; soc/doc/soclink.md, UART link), chosen at
 * start-up by the strap SOCCTL.CONFIG.MBOX_LINK; the same dispatch and
 * handlers behind both.
 */
#include <string.h>

#include "fw_hal.h"
#include "fw_link.h"

uint8_t *fw_rsp;
uint32_t fw_rsp_len;

static const fw_link_config *link_cfg;
/* The request being served (for fw_trap). */
static volatile uint32_t cur_op, cur_seq;

int fw_fields(const uint8_t *p, uint32_t len, fw_field *f, unsigned n)
{
	uint32_t pos = 0;
	unsigned i;

	for (i = 0; i < n; i ++) {
		if (len - pos < 4) {
			return -1;
		}
		f[i].len = fa_soc_get32(p + pos);
		pos += 4;
		if (f[i].len > len - pos) {
			return -1;
		}
		f[i].p = p + pos;
		pos += f[i].len;
	}
	return pos == len ? 0 : -1;
}

static void rsp_begin(uint32_t op, uint32_t seq)
{
	memset(fw_rsp, 0, FA_SOC_RSP_HDR);
	fa_soc_put32(fw_rsp + FA_SOC_RSP_MAGIC_OFF, FA_SOC_RSP_MAGIC);
	fw_rsp[FA_SOC_RSP_OP_OFF] = (uint8_t)op;
	fw_rsp[FA_SOC_RSP_OP_OFF + 1] = (uint8_t)(op >> 8);
	fa_soc_put32(fw_rsp + FA_SOC_RSP_SEQ_OFF, seq);
	fw_rsp_len = FA_SOC_RSP_HDR;
}

void fw_rsp_status(unsigned st)
{
	fw_rsp[FA_SOC_RSP_STATUS_OFF] = (uint8_t)st;
	fw_rsp[FA_SOC_RSP_STATUS_OFF + 1] = (uint8_t)(st >> 8);
}

void fw_rsp_put32(uint32_t off, uint32_t v)
{
	fa_soc_put32(fw_rsp + off, v);
}

void fw_rsp_put64(uint32_t off, uint64_t v)
{
	fw_put64(fw_rsp + off, v);
}

void fw_rsp_field(const void *p, uint32_t len)
{
	fa_soc_put32(fw_rsp + fw_rsp_len, len);
	memcpy(fw_rsp + fw_rsp_len + 4, p, len);
	fw_rsp_len += 4 + len;
}

unsigned fw_key_status(const fw_field *f, uint8_t header, uint32_t size)
{
	if (f->len == 0) {
		return FA_SOC_ST_BAD_LENGTH;
	}
	if (f->p[0] != header) {
		return FA_SOC_ST_BAD_DEGREE;
	}
	return f->len == size ? FA_SOC_ST_OK : FA_SOC_ST_BAD_LENGTH;
}

static void rsp_send(void)
{
	if (fw_uart_link()) {
		fw_console_flush();
		fw_uart_frame(FA_SOC_FT_REPLY, fw_rsp, fw_rsp_len, NULL, 0);
		return;
	}
	/* the host takes each reply before it sends the next request */
	while (mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_STATUS) & 1u) {
	}
	memcpy((void *)(uintptr_t)(FA_SOC_MBOX_BUF_BASE + 0x8000u), fw_rsp,
		(fw_rsp_len + 3u) & ~3u);
	mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_LEN, fw_rsp_len);
	mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_SEND, 1);
}

/* One request of len bytes in req_buf: the checks common to every image. */
static void dispatch(const fw_link_config *cfg, uint32_t len)
{
	const uint8_t *q = cfg->req_buf;
	fw_request rq;

	if (len < FA_SOC_REQ_HDR) {
		rsp_begin(0, 0);
		fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
		return;
	}
	rq.op = (uint32_t)q[4] | ((uint32_t)q[5] << 8);
	rq.logn = q[6];
	rq.mode = q[7];
	rq.seq = fa_soc_get32(q + 8);
	rq.body = q + FA_SOC_REQ_HDR;
	rq.body_len = len - FA_SOC_REQ_HDR;
	cur_op = rq.op;
	cur_seq = rq.seq;
	rsp_begin(rq.op, rq.seq);
	if (fa_soc_get32(q) != FA_SOC_REQ_MAGIC) {
		fw_rsp_status(FA_SOC_ST_BAD_MAGIC);
		return;
	}
	if (rq.op == FA_SOC_OP_PING) {
		uint8_t info[12];

		if (rq.body_len != 0) {
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		fa_soc_put32(info, mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_ID));
		fa_soc_put32(info + 4, mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_CONFIG));
		fa_soc_put32(info + 8, cfg->ping_word());
		fw_rsp_field(info, sizeof info);
		return;
	}
	cfg->serve(&rq);
}

static void __attribute__((noreturn)) mbox_loop(const fw_link_config *cfg)
{
	for (;;) {
		uint32_t len;

		while ((mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_STATUS) & 1u) == 0) {
		}
		len = mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_LEN);
		cur_op = 0;
		cur_seq = 0;
		if (len > cfg->req_max) {
			mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_ACK, 1);
			rsp_begin(0, 0);
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
		} else {
			memcpy(cfg->req_buf,
				(const void *)(uintptr_t)FA_SOC_MBOX_BUF_BASE,
				(len + 3u) & ~3u);
			mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_ACK, 1);
			dispatch(cfg, len);
		}
		rsp_send();
	}
}

/* ------------------------------------------------------------ UART link */

/* After an error reply: drop bytes without another reply until a magic or
   a pause (the rest of the bad frame). */
static int rx_quiet;

static inline uint32_t cycles32(void)
{
	uint32_t c;

	__asm__ volatile ("csrr %0, mcycle" : "=r"(c));
	return c;
}

/* The next received byte, or -1 after `pause` cycles without one. */
static int rx_byte(uint32_t pause)
{
	uint32_t v = mmio_rd(FA_SOC_UART_BASE + FA_SOC_UART_RXDATA);
	uint32_t t0;

	if ((v & FA_SOC_UART_RXDATA_RX_EMPTY) == 0) {
		return (int)(v & 0xFFu);
	}
	t0 = cycles32();
	for (;;) {
		v = mmio_rd(FA_SOC_UART_BASE + FA_SOC_UART_RXDATA);
		if ((v & FA_SOC_UART_RXDATA_RX_EMPTY) == 0) {
			return (int)(v & 0xFFu);
		}
		if (cycles32() - t0 > pause) {
			return -1;
		}
	}
}

/* A frame ended early (timeout): FRAME_UART when the receiver lost bytes
   (an overrun: the firmware was not reading, e.g. still starting), else
   FRAME_TIMEOUT; aux: the UART's STATUS or the bytes received. */
static unsigned cut_short(uint32_t got, uint32_t *aux)
{
	uint32_t st = mmio_rd(FA_SOC_UART_BASE + FA_SOC_UART_STATUS);

	if (st & (FA_SOC_UART_STATUS_RX_OVERRUN | FA_SOC_UART_STATUS_RX_FRAME_ERR)) {
		mmio_wr(FA_SOC_UART_BASE + FA_SOC_UART_CTRL, FA_SOC_UART_CTRL_RX_CLEAR_ERR);
		*aux = st;
		return FA_SOC_ST_FRAME_UART;
	}
	*aux = got;
	return FA_SOC_ST_FRAME_TIMEOUT;
}

/*
 * The next request frame: its body in cfg->req_buf, *len bytes, and
 * FA_SOC_ST_OK; or a FRAME_* status with *aux and *rc for the error reply.
 * Bytes before the magic are dropped; a pause after some (not after an
 * error reply: rx_quiet) is FRAME_SYNC.
 */
static unsigned uart_recv(const fw_link_config *cfg, uint32_t *len,
	uint32_t *aux, uint32_t *rc)
{
	const uint32_t pause = FA_SOC_LINK_TIMEOUT_BITS * fw_uart_div();
	uint32_t win = 0, dropped = 0, n, i, type, crc, st;
	uint8_t h[8], c[4];
	int b;

	*rc = 0;
	for (;;) {
		b = rx_byte(pause);
		if (b < 0) {
			if (dropped == 0) {
				continue;
			}
			if (rx_quiet) {
				rx_quiet = 0;
				dropped = 0;
				win = 0;
				continue;
			}
			*aux = dropped;
			return FA_SOC_ST_FRAME_SYNC;
		}
		win = (win >> 8) | ((uint32_t)b << 24);
		dropped ++;
		if (win == FA_SOC_LINK_MAGIC) {
			break;
		}
	}
	/* a frame (the sticky receive errors are not cleared: an overrun
	   before the magic, while the firmware was not reading, may have cut
	   this very frame) */
	rx_quiet = 0;
	for (i = 0; i < sizeof h; i ++) {
		if ((b = rx_byte(pause)) < 0) {
			return cut_short(i, aux);
		}
		h[i] = (uint8_t)b;
	}
	n = fa_soc_get32(h);
	type = fa_soc_get32(h + 4);
	*rc = n;
	if (type != FA_SOC_FT_REQUEST) {
		*aux = type;
		return FA_SOC_ST_FRAME_TYPE;
	}
	if (n > cfg->req_max || n > FA_SOC_MAX_MSG) {
		*aux = n;
		return FA_SOC_ST_FRAME_LENGTH;
	}
	for (i = 0; i < n; i ++) {
		if ((b = rx_byte(pause)) < 0) {
			return cut_short(sizeof h + i, aux);
		}
		cfg->req_buf[i] = (uint8_t)b;
	}
	for (i = 0; i < sizeof c; i ++) {
		if ((b = rx_byte(pause)) < 0) {
			return cut_short(sizeof h + n + i, aux);
		}
		c[i] = (uint8_t)b;
	}
	/* a receive error (sticky) with a bad CRC: the UART's, said so; with
	   a good CRC it was not in this frame */
	st = mmio_rd(FA_SOC_UART_BASE + FA_SOC_UART_STATUS);
	if (st & (FA_SOC_UART_STATUS_RX_OVERRUN | FA_SOC_UART_STATUS_RX_FRAME_ERR)) {
		mmio_wr(FA_SOC_UART_BASE + FA_SOC_UART_CTRL, FA_SOC_UART_CTRL_RX_CLEAR_ERR);
	}
	crc = fa_soc_crc32(fa_soc_crc32(0, h, sizeof h), cfg->req_buf, n);
	if (crc != fa_soc_get32(c)) {
		if (st & (FA_SOC_UART_STATUS_RX_OVERRUN | FA_SOC_UART_STATUS_RX_FRAME_ERR)) {
			*aux = st;
			return FA_SOC_ST_FRAME_UART;
		}
		*aux = fa_soc_get32(c);
		return FA_SOC_ST_FRAME_CRC;
	}
	*len = n;
	return FA_SOC_ST_OK;
}

static void __attribute__((noreturn)) uart_loop(const fw_link_config *cfg)
{
	for (;;) {
		uint32_t len = 0, aux = 0, rc = 0;
		unsigned st;

		cur_op = 0;
		cur_seq = 0;
		st = uart_recv(cfg, &len, &aux, &rc);
		if (st != FA_SOC_ST_OK) {
			rsp_begin(0, 0);
			fw_rsp_status(st);
			fw_rsp_put32(FA_SOC_RSP_LIBRC_OFF, rc);
			fw_rsp_put64(FA_SOC_RSP_AUX_OFF, aux);
			rx_quiet = st != FA_SOC_ST_FRAME_SYNC;
		} else {
			dispatch(cfg, len);
		}
		rsp_send();
	}
}

static void __attribute__((noreturn)) serve_loop(void)
{
	if (fw_uart_link()) {
		uart_loop(link_cfg);
	}
	mbox_loop(link_cfg);
}

void fw_link_run(const fw_link_config *cfg)
{
	link_cfg = cfg;
	fw_rsp = cfg->rsp_buf;
	fw_puts(cfg->name);
	if (fw_uart_link()) {
		fw_puts(": serving the UART link, bit time ");
		fw_puthex(fw_uart_div());
		fw_puts(" cycles\n");
	} else {
		fw_puts(": serving the host mailbox\n");
	}
	serve_loop();
}

/* From crt0.S on any exception, with a fresh stack. */
void __attribute__((noreturn)) fw_trap(uint32_t mcause, uint32_t mepc,
	uint32_t mtval)
{
	if (link_cfg == NULL) {
		/* before fw_link_run: nobody to answer */
		fw_puts("fw: trap before the link runs\n");
		for (;;) {
		}
	}
	fw_puts(link_cfg->name);
	fw_puts(": trap mcause=");
	fw_puthex(mcause);
	fw_puts(" mepc=");
	fw_puthex(mepc);
	fw_puts(" mtval=");
	fw_puthex(mtval);
	fw_puts("\n");
	if (link_cfg->on_trap != NULL) {
		link_cfg->on_trap();
	}
	rsp_begin(cur_op, cur_seq);
	fw_rsp_status(FA_SOC_ST_TRAP);
	fw_rsp_put32(FA_SOC_RSP_LIBRC_OFF, mepc);
	fw_rsp_put64(FA_SOC_RSP_AUX_OFF, mcause);
	rsp_send();
	serve_loop();
}
