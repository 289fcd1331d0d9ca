/*
 * backend_rtl.c -- the "rtl" kernel table: FFT, iFFT, NTT, iNTT, the
 * pointwise NTT product and the FFT-domain vector ops (add, sub, neg, adj,
 * mul, muladj, mulselfadj, mulconst) run on the falcon-accel RTL through
 * the register-level driver; every other slot is the portable kernel.
 *
 * Transport: the Verilated model by default; FALCON_ACCEL_RTL_TRANSPORT =
 * "uio:/dev/uioN" or "mem:0xADDR" (/dev/mem) selects a memory-mapped
 * device instead (untested on a board). A device error makes the call
 * fall back to the portable kernel on the original input (results stay
 * correct) and counts it in fa_rtl_errors.
 *
 * Thread-safe: one device (or model) is shared by every caller, so each
 * device call -- opening the transport, loading the operands, running the
 * kernel, reading the result back, updating the statistics -- holds one
 * process-wide mutex (g_lock). Calls from several threads are serialised
 * on the device; a thread that falls back to the portable kernel does so
 * outside the lock. (This file is built only on hosted systems with
 * Verilator; the core library stays free of threads.)
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "inner.h"
#include "fa_rtl.h"
#include "fa_rtl_regs.h"

/* g_lock guards everything below it and every use of the transport. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static fa_rtl_transport g_tr;
static int g_state;                /* 0 = not opened, 1 = ok, -1 = failed */
static fa_rtl_kstat g_stats[FA_RTL_K_COUNT];
unsigned long fa_rtl_errors;       /* written under g_lock */

const char *const fa_rtl_kernel_names[FA_RTL_K_COUNT] = {
	"fft", "ifft", "mq_ntt", "mq_intt", "mq_poly_mul_ntt", "poly_add",
	"poly_sub", "poly_neg", "poly_adj_fft", "poly_mul_fft",
	"poly_muladj_fft", "poly_mulselfadj_fft", "poly_mulconst"
};

void fa_rtl_stats(fa_rtl_kstat out[FA_RTL_K_COUNT])
{
	pthread_mutex_lock(&g_lock);
	memcpy(out, g_stats, sizeof g_stats);
	pthread_mutex_unlock(&g_lock);
}

void fa_rtl_stats_reset(void)
{
	pthread_mutex_lock(&g_lock);
	memset(g_stats, 0, sizeof g_stats);
	pthread_mutex_unlock(&g_lock);
}

/* The opened transport, or NULL when it cannot be used. Caller holds
   g_lock. */
static fa_rtl_transport *transport(void)
{
	const char *e;

	if (g_state == 0) {
		e = getenv("FALCON_ACCEL_RTL_TRANSPORT");
		if (e != NULL && strncmp(e, "uio:", 4) == 0) {
			g_state = fa_rtl_uio_open(&g_tr, e + 4, 0) == 0 ? 1 : -1;
		} else if (e != NULL && strncmp(e, "mem:", 4) == 0) {
			g_state = fa_rtl_uio_open(&g_tr, "/dev/mem",
				strtoull(e + 4, NULL, 0)) == 0 ? 1 : -1;
		} else {
			g_state = fa_rtl_sim_open(&g_tr) == 0 ? 1 : -1;
		}
		if (g_state == 1) {
			uint32_t id = 0;
			if (g_tr.rd(g_tr.ctx, FA_RTL_REG_ID, &id) != 0
				|| id != FA_RTL_ID_VALUE)
			{
				g_state = -1;
			}
		}
	}
	return g_state == 1 ? &g_tr : NULL;
}

static int rtl_available(void)
{
	int ok;

	pthread_mutex_lock(&g_lock);
	ok = transport() != NULL;
	pthread_mutex_unlock(&g_lock);
	return ok;
}

/*
 * Smallest degree sent to the device (FA_RTL_MIN_LOGN, default 6). Below
 * it the bus transfer costs more than the kernel, on a board as in
 * simulation, so the portable kernel runs instead (the backend "may fall
 * back", as every backend). Tests set FA_RTL_MIN_LOGN=1 to put every size
 * on the device. Caller holds g_lock (the cache is shared).
 */
static unsigned min_logn(void)
{
	static unsigned cached;

	if (cached == 0) {
		const char *e = getenv("FA_RTL_MIN_LOGN");
		long v = e != NULL ? strtol(e, NULL, 10) : 6;

		cached = (v >= 1 && v <= 10) ? (unsigned)v : 6;
	}
	return cached;
}

static int ok_logn(unsigned logn)
{
	return logn >= min_logn() && logn <= 10;
}

/* Run an fpr op on the device; 0 on success (a updated). Caller holds
   g_lock. */
static int fpr_op_locked(unsigned kid, unsigned op, fpr *a, const fpr *b,
	fpr c, unsigned logn)
{
	fa_rtl_transport *t = transport();
	uint64_t av[1024], bv[1024];
	size_t n = (size_t)1 << logn;

	if (t == NULL || !ok_logn(logn)) {
		return -1;
	}
	memcpy(av, a, n * sizeof(fpr));
	if (b != NULL) {
		memcpy(bv, b, n * sizeof(fpr));
	}
	if (fa_rtl_drv_fpr_op(t, op, av, b != NULL ? bv : NULL,
		fpr_bits(c), logn, &g_stats[kid]) != 0)
	{
		fa_rtl_errors ++;
		return -1;
	}
	memcpy(a, av, n * sizeof(fpr));
	return 0;
}

static int fpr_op(unsigned kid, unsigned op, fpr *a, const fpr *b, fpr c,
	unsigned logn)
{
	int r;

	pthread_mutex_lock(&g_lock);
	r = fpr_op_locked(kid, op, a, b, c, logn);
	pthread_mutex_unlock(&g_lock);
	return r;
}

/* Run an mq op on the device; 0 on success (a updated). Caller holds
   g_lock. */
static int mq_op_locked(unsigned kid, unsigned op, uint16_t *a,
	const uint16_t *b, unsigned logn)
{
	fa_rtl_transport *t = transport();

	if (t == NULL || !ok_logn(logn)) {
		return -1;
	}
	if (fa_rtl_drv_mq_op(t, op, a, b, logn, &g_stats[kid]) != 0) {
		fa_rtl_errors ++;
		return -1;
	}
	return 0;
}

static int mq_op(unsigned kid, unsigned op, uint16_t *a, const uint16_t *b,
	unsigned logn)
{
	int r;

	pthread_mutex_lock(&g_lock);
	r = mq_op_locked(kid, op, a, b, logn);
	pthread_mutex_unlock(&g_lock);
	return r;
}

static void rtl_fft(fpr *f, unsigned logn)
{
	if (fpr_op(FA_RTL_K_FFT, FA_RTL_OP_FFT, f, NULL, FPR_ZERO, logn) != 0) {
		fa_fft_portable(f, logn);
	}
}

static void rtl_ifft(fpr *f, unsigned logn)
{
	if (fpr_op(FA_RTL_K_IFFT, FA_RTL_OP_IFFT, f, NULL, FPR_ZERO, logn) != 0) {
		fa_ifft_portable(f, logn);
	}
}

static void rtl_add(fpr *a, const fpr *b, unsigned logn)
{
	if (fpr_op(FA_RTL_K_ADD, FA_RTL_OP_VADD, a, b, FPR_ZERO, logn) != 0) {
		fa_poly_add_portable(a, b, logn);
	}
}

static void rtl_sub(fpr *a, const fpr *b, unsigned logn)
{
	if (fpr_op(FA_RTL_K_SUB, FA_RTL_OP_VSUB, a, b, FPR_ZERO, logn) != 0) {
		fa_poly_sub_portable(a, b, logn);
	}
}

static void rtl_neg(fpr *a, unsigned logn)
{
	if (fpr_op(FA_RTL_K_NEG, FA_RTL_OP_VNEG, a, NULL, FPR_ZERO, logn) != 0) {
		fa_poly_neg_portable(a, logn);
	}
}

static void rtl_adj(fpr *a, unsigned logn)
{
	if (fpr_op(FA_RTL_K_ADJ, FA_RTL_OP_VADJ, a, NULL, FPR_ZERO, logn) != 0) {
		fa_poly_adj_fft_portable(a, logn);
	}
}

static void rtl_mul(fpr *a, const fpr *b, unsigned logn)
{
	if (fpr_op(FA_RTL_K_MUL, FA_RTL_OP_VMUL, a, b, FPR_ZERO, logn) != 0) {
		fa_poly_mul_fft_portable(a, b, logn);
	}
}

static void rtl_muladj(fpr *a, const fpr *b, unsigned logn)
{
	if (fpr_op(FA_RTL_K_MULADJ, FA_RTL_OP_VMULADJ, a, b, FPR_ZERO, logn) != 0) {
		fa_poly_muladj_fft_portable(a, b, logn);
	}
}

static void rtl_mulselfadj(fpr *a, unsigned logn)
{
	if (fpr_op(FA_RTL_K_MULSELFADJ, FA_RTL_OP_VMULSELFADJ, a, NULL,
		FPR_ZERO, logn) != 0)
	{
		fa_poly_mulselfadj_fft_portable(a, logn);
	}
}

static void rtl_mulconst(fpr *a, fpr x, unsigned logn)
{
	if (fpr_op(FA_RTL_K_MULCONST, FA_RTL_OP_VMULCONST, a, NULL, x, logn) != 0) {
		fa_poly_mulconst_portable(a, x, logn);
	}
}

static void rtl_ntt(uint16_t *a, unsigned logn)
{
	if (mq_op(FA_RTL_K_NTT, FA_RTL_OP_NTT, a, NULL, logn) != 0) {
		fa_mq_ntt_portable(a, logn);
	}
}

static void rtl_intt(uint16_t *a, unsigned logn)
{
	if (mq_op(FA_RTL_K_INTT, FA_RTL_OP_INTT, a, NULL, logn) != 0) {
		fa_mq_intt_portable(a, logn);
	}
}

static void rtl_ntt_mul(uint16_t *a, const uint16_t *b, unsigned logn)
{
	if (mq_op(FA_RTL_K_NTT_MUL, FA_RTL_OP_NTT_MUL, a, b, logn) != 0) {
		fa_mq_poly_mul_ntt_portable(a, b, logn);
	}
}

const struct fa_kernels fa_backend_rtl = {
	.name = "rtl",
	.available = rtl_available,
	.simulated = 1,
	.fft = rtl_fft,
	.ifft = rtl_ifft,
	.poly_add = rtl_add,
	.poly_sub = rtl_sub,
	.poly_neg = rtl_neg,
	.poly_adj_fft = rtl_adj,
	.poly_mul_fft = rtl_mul,
	.poly_muladj_fft = rtl_muladj,
	.poly_mulselfadj_fft = rtl_mulselfadj,
	.poly_mulconst = rtl_mulconst,
	.poly_div_fft = fa_poly_div_fft_portable,
	.poly_invnorm2_fft = fa_poly_invnorm2_fft_portable,
	.poly_mul_autoadj_fft = fa_poly_mul_autoadj_fft_portable,
	.poly_div_autoadj_fft = fa_poly_div_autoadj_fft_portable,
	.poly_LDL_fft = fa_poly_LDL_fft_portable,
	.poly_LDLmv_fft = fa_poly_LDLmv_fft_portable,
	.poly_split_fft = fa_poly_split_fft_portable,
	.poly_merge_fft = fa_poly_merge_fft_portable,
	.mq_ntt = rtl_ntt,
	.mq_intt = rtl_intt,
	.mq_poly_mul_ntt = rtl_ntt_mul,
	.samplerz = fa_samplerz_portable,
	.samplerz_pair = fa_samplerz_pair_portable,
	.prng_refill = fa_prng_refill_portable,
};
