/*
 * fw_link.c -- the host link every SoC firmware shares (see fw_link.h).
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

static void __attribute__((noreturn)) serve_loop(void)
{
	const fw_link_config *cfg = link_cfg;

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

void fw_link_run(const fw_link_config *cfg)
{
	link_cfg = cfg;
	fw_rsp = cfg->rsp_buf;
	fw_puts(cfg->name);
	fw_puts(": serving the host mailbox\n");
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
