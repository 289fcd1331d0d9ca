/*
 * fido2_main.c -- the FIDO2 security key as SoC firmware: the src/fido2
 * core (fido2_soc_dev.c) behind the host mailbox (fw/soc_proto.h framing,
 * op FA_SOC_OP_FIDO2 of fw/fido2_soc.h: one CTAPHID report in, the reports
 * to send back out). Falcon runs through the library on the kernel table
 * the request's mode selects (fw_accel.c; the bridge asks for dma). The
 * credential store is the page store on the RAM region that stands for
 * flash (fw/fido2_link.ld keeps the image out of it). User presence is
 * approved automatically (no button). Every CTAP command's mcycle count is
 * in its reply and on the console. Malformed requests are answered with an
 * error status, a CPU exception with TRAP; the loop keeps serving.
 */
#include <string.h>

#include "falcon_accel.h"
#include "fido2_soc.h"
#include "fw_accel.h"
#include "fw_hal.h"
#include "soc_proto.h"

#define REQ_MAX 512u   /* header + entropy + one report, with room */

static uint8_t req_buf[REQ_MAX] __attribute__((aligned(8)));
static uint8_t rsp_buf[FA_SOC_RSP_HDR + 4 + FIDO2_SOC_OUT_MAX] __attribute__((aligned(8)));
static uint8_t tmp_buf[FIDO2_TMP_SIZE] __attribute__((aligned(8)));
static fido2_soc_dev dev;
static unsigned dev_mode = ~0u;   /* the kernel table the device was set up with */

static volatile uint32_t cur_op, cur_seq;
static uint32_t rsp_len;

static void put64(uint8_t *p, uint64_t v)
{
	fa_soc_put32(p, (uint32_t)v);
	fa_soc_put32(p + 4, (uint32_t)(v >> 32));
}

static void rsp_begin(uint32_t op, uint32_t seq)
{
	memset(rsp_buf, 0, FA_SOC_RSP_HDR);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_MAGIC_OFF, FA_SOC_RSP_MAGIC);
	rsp_buf[FA_SOC_RSP_OP_OFF] = (uint8_t)op;
	rsp_buf[FA_SOC_RSP_OP_OFF + 1] = (uint8_t)(op >> 8);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_SEQ_OFF, seq);
	rsp_len = FA_SOC_RSP_HDR;
}

static void rsp_status(unsigned st)
{
	rsp_buf[FA_SOC_RSP_STATUS_OFF] = (uint8_t)st;
	rsp_buf[FA_SOC_RSP_STATUS_OFF + 1] = 0;
}

static void rsp_send(void)
{
	while (mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_STATUS) & 1u) {
	}
	memcpy((void *)(uintptr_t)(FA_SOC_MBOX_BUF_BASE + 0x8000u), rsp_buf,
		(rsp_len + 3u) & ~3u);
	mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_LEN, rsp_len);
	mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_SEND, 1);
}

/* Simulated time at 100 MHz. */
static uint32_t soc_now_ms(void *user)
{
	(void)user;
	return (uint32_t)(fw_cycles() / 100000u);
}

static void log_cmd(int cmd, unsigned status, uint64_t cycles, const fw_stats *s)
{
	fw_puts("fido2: ");
	fw_puts(fido2_soc_cmd_name(cmd));
	fw_puts(" cmd=");
	fw_puthex((uint32_t)cmd);
	fw_puts(" status=");
	fw_puthex(status);
	fw_puts(" mcycle=");
	if ((cycles >> 32) != 0) {
		fw_puthex((uint32_t)(cycles >> 32));
		fw_puts(":");
	}
	fw_puthex((uint32_t)cycles);
	fw_puts(" accel=");
	fw_puthex(s->acc_compute);
	fw_puts(" kcalls=");
	fw_puthex(s->kcalls);
	fw_puts("\n");
}

/* One CTAPHID report: fields entropy (FIDO2_SOC_ENTROPY), report (64). */
static void serve_fido2(uint32_t len, unsigned mode)
{
	const uint8_t *p = req_buf + FA_SOC_REQ_HDR;
	uint32_t n = len - FA_SOC_REQ_HDR, out_len = 0;
	const fa_backend *be;
	fw_stats stats;
	uint64_t t0, t1;

	if (n != 4 + FIDO2_SOC_ENTROPY + 4 + 64
		|| fa_soc_get32(p) != FIDO2_SOC_ENTROPY
		|| fa_soc_get32(p + 4 + FIDO2_SOC_ENTROPY) != 64)
	{
		rsp_status(FA_SOC_ST_BAD_LENGTH);
		return;
	}
	be = fw_backend(mode);
	if (be == NULL) {
		rsp_status(FA_SOC_ST_BAD_MODE);
		return;
	}
	if (mode != dev_mode) {
		if (dev_mode != ~0u) {
			/* the kernel table is fixed once the device runs */
			rsp_status(FA_SOC_ST_BAD_MODE);
			return;
		}
		fido2_soc_dev_setup(&dev, be,
			(uint8_t *)(uintptr_t)FIDO2_SOC_FLASH_BASE, tmp_buf, soc_now_ms, NULL);
		dev_mode = mode;
	}
	fw_stats_begin();
	t0 = fw_cycles();
	if (fido2_soc_dev_report(&dev, p + 4, FIDO2_SOC_ENTROPY,
		p + 4 + FIDO2_SOC_ENTROPY + 4, rsp_buf + FA_SOC_RSP_HDR + 4,
		&out_len) != 0)
	{
		fw_puts("fido2: the flash store cannot be mounted\n");
		rsp_status(FA_SOC_ST_LIB_ERROR);
		return;
	}
	t1 = fw_cycles();
	fw_stats_end(&stats);
	if (dev.out_dropped != 0) {
		fw_puts("fido2: reply reports dropped: ");
		fw_puthex(dev.out_dropped);
		fw_puts("\n");
	}
	fa_soc_put32(rsp_buf + FA_SOC_RSP_HDR, out_len);
	rsp_len = FA_SOC_RSP_HDR + 4 + out_len;
	put64(rsp_buf + FA_SOC_RSP_CYCLES_OFF, t1 - t0);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_ACC_OFF, stats.acc_compute);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_BUS_OFF, stats.acc_bus);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_DMA_OFF, stats.dma);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_KCALLS_OFF, stats.kcalls);
	if (dev.ctap_cmd >= 0) {
		put64(rsp_buf + FA_SOC_RSP_AUX_OFF, (uint64_t)dev.ctap_cmd + 1u);
		fa_soc_put32(rsp_buf + FA_SOC_RSP_LIBRC_OFF, dev.ctap_status);
		log_cmd(dev.ctap_cmd, dev.ctap_status, t1 - t0, &stats);
	}
	/* an accelerator failure shows in the counters; the CTAP answer
	   (already computed, with the library's fallback) stands */
	rsp_status(FA_SOC_ST_OK);
}

static void serve(uint32_t len)
{
	uint32_t op, seq;

	if (len < FA_SOC_REQ_HDR) {
		rsp_begin(0, 0);
		rsp_status(FA_SOC_ST_BAD_LENGTH);
		return;
	}
	op = (uint32_t)req_buf[4] | ((uint32_t)req_buf[5] << 8);
	seq = fa_soc_get32(req_buf + 8);
	cur_op = op;
	cur_seq = seq;
	rsp_begin(op, seq);
	if (fa_soc_get32(req_buf) != FA_SOC_REQ_MAGIC) {
		rsp_status(FA_SOC_ST_BAD_MAGIC);
		return;
	}
	if (op == FA_SOC_OP_PING) {
		uint8_t info[12];

		if (len != FA_SOC_REQ_HDR) {
			rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		fa_soc_put32(info, mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_ID));
		fa_soc_put32(info + 4, mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_CONFIG));
		fa_soc_put32(info + 8, mmio_rd(FA_SOC_ACCEL_BASE));
		rsp_status(FA_SOC_ST_OK);
		fa_soc_put32(rsp_buf + rsp_len, sizeof info);
		memcpy(rsp_buf + rsp_len + 4, info, sizeof info);
		rsp_len += 4 + sizeof info;
		return;
	}
	if (op != FA_SOC_OP_FIDO2) {
		rsp_status(FA_SOC_ST_BAD_OP);
		return;
	}
	serve_fido2(len, req_buf[7]);
}

static void __attribute__((noreturn)) serve_loop(void)
{
	for (;;) {
		uint32_t len;

		while ((mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_STATUS) & 1u) == 0) {
		}
		len = mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_LEN);
		cur_op = 0;
		cur_seq = 0;
		if (len > REQ_MAX) {
			mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_ACK, 1);
			rsp_begin(0, 0);
			rsp_status(FA_SOC_ST_BAD_LENGTH);
		} else {
			memcpy(req_buf, (const void *)(uintptr_t)FA_SOC_MBOX_BUF_BASE,
				(len + 3u) & ~3u);
			mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_ACK, 1);
			serve(len);
		}
		rsp_send();
	}
}

/* From crt0.S on any exception, with a fresh stack. The CTAPHID state of
   the interrupted message is dropped (the device restarts its channel
   state at the next report); the flash store is as the last completed
   write left it. */
void __attribute__((noreturn)) fw_trap(uint32_t mcause, uint32_t mepc,
	uint32_t mtval)
{
	fw_puts("fido2: trap mcause=");
	fw_puthex(mcause);
	fw_puts(" mepc=");
	fw_puthex(mepc);
	fw_puts(" mtval=");
	fw_puthex(mtval);
	fw_puts("\n");
	dev.started = 0;
	rsp_begin(cur_op, cur_seq);
	rsp_status(FA_SOC_ST_TRAP);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_LIBRC_OFF, mepc);
	put64(rsp_buf + FA_SOC_RSP_AUX_OFF, mcause);
	rsp_send();
	serve_loop();
}

void fw_main(void)
{
	fw_puts("falcon-accel SoC FIDO2 firmware: CTAPHID reports over the mailbox\n");
	serve_loop();
}
