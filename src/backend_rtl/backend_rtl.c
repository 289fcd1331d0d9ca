/*
 * backend_rtl.c -- the "rtl" kernel table: FFT, iFFT, NTT, iNTT, the
 * pointwise NTT product and the FFT-domain vector ops (add, sub, neg, adj,
 * mul, muladj, mulselfadj, mulconst) and SamplerZ (samplerz,
 * samplerz_pair: the SamplerZ unit, hw/sampler) and keccak_f1600 (the
 * Keccak unit, hw/keccak) run on the falcon-accel RTL
 * through the register-level driver; the other slots are NULL (the seam's
 * dispatcher runs the portable kernels, src/inner.h).
 *
 * Transport: the Verilated model by default; FALCON_ACCEL_RTL_TRANSPORT =
 * "uio:/dev/uioN" or "mem:0xADDR" (/dev/mem) selects a memory-mapped
 * device instead (untested on a board). A device error makes the kernel
 * return FA_KERNEL_FALLBACK with its operand untouched, so the dispatcher
 * runs the portable kernel on the original input (results stay correct);
 * the error is counted in fa_rtl_errors.
 *
 * Thread-safe: one device (or model) is shared by every caller, so each
 * device call -- opening the transport, loading the operands, running the
 * kernel, reading the result back, updating the statistics -- holds one
 * process-wide mutex (g_lock). Calls from several threads are serialised
 * on the device; the portable kernel that replaces a declined call runs
 * outside the lock. (This file is built only on hosted systems with
 * Verilator; the core library stays free of threads.)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inner.h"
#include "fa_rtl.h"
#include "fa_rtl_regs.h"
#include "rtl_sampling.h"

/* g_lock guards everything below it and every use of the transport. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static fa_rtl_transport g_tr;
static int g_state;                /* 0 = not opened, 1 = ok, -1 = failed */
static fa_rtl_kstat g_stats[FA_RTL_K_COUNT];
unsigned long fa_rtl_errors;       /* written under g_lock */

const char *const fa_rtl_kernel_names[FA_RTL_K_COUNT] = FA_RTL_KERNEL_NAMES_INIT;

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

/* Run an fpr op on the device: FA_KERNEL_DONE (a updated), or
   FA_KERNEL_FALLBACK (a untouched). Caller holds g_lock. */
static int fpr_op_locked(unsigned kid, unsigned op, fpr *a, const fpr *b,
	fpr c, unsigned logn)
{
	fa_rtl_transport *t = transport();
	uint64_t av[1024], bv[1024];
	size_t n = (size_t)1 << logn;

	if (t == NULL || !ok_logn(logn)) {
		return FA_KERNEL_FALLBACK;
	}
	memcpy(av, a, n * sizeof(fpr));
	if (b != NULL) {
		memcpy(bv, b, n * sizeof(fpr));
	}
	if (fa_rtl_drv_fpr_op(t, op, av, b != NULL ? bv : NULL,
		fpr_bits(c), logn, &g_stats[kid]) != 0)
	{
		fa_rtl_errors ++;
		return FA_KERNEL_FALLBACK;
	}
	memcpy(a, av, n * sizeof(fpr));
	return FA_KERNEL_DONE;
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

/* Run an mq op on the device: FA_KERNEL_DONE (a updated), or
   FA_KERNEL_FALLBACK (a untouched: the driver writes a only after the
   whole result was read back). Caller holds g_lock. */
static int mq_op_locked(unsigned kid, unsigned op, uint16_t *a,
	const uint16_t *b, unsigned logn)
{
	fa_rtl_transport *t = transport();

	if (t == NULL || !ok_logn(logn)) {
		return FA_KERNEL_FALLBACK;
	}
	if (fa_rtl_drv_mq_op(t, op, a, b, logn, &g_stats[kid]) != 0) {
		fa_rtl_errors ++;
		return FA_KERNEL_FALLBACK;
	}
	return FA_KERNEL_DONE;
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

/*
 * The slots the device runs. Each kernel returns fpr_op's / mq_op's
 * status: FA_KERNEL_DONE when the device computed the result,
 * FA_KERNEL_FALLBACK (a untouched) below FA_RTL_MIN_LOGN, without a
 * device, or on a device error; the seam's dispatcher then runs the
 * portable kernel. The slots not listed stay NULL (portable).
 */
#define RTL_FPR_UNARY(fn, kid, op) \
	static int fn(fpr *a, unsigned logn) \
	{ \
		return fpr_op(kid, op, a, NULL, FPR_ZERO, logn); \
	}
#define RTL_FPR_BINARY(fn, kid, op) \
	static int fn(fpr *a, const fpr *b, unsigned logn) \
	{ \
		return fpr_op(kid, op, a, b, FPR_ZERO, logn); \
	}

RTL_FPR_UNARY(rtl_fft, FA_RTL_K_FFT, FA_RTL_OP_FFT)
RTL_FPR_UNARY(rtl_ifft, FA_RTL_K_IFFT, FA_RTL_OP_IFFT)
RTL_FPR_UNARY(rtl_neg, FA_RTL_K_NEG, FA_RTL_OP_VNEG)
RTL_FPR_UNARY(rtl_adj, FA_RTL_K_ADJ, FA_RTL_OP_VADJ)
RTL_FPR_UNARY(rtl_mulselfadj, FA_RTL_K_MULSELFADJ, FA_RTL_OP_VMULSELFADJ)
RTL_FPR_BINARY(rtl_add, FA_RTL_K_ADD, FA_RTL_OP_VADD)
RTL_FPR_BINARY(rtl_sub, FA_RTL_K_SUB, FA_RTL_OP_VSUB)
RTL_FPR_BINARY(rtl_mul, FA_RTL_K_MUL, FA_RTL_OP_VMUL)
RTL_FPR_BINARY(rtl_muladj, FA_RTL_K_MULADJ, FA_RTL_OP_VMULADJ)

static int rtl_mulconst(fpr *a, fpr x, unsigned logn)
{
	return fpr_op(FA_RTL_K_MULCONST, FA_RTL_OP_VMULCONST, a, NULL, x, logn);
}

static int rtl_ntt(uint16_t *a, unsigned logn)
{
	return mq_op(FA_RTL_K_NTT, FA_RTL_OP_NTT, a, NULL, logn);
}

static int rtl_intt(uint16_t *a, unsigned logn)
{
	return mq_op(FA_RTL_K_INTT, FA_RTL_OP_INTT, a, NULL, logn);
}

static int rtl_ntt_mul(uint16_t *a, const uint16_t *b, unsigned logn)
{
	return mq_op(FA_RTL_K_NTT_MUL, FA_RTL_OP_NTT_MUL, a, b, logn);
}

/* a = iNTT(NTT(a) o b) in one device call (a resident between the ops);
   the driver writes a only after the whole result was read back. */
static int rtl_mul_by_ntt(uint16_t *a, const uint16_t *b, unsigned logn)
{
	fa_rtl_transport *t;
	int r = FA_KERNEL_FALLBACK;

	pthread_mutex_lock(&g_lock);
	t = transport();
	if (t != NULL && ok_logn(logn)) {
		if (fa_rtl_drv_mq_mul_by_ntt(t, a, b, logn,
			&g_stats[FA_RTL_K_MQ_MUL_BY_NTT]) == 0)
		{
			r = FA_KERNEL_DONE;
		} else {
			fa_rtl_errors ++;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return r;
}

/*
 * Keccak-f[1600] on the device's Keccak unit (hw/keccak), when the device
 * has one (CONFIG.KECCAK; the Verilated model is built with it): the
 * state goes in, is permuted, comes back (fa_rtl_drv_keccak_f1600). No
 * device, no unit or a device error: FA_KERNEL_FALLBACK, st untouched.
 */
static int g_keccak = -1;          /* CONFIG.KECCAK, read once; g_lock */

static int rtl_keccak_f1600(uint64_t *st)
{
	fa_rtl_transport *t;
	uint64_t a[25];
	int r = FA_KERNEL_FALLBACK;

	pthread_mutex_lock(&g_lock);
	t = transport();
	if (t != NULL && g_keccak < 0) {
		g_keccak = fa_rtl_drv_keccak_present(t);
	}
	if (t != NULL && g_keccak == 1) {
		memcpy(a, st, sizeof a);
		if (fa_rtl_drv_keccak_f1600(t, a, &g_stats[FA_RTL_K_KECCAK]) == 0) {
			memcpy(st, a, sizeof a);
			r = FA_KERNEL_DONE;
		} else {
			fa_rtl_errors ++;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return r;
}

/*
 * The version-2 expanded-key checksum on the device's checksum unit
 * (hw/eksum, CONFIG.EKSUM): the words are streamed through the lanes, the
 * library folds them (fa_ek_checksum32_fold). Word counts that are not a
 * multiple of 8 (never an expanded key's), no device, no unit or a device
 * error: FA_KERNEL_FALLBACK, *c untouched.
 */
static int g_eksum = -1;           /* CONFIG.EKSUM, read once; g_lock */

static int rtl_ek_checksum32(uint32_t *c, const uint32_t *w, size_t nw,
	unsigned logn)
{
	fa_rtl_transport *t;
	uint32_t h[8];
	int r = FA_KERNEL_FALLBACK;

	if (nw == 0 || (nw & 7) != 0) {
		return r;
	}
	pthread_mutex_lock(&g_lock);
	t = transport();
	if (t != NULL && g_eksum < 0) {
		g_eksum = fa_rtl_drv_eksum_present(t);
	}
	if (t != NULL && g_eksum == 1) {
		if (fa_rtl_drv_eksum_lanes(t, w, nw, logn, h,
			&g_stats[FA_RTL_K_EKSUM]) == 0)
		{
			*c = fa_ek_checksum32_fold(h, nw);
			r = FA_KERNEL_DONE;
		} else {
			fa_rtl_errors ++;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return r;
}

/*
 * SamplerZ on the device (rtl_sampling.c, shared with the SoC firmware):
 * the unit holds a copy of the sampler PRNG; g_prng mirrors which fa_prng
 * state the device holds, so a run of samples on one ctx loads it once
 * (SZ_LOAD), and after each sample ctx's fa_prng is brought to the
 * device's state, so that any later portable call on ctx reads the same
 * bytes as the device. On a device error nothing of ctx is written
 * (FA_KERNEL_FALLBACK) and the mirror is forgotten.
 */
static fa_rtl_prng_mirror g_prng;

static fa_rtl_sampling_stats *sampling_stats(void)
{
	static fa_rtl_sampling_stats s = {
		&g_stats[FA_RTL_K_SAMPLERZ], &g_stats[FA_RTL_K_SZ_LOAD],
		&g_stats[FA_RTL_K_FFSAMPLING]
	};

	return &s;
}

/*
 * The SamplerZ slots run on the device only when enabled: FA_RTL_SAMPLERZ=1
 * in the environment, or fa_rtl_samplerz_force(1). Off by default: one
 * sample is ~30 bus accesses around a ~300-cycle computation, so on a bus
 * (and much more in co-simulation, ~30 ms per sample here) the round trip
 * costs more than the portable sampler; the device sampler pays once the
 * ffSampling engine calls it without the host (hw/sampler/doc). Caller
 * holds g_lock.
 */
static int g_sz_force = -1;

void fa_rtl_samplerz_force(int on)
{
	pthread_mutex_lock(&g_lock);
	g_sz_force = on < 0 ? -1 : on != 0;
	pthread_mutex_unlock(&g_lock);
}

static int sz_enabled(void)
{
	static int env = -1;

	if (g_sz_force >= 0) {
		return g_sz_force;
	}
	if (env < 0) {
		const char *e = getenv("FA_RTL_SAMPLERZ");

		env = e != NULL && strcmp(e, "1") == 0;
	}
	return env;
}

static int rtl_samplerz(fa_sampler_ctx *ctx, int *z, fpr mu, fpr isigma)
{
	fa_rtl_transport *t;
	int r = FA_KERNEL_FALLBACK;

	pthread_mutex_lock(&g_lock);
	t = transport();
	if (sz_enabled() && t != NULL && ctx->p.ptr < sizeof ctx->p.buf) {
		if (fa_rtl_samplerz_ctx(t, &g_prng, sampling_stats(), ctx, z,
			mu, isigma) == 0)
		{
			r = FA_KERNEL_DONE;
		} else {
			fa_rtl_errors ++;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return r;
}

/* A refill of the sampler PRNG on the device (fa_rtl_prng_refill: its
   ChaCha20 fills the buffer, which is read back), under the same switch
   as the SamplerZ slots: the device then holds the state, so a SamplerZ
   or ffSampling call that follows needs no SZ_LOAD. */
static int rtl_prng_refill(fa_prng *p)
{
	fa_rtl_transport *t;
	int r = FA_KERNEL_FALLBACK;

	pthread_mutex_lock(&g_lock);
	t = transport();
	if (sz_enabled() && t != NULL) {
		if (fa_rtl_prng_refill(t, &g_prng, sampling_stats(), p) == 0) {
			r = FA_KERNEL_DONE;
		} else {
			fa_rtl_errors ++;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return r;
}

/* Both samples or neither: ctx is restored if the second one fails. */
static int rtl_samplerz_pair(fa_sampler_ctx *ctx, int *z, fpr mu0, fpr mu1,
	fpr isigma)
{
	fa_rtl_transport *t;
	int r = FA_KERNEL_FALLBACK;

	pthread_mutex_lock(&g_lock);
	t = transport();
	if (sz_enabled() && t != NULL && ctx->p.ptr < sizeof ctx->p.buf) {
		if (fa_rtl_samplerz_pair_ctx(t, &g_prng, sampling_stats(), ctx,
			z, mu0, mu1, isigma) == 0)
		{
			r = FA_KERNEL_DONE;
		} else {
			fa_rtl_errors ++;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return r;
}

/*
 * ffSampling on the device's engine (CONFIG.FFSAMP; hw/ffsamp): one
 * FFSAMPLING command per signature attempt. The tree is loaded once per
 * expanded key: the backend keeps a copy of the tree the device holds
 * (g_fs) and reloads it when the caller's differs (logn or any word).
 * The PRNG state goes in and out as for samplerz (rtl_sampling.c), so
 * the values and the bytes consumed are the portable kernel's. On any
 * device error nothing of z0, z1 or ctx is written (the portable kernel
 * then runs from the original state). Off with FA_RTL_FFSAMPLING=0;
 * degrees below FA_RTL_MIN_LOGN stay on the host, as for every slot.
 * FA_RTL_FS_TRACE=1 prints one line per command on stderr: the engine's
 * cycles (CYCLES), those spent waiting for SamplerZ (FS_SZ_CYCLES) and the
 * rest (vector work and recursion).
 */
static struct {
	int valid;
	unsigned logn;
	uint64_t tree[11u << 10];
} g_fs;

static int fs_enabled(fa_rtl_transport *t)
{
	static int env = -1, present = -1;

	if (env < 0) {
		const char *e = getenv("FA_RTL_FFSAMPLING");

		env = !(e != NULL && strcmp(e, "0") == 0);
	}
	if (present < 0) {
		present = fa_rtl_drv_fs_present(t);
	}
	return env && present;
}

/* FA_RTL_FS_TRACE=1: the cycle split of the command just run. Caller
   holds g_lock. */
static void fs_trace(fa_rtl_transport *t, unsigned logn)
{
	static int env = -1;
	uint32_t szc = 0, cyc = g_stats[FA_RTL_K_FFSAMPLING].last_cycles;

	if (env < 0) {
		const char *e = getenv("FA_RTL_FS_TRACE");

		env = e != NULL && strcmp(e, "1") == 0;
	}
	if (env && fa_rtl_drv_fs_sz_cycles(t, &szc) == 0) {
		fprintf(stderr, "rtl ffsampling logn %u: %lu cycles, %lu waiting "
			"for SamplerZ, %lu outside\n", logn, (unsigned long)cyc,
			(unsigned long)szc, (unsigned long)(cyc - szc));
	}
}

/* Caller holds g_lock. */
static int ffsampling_locked(fa_sampler_ctx *ctx, fpr *z0, fpr *z1,
	const fpr *tree, const fpr *t0, const fpr *t1, unsigned logn)
{
	fa_rtl_transport *t = transport();
	static uint64_t tv[2048], zv[2048];
	size_t n = (size_t)1 << logn, tsize = ((size_t)logn + 1) << logn;

	if (t == NULL || !ok_logn(logn) || !fs_enabled(t)
		|| ctx->p.ptr >= sizeof ctx->p.buf)
	{
		return FA_KERNEL_FALLBACK;
	}
	if (!g_fs.valid || g_fs.logn != logn
		|| memcmp(g_fs.tree, tree, tsize * sizeof(fpr)) != 0)
	{
		g_fs.valid = 0;
		memcpy(g_fs.tree, tree, tsize * sizeof(fpr));
		if (fa_rtl_drv_fs_tree(t, g_fs.tree, logn,
			&g_stats[FA_RTL_K_FS_TREE]) != 0)
		{
			fa_rtl_errors ++;
			return FA_KERNEL_FALLBACK;
		}
		g_fs.valid = 1;
		g_fs.logn = logn;
	}
	memcpy(tv, t0, n * sizeof(fpr));
	memcpy(tv + n, t1, n * sizeof(fpr));
	if (fa_rtl_ffsampling_ctx(t, &g_prng, sampling_stats(), ctx, tv, zv,
		logn, 0) != 0)
	{
		fa_rtl_errors ++;
		return FA_KERNEL_FALLBACK;
	}
	fs_trace(t, logn);
	memcpy(z0, zv, n * sizeof(fpr));
	memcpy(z1, zv + n, n * sizeof(fpr));
	return FA_KERNEL_DONE;
}

static int rtl_ffsampling(fa_sampler_ctx *ctx, fpr *z0, fpr *z1,
	const fpr *tree, const fpr *t0, const fpr *t1, unsigned logn, fpr *tmp)
{
	int r;

	(void)tmp;
	pthread_mutex_lock(&g_lock);
	r = ffsampling_locked(ctx, z0, z1, tree, t0, t1, logn);
	pthread_mutex_unlock(&g_lock);
	return r;
}

/*
 * ML-KEM slots on the NTT unit's q = 3329 mode (hw/ntt kem_engine; the
 * driver reduces the inputs and centres the outputs, so results are the
 * portable kernels' exactly). No device, no ML-KEM mode (CONFIG.MLKEM)
 * or a device error: FA_KERNEL_FALLBACK with nothing written.
 */
static int g_mlkem = -1;           /* CONFIG.MLKEM, read once; g_lock */

static fa_rtl_transport *kem_transport(void)
{
	fa_rtl_transport *t = transport();

	if (t != NULL && g_mlkem < 0) {
		g_mlkem = fa_rtl_drv_kem_present(t);
	}
	return (t != NULL && g_mlkem == 1) ? t : NULL;
}

static int rtl_mlkem_ntt(int16_t *a)
{
	fa_rtl_transport *t;
	int r = FA_KERNEL_FALLBACK;

	pthread_mutex_lock(&g_lock);
	t = kem_transport();
	if (t != NULL) {
		if (fa_rtl_drv_kem_ntt(t, a, &g_stats[FA_RTL_K_MLKEM_NTT]) == 0) {
			r = FA_KERNEL_DONE;
		} else {
			fa_rtl_errors ++;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return r;
}

static int rtl_mlkem_invntt(int16_t *a)
{
	fa_rtl_transport *t;
	int r = FA_KERNEL_FALLBACK;

	pthread_mutex_lock(&g_lock);
	t = kem_transport();
	if (t != NULL) {
		if (fa_rtl_drv_kem_invntt(t, a, &g_stats[FA_RTL_K_MLKEM_INVNTT]) == 0) {
			r = FA_KERNEL_DONE;
		} else {
			fa_rtl_errors ++;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return r;
}

static int rtl_mlkem_basemul_acc(int16_t *r, const int16_t *a,
	const int16_t *b, unsigned nk)
{
	fa_rtl_transport *t;
	int res = FA_KERNEL_FALLBACK;

	pthread_mutex_lock(&g_lock);
	t = kem_transport();
	if (t != NULL && nk >= 1 && nk <= 4) {
		if (fa_rtl_drv_kem_basemul_acc(t, r, a, b, nk,
			&g_stats[FA_RTL_K_MLKEM_BASEMUL]) == 0)
		{
			res = FA_KERNEL_DONE;
		} else {
			fa_rtl_errors ++;
		}
	}
	pthread_mutex_unlock(&g_lock);
	return res;
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
	.mq_ntt = rtl_ntt,
	.mq_intt = rtl_intt,
	.mq_poly_mul_ntt = rtl_ntt_mul,
	.samplerz = rtl_samplerz,
	.samplerz_pair = rtl_samplerz_pair,
	.prng_refill = rtl_prng_refill,
	.keccak_f1600 = rtl_keccak_f1600,
	.mq_poly_mul_by_ntt = rtl_mul_by_ntt,
	.ffsampling = rtl_ffsampling,
	.mlkem_ntt = rtl_mlkem_ntt,
	.mlkem_invntt = rtl_mlkem_invntt,
	.mlkem_basemul_acc = rtl_mlkem_basemul_acc,
	.ek_checksum32 = rtl_ek_checksum32,
};
