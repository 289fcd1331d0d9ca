/*
 * test_backend_rtl.c -- the "rtl" backend (Verilated RTL behind the kernel
 * seam) against the portable kernels, bit for bit: FFT, iFFT and every
 * vector op for logn = 1..10, NTT / iNTT / pointwise product for logn =
 * 1..10, plus a refused request (bad op) seen through the driver, and
 * two threads using the device at once (the backend serialises them),
 * and the SamplerZ slots (samplerz, samplerz_pair on the SamplerZ unit,
 * prng_refill on its ChaCha20 with the buffer read back through SZ_BUF)
 * against the portable sampler on one PRNG stream: the same z, the same
 * fa_prng afterwards (its buffer read out of the device after refills),
 * across refills, with the device state resynchronised
 * when the caller switches between two streams; an illegal request
 * declines and leaves the context untouched; the ffsampling slot on the
 * ffSampling engine (trees of real keys, logn 1..6, two trees and two
 * PRNG streams alternating: z0, z1 and the whole fa_prng after equal to
 * portable's, the tree loaded only when it changes) and, through the
 * driver, the engine's error codes (wrong LOGN, illegal sigma_min, the
 * cycle watchdog) with an exact command after them.
 * Without the rtl backend built, it checks that "rtl" is not registered.
 */
#include <stdio.h>
#include <string.h>

#include "inner.h"
#include "test_util.h"
#include <stdlib.h>
#include <pthread.h>

#ifdef FA_HAVE_BACKEND_RTL
#include "fa_rtl.h"
#include "fa_rtl_regs.h"

extern const struct fa_kernels fa_backend_rtl;

static uint64_t seed = 0x5eed;

static void rand_fpr(fpr *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i ++) {
		/* values in about [-2^20, 2^20], as Falcon's FFT data */
		int64_t v = (int64_t)(tu_rand64(&seed) >> 20) - ((int64_t)1 << 43);
		a[i] = fpr_scaled(v, -23);
	}
}

static int same(const fpr *a, const fpr *b, size_t n)
{
	return memcmp(a, b, n * sizeof(fpr)) == 0;
}

static void test_fpr_ops(const struct fa_kernels *r)
{
	static fpr a[1024], b[1024], x[1024], y[1024];
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn);
		fpr c;

		rand_fpr(a, n);
		rand_fpr(b, n);
		c = b[0];
#define ONE(call_r, call_p, name) do { \
		memcpy(x, a, n * sizeof(fpr)); memcpy(y, a, n * sizeof(fpr)); \
		CHECK(call_r == FA_KERNEL_DONE, "%s logn=%u ran on the device", \
			name, logn); \
		call_p; \
		CHECK(same(x, y, n), "%s logn=%u", name, logn); \
	} while (0)
		ONE(r->fft(x, logn), fa_fft_portable(y, logn), "fft");
		ONE(r->ifft(x, logn), fa_ifft_portable(y, logn), "ifft");
		ONE(r->poly_add(x, b, logn), fa_poly_add_portable(y, b, logn), "add");
		ONE(r->poly_sub(x, b, logn), fa_poly_sub_portable(y, b, logn), "sub");
		ONE(r->poly_neg(x, logn), fa_poly_neg_portable(y, logn), "neg");
		ONE(r->poly_adj_fft(x, logn), fa_poly_adj_fft_portable(y, logn), "adj");
		ONE(r->poly_mul_fft(x, b, logn), fa_poly_mul_fft_portable(y, b, logn), "mul");
		ONE(r->poly_muladj_fft(x, b, logn),
			fa_poly_muladj_fft_portable(y, b, logn), "muladj");
		ONE(r->poly_mulselfadj_fft(x, logn),
			fa_poly_mulselfadj_fft_portable(y, logn), "mulselfadj");
		ONE(r->poly_mulconst(x, c, logn),
			fa_poly_mulconst_portable(y, c, logn), "mulconst");
#undef ONE
	}
}

static void test_mq_ops(const struct fa_kernels *r)
{
	static uint16_t a[1024], b[1024], x[1024], y[1024];
	unsigned logn;
	size_t i;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn);

		for (i = 0; i < n; i ++) {
			a[i] = (uint16_t)(tu_rand64(&seed) % FA_Q);
			b[i] = (uint16_t)(tu_rand64(&seed) % FA_Q);
		}
		memcpy(x, a, sizeof a); memcpy(y, a, sizeof a);
		CHECK(r->mq_ntt(x, logn) == FA_KERNEL_DONE, "ntt device logn=%u", logn);
		fa_mq_ntt_portable(y, logn);
		CHECK(memcmp(x, y, n * 2) == 0, "ntt logn=%u", logn);
		CHECK(r->mq_poly_mul_ntt(x, b, logn) == FA_KERNEL_DONE,
			"ntt mul device logn=%u", logn);
		fa_mq_poly_mul_ntt_portable(y, b, logn);
		CHECK(memcmp(x, y, n * 2) == 0, "ntt mul logn=%u", logn);
		CHECK(r->mq_intt(x, logn) == FA_KERNEL_DONE, "intt device logn=%u", logn);
		fa_mq_intt_portable(y, logn);
		CHECK(memcmp(x, y, n * 2) == 0, "intt logn=%u", logn);
	}
}

static void test_driver_errors(void)
{
	fa_rtl_transport t;
	uint32_t st = 0;

	CHECK(fa_rtl_sim_open(&t) == 0, "sim transport");
	CHECK(t.wr(t.ctx, FA_RTL_REG_LOGN, 4) == 0, "write LOGN");
	CHECK(fa_rtl_drv_start(&t, 77, 4, NULL) == (int)FA_RTL_ERR_BAD_OP, "bad op refused");
	CHECK(t.wr(t.ctx, FA_RTL_REG_LOGN, 0) == 0, "write LOGN 0");
	CHECK(fa_rtl_drv_start(&t, FA_RTL_OP_FFT, 0, NULL) == (int)FA_RTL_ERR_BAD_LOGN,
		"bad logn refused");
	CHECK(t.wr(t.ctx, FA_RTL_REG_ID, 1) != 0, "write to ID gives SLVERR");
	CHECK(t.rd(t.ctx, FA_RTL_REG_STATUS, &st) == 0
		&& ((st & FA_RTL_STATUS_ERR_MASK) >> FA_RTL_STATUS_ERR_LSB) == FA_RTL_ERR_ACCESS,
		"status says ACCESS");
	CHECK(t.wr(t.ctx, FA_RTL_REG_CTRL, FA_RTL_CTRL_CLEAR_MASK) == 0, "clear");

	/* ML-KEM mode: LOGN is not used (0 accepted); nk outside 1..4 is
	   refused by the driver with nothing written */
	{
		static int16_t a[4 * 256], b[4 * 256], r[256], r0[256];
		size_t i;

		for (i = 0; i < 256; i ++) {
			a[i] = (int16_t)(i * 13 % 3329 - 1664);
			b[i] = (int16_t)(i * 7 % 3329 - 1664);
			r[i] = r0[i] = (int16_t)i;
		}
		CHECK(fa_rtl_drv_kem_present(&t) == 1, "CONFIG.MLKEM in the model");
		CHECK(fa_rtl_drv_kem_basemul_acc(&t, r, a, b, 0, NULL) == -1
			&& fa_rtl_drv_kem_basemul_acc(&t, r, a, b, 5, NULL) == -1
			&& memcmp(r, r0, sizeof r) == 0, "kem nk 0 / 5 refused, r untouched");
		CHECK(fa_rtl_drv_kem_ntt(&t, a, NULL) == 0, "KEM_NTT with LOGN 0");
		for (i = 0; i < 256; i ++) {
			b[i] = (int16_t)(i * 13 % 3329 - 1664);
		}
		fa_mlkem_ntt_portable(b);
		CHECK(memcmp(a, b, 256 * sizeof a[0]) == 0, "KEM_NTT = portable");
	}
}

/* Two threads, each running FFT + iFFT and NTT + iNTT on its own data
   through the device while the other does the same; every result must
   equal the portable kernel's. */
typedef struct {
	uint64_t seed;
	int ok;
} thread_job;

static void *concurrent_worker(void *arg)
{
	thread_job *job = arg;
	static __thread fpr x[512], y[512];
	static __thread uint16_t u[512], v[512];
	int round;
	size_t i;

	job->ok = 1;
	for (round = 0; round < 6; round ++) {
		for (i = 0; i < 512; i ++) {
			int64_t w = (int64_t)(tu_rand64(&job->seed) >> 20)
				- ((int64_t)1 << 43);

			x[i] = y[i] = fpr_scaled(w, -23);
			u[i] = v[i] = (uint16_t)(tu_rand64(&job->seed) % FA_Q);
		}
		job->ok &= fa_backend_rtl.fft(x, 9) == FA_KERNEL_DONE;
		fa_fft_portable(y, 9);
		job->ok &= same(x, y, 512);
		job->ok &= fa_backend_rtl.ifft(x, 9) == FA_KERNEL_DONE;
		fa_ifft_portable(y, 9);
		job->ok &= same(x, y, 512);
		job->ok &= fa_backend_rtl.mq_ntt(u, 9) == FA_KERNEL_DONE;
		fa_mq_ntt_portable(v, 9);
		job->ok &= memcmp(u, v, sizeof u) == 0;
		job->ok &= fa_backend_rtl.mq_intt(u, 9) == FA_KERNEL_DONE;
		fa_mq_intt_portable(v, 9);
		job->ok &= memcmp(u, v, sizeof u) == 0;
	}
	return NULL;
}

static void test_concurrent(void)
{
	pthread_t th[2];
	thread_job job[2] = { { 0x1111, 0 }, { 0x2222, 0 } };
	int i, started = 0;

	for (i = 0; i < 2; i ++) {
		started += pthread_create(&th[i], NULL, concurrent_worker,
			&job[i]) == 0;
	}
	CHECK(started == 2, "threads started");
	for (i = 0; i < started; i ++) {
		pthread_join(th[i], NULL);
	}
	CHECK(started == 2 && job[0].ok && job[1].ok,
		"two threads on the device: results equal the portable kernels");
}

static fpr sz_mu(void)
{
	return fpr_scaled((int64_t)(tu_rand64(&seed) % 400000) - 200000, -10);
}

/* 1/sigma' for sigma' in [1.3, 1.8] */
static fpr sz_isigma(void)
{
	return fpr_inv(fpr_add(fpr_of(1), fpr_scaled(
		(int64_t)(300 + tu_rand64(&seed) % 500), -10)));
}

static void test_samplerz(const struct fa_kernels *r)
{
	static fa_sampler_ctx dev[2], ref[2];
	fa_shake256_ctx sh;
	int i, j, ok = 1, done = 1, za[2], zb[2];
	uint8_t ctr0;

	for (j = 0; j < 2; j ++) {
		fa_shake256_init_prng_from_seed(&sh, j ? "sz-b" : "sz-a", 4);
		fa_prng_init(&ref[j].p, &sh);
		ref[j].sigma_min = fpr_from_bits(fa_sigma_min[9 + j]);
		ref[j].k = &fa_backend_portable;
		dev[j] = ref[j];
		dev[j].k = r;
	}
	ctr0 = ref[0].p.state[48];
	fa_rtl_samplerz_force(0);
	CHECK(r->samplerz(&dev[0], &za[0], FPR_ONE, sz_isigma())
		== FA_KERNEL_FALLBACK, "samplerz declined when not enabled");
	fa_rtl_samplerz_force(1);
	for (i = 0; i < 240; i ++) {
		/* mostly stream 0 (the device state stays loaded), sometimes
		   stream 1 (a reload each way) */
		j = (i % 16 == 15);
		if (i % 3 == 0) {
			fpr mu0 = sz_mu(), mu1 = sz_mu(), is = sz_isigma();

			done &= r->samplerz_pair(&dev[j], za, mu0, mu1, is)
				== FA_KERNEL_DONE;
			fa_samplerz_portable(&ref[j], &zb[0], mu0, is);
			fa_samplerz_portable(&ref[j], &zb[1], mu1, is);
			ok &= za[0] == zb[0] && za[1] == zb[1];
		} else {
			fpr mu = sz_mu(), is = sz_isigma();

			done &= r->samplerz(&dev[j], &za[0], mu, is) == FA_KERNEL_DONE;
			fa_samplerz_portable(&ref[j], &zb[0], mu, is);
			ok &= za[0] == zb[0];
		}
		ok &= memcmp(&dev[j].p, &ref[j].p, sizeof dev[j].p) == 0;
	}
	CHECK((uint8_t)(ref[0].p.state[48] - ctr0) >= 16,
		"the run crossed PRNG refills");
	CHECK(done, "samplerz slots ran on the device");
	CHECK(ok, "samplerz / samplerz_pair on the device: same z and same "
		"PRNG state as the portable sampler");
	for (i = 0; i < 3; i ++) {
		/* prng_refill on the device (its ChaCha20, the buffer read
		   back): the same fa_prng as the portable refill, from a
		   buffer in use (i = 0) or just refilled; the samples after
		   it (on the state the refill left in the device) are exact */
		fpr mu = sz_mu(), is = sz_isigma();

		CHECK(r->prng_refill(&dev[0].p) == FA_KERNEL_DONE,
			"prng_refill ran on the device");
		fa_prng_refill_portable(&ref[0].p);
		CHECK(memcmp(&dev[0].p, &ref[0].p, sizeof dev[0].p) == 0,
			"prng_refill on the device = portable refill (%d)", i);
		CHECK(r->samplerz(&dev[0], &za[0], mu, is) == FA_KERNEL_DONE,
			"samplerz after prng_refill");
		fa_samplerz_portable(&ref[0], &zb[0], mu, is);
		CHECK(za[0] == zb[0] && memcmp(&dev[0].p, &ref[0].p,
			sizeof dev[0].p) == 0, "exact after prng_refill (%d)", i);
	}
	{
		/* 1/sigma = 1.5 is illegal for the unit (ERR_ARG): declined,
		   context untouched, and the next call is exact again */
		fa_sampler_ctx before = dev[0];
		int z = 12345;

		CHECK(r->samplerz(&dev[0], &z, FPR_ONE, fpr_scaled(3, -1))
			== FA_KERNEL_FALLBACK && z == 12345
			&& memcmp(&before, &dev[0], sizeof before) == 0,
			"illegal samplerz request declined, nothing written");
		fpr mu = sz_mu(), is = sz_isigma();
		CHECK(r->samplerz(&dev[0], &za[0], mu, is) == FA_KERNEL_DONE,
			"device serves after an error");
		fa_samplerz_portable(&ref[0], &zb[0], mu, is);
		CHECK(za[0] == zb[0] && memcmp(&dev[0].p, &ref[0].p,
			sizeof dev[0].p) == 0, "exact after an error");
	}
	fa_rtl_samplerz_force(-1);
}

/* ------------------------------------------------------------------ */
/* ffSampling engine. */

#define FS_TREESIZE(logn) (((size_t)(logn) + 1) << (logn))

/* The LDL tree of a real key of degree 2^logn (seed byte `which`). */
static void fs_tree(fpr *tree, unsigned logn, uint8_t which)
{
	static fpr ek[FA_EXPANDED_KEY_SIZE(10) / sizeof(fpr)];
	static uint64_t tmp[(FA_TMPSIZE_KEYGEN(10) + FA_TMPSIZE_EXPAND(10)) / 8 + 1];
	static int8_t fgFG[4 * 1024];
	static uint16_t h[1024];
	size_t n = MKN(logn);
	fa_shake256_ctx rng;
	uint8_t sd[3] = { 'k', (uint8_t)logn, which };

	fa_shake256_init_prng_from_seed(&rng, sd, sizeof sd);
	fa_keygen_inner(&rng, fgFG, fgFG + n, fgFG + 2 * n, fgFG + 3 * n, h,
		logn, (uint8_t *)tmp, &fa_backend_portable);
	fa_expand_privkey_inner(ek, fgFG, fgFG + n, fgFG + 2 * n, fgFG + 3 * n,
		logn, (uint8_t *)tmp, &fa_backend_portable);
	memcpy(tree, ek + 4 * n, FS_TREESIZE(logn) * sizeof(fpr));
}

static void fs_targets(fpr *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i ++) {
		int64_t v = (int64_t)(tu_rand64(&seed) >> 30) - ((int64_t)1 << 33);

		t[i] = fpr_scaled(v, -21);    /* |t| < 4096 */
	}
}

static void fs_prng(fa_sampler_ctx *c, const char *s, size_t ptr,
	unsigned logn)
{
	fa_shake256_ctx sh;

	memset(c, 0, sizeof *c);
	fa_shake256_init_prng_from_seed(&sh, s, strlen(s));
	fa_prng_init(&c->p, &sh);
	c->p.ptr = ptr;
	c->sigma_min = fpr_from_bits(fa_sigma_min[logn]);
	c->k = &fa_backend_portable;
}

static uint64_t fs_ctr(const fa_sampler_ctx *c)
{
	uint64_t x = 0;
	int i;

	for (i = 7; i >= 0; i --) {
		x = (x << 8) | c->p.state[48 + i];
	}
	return x;
}

/* Through the driver on the shared model (run before the backend's
   ffsampling calls: the backend's record of the device's tree and PRNG
   state would not know of these commands). */
static void test_ffsampling_driver(void)
{
	static fpr tree[FS_TREESIZE(3)], t0[8], t1[8], z0[8], z1[8], w[16];
	static uint64_t b0[8], b1[8];
	fa_rtl_transport t;
	fa_sampler_ctx c;
	uint64_t ctr = 0;
	unsigned ptr = 0, logn = 3;
	size_t n = MKN(logn);
	uint64_t smin = fa_sigma_min[logn];

	CHECK(fa_rtl_sim_open(&t) == 0, "sim transport");
	CHECK(fa_rtl_drv_fs_present(&t), "CONFIG.FFSAMP set in the model");
	fs_tree(tree, logn, 0);
	fs_targets(t0, n);
	fs_targets(t1, n);
	fs_prng(&c, "fs-drv", 500, logn);
	CHECK(fa_rtl_drv_fs_tree(&t, (const uint64_t *)tree, logn, NULL) == 0,
		"tree loaded and committed");
	CHECK(fa_rtl_drv_sz_load(&t, c.p.state, fs_ctr(&c) - 8,
		(unsigned)c.p.ptr, NULL) == 0, "PRNG loaded");
	CHECK(fa_rtl_drv_ffsampling(&t, (const uint64_t *)t0,
		(const uint64_t *)t1, b0, b1, 4, fa_sigma_min[4], 0, 0, &ctr,
		&ptr, NULL) == -(int)FA_RTL_FSERR_LOGN, "LOGN not the tree's");
	CHECK(fa_rtl_drv_ffsampling(&t, (const uint64_t *)t0,
		(const uint64_t *)t1, b0, b1, logn, 0x4004000000000000u, 0, 0,
		&ctr, &ptr, NULL) == -(int)FA_RTL_FSERR_SZ_ARG,
		"sigma_min = 2.5 refused by SamplerZ");
	CHECK(fa_rtl_drv_ffsampling(&t, (const uint64_t *)t0,
		(const uint64_t *)t1, b0, b1, logn, smin, 0, 100, &ctr, &ptr,
		NULL) == -(int)FA_RTL_FSERR_WDOG, "100-cycle watchdog");
	/* the PRNG moved on: load it again, then an exact command */
	CHECK(fa_rtl_drv_sz_load(&t, c.p.state, fs_ctr(&c) - 8,
		(unsigned)c.p.ptr, NULL) == 0, "PRNG reloaded");
	CHECK(fa_rtl_drv_ffsampling(&t, (const uint64_t *)t0,
		(const uint64_t *)t1, b0, b1, logn, smin, 0, 0, &ctr, &ptr,
		NULL) == 0, "ffsampling after the errors");
	fa_ffsampling_portable(&c, z0, z1, tree, t0, t1, logn, w);
	CHECK(memcmp(b0, z0, sizeof z0) == 0 && memcmp(b1, z1, sizeof z1) == 0
		&& ctr == fs_ctr(&c) && ptr == c.p.ptr,
		"driver ffsampling = portable (z0, z1, PRNG counter and pointer)");
}

/* The slot on the device: logn 1..6, two keys and two PRNG streams
   alternating (tree reloads and PRNG loads in between), each call DONE and
   equal to portable, the whole fa_prng included. */
static void test_ffsampling(const struct fa_kernels *r)
{
	static fpr tree[2][FS_TREESIZE(6)], t0[64], t1[64], w[128];
	static fpr za[2][64], zb[2][64];
	static fa_sampler_ctx dev[2], ref[2];
	fa_rtl_kstat ks[FA_RTL_K_COUNT];
	unsigned logn, j, calls = 0, ok = 1, done = 1;
	uint64_t loads0;

	for (logn = 1; logn <= 6; logn ++) {
		size_t n = MKN(logn);

		fs_tree(tree[0], logn, 1);
		fs_tree(tree[1], logn, 2);
		fs_prng(&ref[0], "fs-a", 0, logn);
		fs_prng(&ref[1], "fs-b", 480 + logn, logn);
		for (j = 0; j < 2; j ++) {
			dev[j] = ref[j];
			dev[j].k = r;
		}
		for (j = 0; j < 4; j ++) {
			unsigned s = j & 1, k = (j >> 1) ^ s;

			fs_targets(t0, n);
			fs_targets(t1, n);
			done &= r->ffsampling(&dev[s], za[0], za[1], tree[k], t0, t1,
				logn, w) == FA_KERNEL_DONE;
			fa_ffsampling_portable(&ref[s], zb[0], zb[1], tree[k], t0, t1,
				logn, w);
			ok &= same(za[0], zb[0], n) && same(za[1], zb[1], n)
				&& memcmp(&dev[s].p, &ref[s].p, sizeof ref[s].p) == 0;
			calls ++;
		}
	}
	CHECK(done, "ffsampling ran on the device (%u calls)", calls);
	CHECK(ok, "ffsampling on the device: z0, z1 and the PRNG as portable");
	/* the same tree again (tree[0] of logn 6 was the last): no reload */
	fa_rtl_stats(ks);
	loads0 = ks[FA_RTL_K_FS_TREE].calls;
	logn = 6;
	fs_targets(t0, MKN(logn));
	fs_targets(t1, MKN(logn));
	CHECK(r->ffsampling(&dev[0], za[0], za[1], tree[0], t0, t1, logn, w)
		== FA_KERNEL_DONE, "ffsampling, same tree");
	fa_ffsampling_portable(&ref[0], zb[0], zb[1], tree[0], t0, t1, logn, w);
	CHECK(same(za[0], zb[0], MKN(logn)) && same(za[1], zb[1], MKN(logn))
		&& memcmp(&dev[0].p, &ref[0].p, sizeof ref[0].p) == 0,
		"ffsampling, same tree: as portable");
	fa_rtl_stats(ks);
	CHECK(ks[FA_RTL_K_FS_TREE].calls == loads0, "tree not reloaded");
	CHECK(ks[FA_RTL_K_FFSAMPLING].calls >= calls + 1
		&& ks[FA_RTL_K_FFSAMPLING].cycles > 0, "engine cycles counted");
	printf("ffsampling logn 6 on the device: %u cycles\n",
		ks[FA_RTL_K_FFSAMPLING].last_cycles);
}

int main(void)
{
	const struct fa_kernels *r = &fa_backend_rtl;

	/* every size on the device, not only those above the fall-back
	   threshold (read once, before the first kernel call) */
	setenv("FA_RTL_MIN_LOGN", "1", 1);
	CHECK(r->available(), "rtl backend available");
	CHECK(fa_backend_find("rtl") == r, "rtl registered");
	test_fpr_ops(r);
	test_mq_ops(r);
	test_driver_errors();
	test_ffsampling_driver();
	test_concurrent();
	test_samplerz(r);
	test_ffsampling(r);
	return tu_finish("test_backend_rtl");
}

#else

int main(void)
{
	CHECK(fa_backend_find("rtl") == NULL, "rtl not registered without Verilator");
	return tu_finish("test_backend_rtl");
}

#endif
