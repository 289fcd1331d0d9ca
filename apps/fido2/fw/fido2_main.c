/*
 * fido2_main.c -- the FIDO2 security key as SoC firmware: the apps/fido2/core
 * core (fido2_soc_dev.c) behind the host mailbox (soc/fw/soc_proto.h framing,
 * op FA_SOC_OP_FIDO2 of apps/fido2/fw/fido2_soc.h: one CTAPHID report in, the reports
 * to send back out). Falcon runs through the library on the kernel table
 * the request's mode selects (fw_accel.c; the bridge asks for dma). The
 * credential store is the page store on the RAM region that stands for
 * flash, the expanded-key cache on the persistent region below it
 * (apps/fido2/fw/fido2_link.ld keeps the image out of both). User presence is
 * approved automatically (no button). Every CTAP command's mcycle count is
 * in its reply and on the console. Malformed requests are answered with an
 * error status, a CPU exception with TRAP; the loop keeps serving.
 */
#include <string.h>

#include "falcon_accel.h"
#include "fido2_soc.h"
#include "fw_accel.h"
#include "fw_hal.h"
#include "fw_link.h"
#include "soc_proto.h"

#define REQ_MAX 512u   /* header + entropy + one report, with room */

static uint8_t req_buf[REQ_MAX] __attribute__((aligned(8)));
static uint8_t rsp_buf[FA_SOC_RSP_HDR + 4 + FIDO2_SOC_OUT_MAX] __attribute__((aligned(8)));
static uint8_t tmp_buf[FIDO2_TMP_SIZE] __attribute__((aligned(8)));
static fido2_soc_dev dev;
/* The expanded keys of the last credentials that signed (the core's
   expanded-key cache) live in the persistent region at FIDO2_SOC_EK_BASE
   (apps/fido2/fw/fido2_link.ld keeps the image out of it): an assertion with one of
   them signs with fa_sign_tree, after a power-up too, and in the
   accelerator modes the tree the ffSampling engine holds stays there
   across requests until a slot changes. */
#define ek_buf ((uint8_t *)(uintptr_t)FIDO2_SOC_EK_BASE)
static unsigned dev_mode = ~0u;   /* the kernel table the device was set up with */

static void ek_changed(void *user)
{
	(void)user;
	fw_accel_forget_tree();
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
static void serve_fido2(const fw_request *rq)
{
	const uint8_t *p = rq->body;
	uint32_t n = rq->body_len, out_len = 0;
	unsigned mode = rq->mode;
	const fa_backend *be;
	fw_stats stats;
	uint64_t t0, t1;

	if (n != 4 + FIDO2_SOC_ENTROPY + 4 + 64
		|| fa_soc_get32(p) != FIDO2_SOC_ENTROPY
		|| fa_soc_get32(p + 4 + FIDO2_SOC_ENTROPY) != 64)
	{
		fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
		return;
	}
	be = fw_backend(mode);
	if (be == NULL) {
		fw_rsp_status(FA_SOC_ST_BAD_MODE);
		return;
	}
	if (mode != dev_mode) {
		if (dev_mode != ~0u) {
			/* the kernel table is fixed once the device runs */
			fw_rsp_status(FA_SOC_ST_BAD_MODE);
			return;
		}
		fido2_soc_dev_setup(&dev, be,
			(uint8_t *)(uintptr_t)FIDO2_SOC_FLASH_BASE, tmp_buf, soc_now_ms, NULL);
		fido2_soc_dev_set_ek_cache(&dev, ek_buf, FIDO2_SOC_EK_SIZE,
			ek_changed, 1);
		fw_accel_keep_tree(1);
		dev_mode = mode;
	}
	fw_stats_begin();
	t0 = fw_cycles();
	if (fido2_soc_dev_report(&dev, p + 4, FIDO2_SOC_ENTROPY,
		p + 4 + FIDO2_SOC_ENTROPY + 4, rsp_buf + FA_SOC_RSP_HDR + 4,
		&out_len) != 0)
	{
		fw_puts("fido2: the flash store cannot be mounted: ");
		fw_puts(dev.fs.err != NULL ? dev.fs.err : "read or write error");
		fw_puts("\n");
		fw_rsp_status(FA_SOC_ST_LIB_ERROR);
		return;
	}
	t1 = fw_cycles();
	fw_stats_end(&stats);
	if (dev.out_dropped != 0) {
		fw_puts("fido2: reply reports dropped: ");
		fw_puthex(dev.out_dropped);
		fw_puts("\n");
	}
	/* the reports were written in place, as one reply field */
	fw_rsp_put32(FA_SOC_RSP_HDR, out_len);
	fw_rsp_len = FA_SOC_RSP_HDR + 4 + out_len;
	fw_rsp_put64(FA_SOC_RSP_CYCLES_OFF, t1 - t0);
	fw_rsp_put32(FA_SOC_RSP_ACC_OFF, stats.acc_compute);
	fw_rsp_put32(FA_SOC_RSP_BUS_OFF, stats.acc_bus);
	fw_rsp_put32(FA_SOC_RSP_DMA_OFF, stats.dma);
	fw_rsp_put32(FA_SOC_RSP_KCALLS_OFF, stats.kcalls);
	if (dev.ctap_cmd >= 0) {
		fw_rsp_put64(FA_SOC_RSP_AUX_OFF, (uint64_t)dev.ctap_cmd + 1u);
		fw_rsp_put32(FA_SOC_RSP_LIBRC_OFF, dev.ctap_status);
		log_cmd(dev.ctap_cmd, dev.ctap_status, t1 - t0, &stats);
	}
	/* an accelerator failure shows in the counters; the CTAP answer
	   (already computed, with the library's fallback) stands */
	fw_rsp_status(FA_SOC_ST_OK);
}

static void serve(const fw_request *rq)
{
	if (rq->op != FA_SOC_OP_FIDO2) {
		fw_rsp_status(FA_SOC_ST_BAD_OP);
		return;
	}
	serve_fido2(rq);
}

static uint32_t accel_id(void)
{
	return mmio_rd(FA_SOC_ACCEL_BASE);
}

/* On a CPU exception the CTAPHID state of the interrupted message is
   dropped (the device restarts its channel state at the next report); the
   flash store is as the last completed write left it. */
static void drop_message(void)
{
	dev.started = 0;
}

static const fw_link_config link = {
	.name = "fido2",
	.req_buf = req_buf,
	.req_max = sizeof req_buf,
	.rsp_buf = rsp_buf,
	.serve = serve,
	.ping_word = accel_id,
	.on_trap = drop_message,
};

void fw_main(void)
{
	fw_puts("falcon-accel SoC FIDO2 firmware: CTAPHID reports over the mailbox\n");
	fw_link_run(&link);
}
