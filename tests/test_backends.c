/*
 * test_backends.c -- differential test of the kernel seam: every
 * registered and available backend against the portable one, bit-exact,
 * for every slot and every logn 1..10, on zero, single-coefficient and
 * random inputs (mlkem-native style). The portable backend is also run
 * against itself through the table so the harness is exercised even when
 * no accelerator is compiled in.
 */
#include "inner.h"
#include "test_util.h"

#define NMAX 1024

static uint64_t seed = 0xC0FFEE;

/* Random binary64 of magnitude about 2^-20 .. 2^20, either sign. */
static fpr rand_fpr(void)
{
	uint64_t r = tu_rand64(&seed);
	uint64_t e = 1023 - 20 + (r >> 58) % 41;

	return fpr_from_bits((r & 0x800FFFFFFFFFFFFFu) | (e << 52));
}

enum { IN_ZERO, IN_ONE, IN_RANDOM, IN_KINDS };

static void fill(fpr *a, size_t n, int kind, size_t pos)
{
	size_t u;

	for (u = 0; u < n; u ++) {
		a[u] = kind == IN_RANDOM ? rand_fpr() : FPR_ZERO;
	}
	if (kind == IN_ONE) {
		a[pos % n] = rand_fpr();
	}
}

static void fill_nonzero(fpr *a, size_t n)
{
	size_t u;

	for (u = 0; u < n; u ++) {
		a[u] = rand_fpr();
	}
}

static int same(const fpr *a, const fpr *b, size_t n)
{
	size_t u;

	for (u = 0; u < n; u ++) {
		if (fpr_bits(a[u]) != fpr_bits(b[u])) {
			return 0;
		}
	}
	return 1;
}

static void test_fp_slots(const struct fa_kernels *be, unsigned logn, int kind)
{
	const struct fa_kernels *pt = &fa_backend_portable;
	static fpr a1[NMAX], a2[NMAX], b[NMAX], c[NMAX], d1[NMAX], d2[NMAX];
	static fpr e1[NMAX], e2[NMAX];
	size_t n = MKN(logn), hn = n >> 1;
	fpr x = rand_fpr();
	const char *nm = be->name;

#define UNARY(slot) do { \
		fill(a1, n, kind, (size_t)logn * 7); memcpy(a2, a1, n * sizeof *a1); \
		pt->slot(a1, logn); be->slot(a2, logn); \
		CHECK(same(a1, a2, n), "%s " #slot " logn=%u kind=%d", nm, logn, kind); \
	} while (0)
#define BINARY(slot) do { \
		fill(a1, n, kind, (size_t)logn * 3); memcpy(a2, a1, n * sizeof *a1); \
		fill(b, n, kind == IN_ZERO ? IN_RANDOM : kind, 5); \
		pt->slot(a1, b, logn); be->slot(a2, b, logn); \
		CHECK(same(a1, a2, n), "%s " #slot " logn=%u kind=%d", nm, logn, kind); \
	} while (0)

	UNARY(fft);
	UNARY(ifft);
	UNARY(poly_neg);
	UNARY(poly_adj_fft);
	UNARY(poly_mulselfadj_fft);
	BINARY(poly_add);
	BINARY(poly_sub);
	BINARY(poly_mul_fft);
	BINARY(poly_muladj_fft);
	BINARY(poly_mul_autoadj_fft);

	fill(a1, n, kind, 1);
	memcpy(a2, a1, n * sizeof *a1);
	pt->poly_mulconst(a1, x, logn);
	be->poly_mulconst(a2, x, logn);
	CHECK(same(a1, a2, n), "%s mulconst logn=%u", nm, logn);

	/* division slots: divisor without zeros */
	fill(a1, n, kind, 2);
	memcpy(a2, a1, n * sizeof *a1);
	fill_nonzero(b, n);
	pt->poly_div_fft(a1, b, logn);
	be->poly_div_fft(a2, b, logn);
	CHECK(same(a1, a2, n), "%s div_fft logn=%u", nm, logn);
	memcpy(a2, a1, n * sizeof *a1);
	pt->poly_div_autoadj_fft(a1, b, logn);
	be->poly_div_autoadj_fft(a2, b, logn);
	CHECK(same(a1, a2, n), "%s div_autoadj logn=%u", nm, logn);

	fill_nonzero(a1, n);
	fill(b, n, kind, 4);
	pt->poly_invnorm2_fft(d1, a1, b, logn);
	be->poly_invnorm2_fft(d2, a1, b, logn);
	CHECK(same(d1, d2, hn ? hn : 1), "%s invnorm2 logn=%u", nm, logn);

	/* LDL: g00 positive real, g01 any, g11 any */
	fill_nonzero(c, n);
	fill(b, n, kind, 6);
	fill(a1, n, IN_RANDOM, 0);
	memcpy(a2, a1, n * sizeof *a1);
	memcpy(e1, b, n * sizeof *b);
	memcpy(e2, b, n * sizeof *b);
	pt->poly_LDL_fft(c, e1, a1, logn);
	be->poly_LDL_fft(c, e2, a2, logn);
	CHECK(same(a1, a2, n) && same(e1, e2, n), "%s LDL logn=%u", nm, logn);
	fill(a1, n, IN_RANDOM, 0);
	pt->poly_LDLmv_fft(d1, e1, c, b, a1, logn);
	be->poly_LDLmv_fft(d2, e2, c, b, a1, logn);
	CHECK(same(d1, d2, n) && same(e1, e2, n), "%s LDLmv logn=%u", nm, logn);

	/* split / merge */
	fill(a1, n, kind, 9);
	pt->poly_split_fft(d1, d1 + hn, a1, logn);
	be->poly_split_fft(d2, d2 + hn, a1, logn);
	CHECK(same(d1, d2, n), "%s split logn=%u", nm, logn);
	pt->poly_merge_fft(e1, d1, d1 + hn, logn);
	be->poly_merge_fft(e2, d1, d1 + hn, logn);
	CHECK(same(e1, e2, n), "%s merge logn=%u", nm, logn);
#undef UNARY
#undef BINARY
}

static void test_mq_slots(const struct fa_kernels *be, unsigned logn, int kind)
{
	const struct fa_kernels *pt = &fa_backend_portable;
	static uint16_t a1[NMAX], a2[NMAX], b[NMAX];
	size_t u, n = MKN(logn);

	for (u = 0; u < n; u ++) {
		a1[u] = kind == IN_RANDOM ? (uint16_t)(tu_rand64(&seed) % FA_Q) : 0;
		b[u] = (uint16_t)(tu_rand64(&seed) % FA_Q);
	}
	if (kind == IN_ONE) {
		a1[logn % n] = (uint16_t)(1 + tu_rand64(&seed) % (FA_Q - 1));
	}
	memcpy(a2, a1, n * sizeof *a1);
	pt->mq_ntt(a1, logn);
	be->mq_ntt(a2, logn);
	CHECK(memcmp(a1, a2, n * sizeof *a1) == 0, "%s mq_ntt logn=%u", be->name, logn);
	pt->mq_poly_mul_ntt(a1, b, logn);
	be->mq_poly_mul_ntt(a2, b, logn);
	CHECK(memcmp(a1, a2, n * sizeof *a1) == 0, "%s mq_mul logn=%u", be->name, logn);
	pt->mq_intt(a1, logn);
	be->mq_intt(a2, logn);
	CHECK(memcmp(a1, a2, n * sizeof *a1) == 0, "%s mq_intt logn=%u", be->name, logn);
}

static void test_sampler(const struct fa_kernels *be)
{
	fa_sampler_ctx s1, s2;
	fa_shake256_ctx r1, r2;
	int i, ok = 1, ok_prng;

	fa_shake256_init_prng_from_seed(&r1, "sampler", 7);
	fa_shake256_init_prng_from_seed(&r2, "sampler", 7);
	s1.k = &fa_backend_portable;
	s2.k = be;
	s1.sigma_min = s2.sigma_min = fpr_from_bits(fa_sigma_min[9]);
	fa_prng_init(&s1.p, &r1);
	fa_prng_init(&s2.p, &r2);
	for (i = 0; i < 20000; i ++) {
		/* centres in [-200, 200], isigma for sigma' in [1.3, 1.8] */
		fpr mu = fpr_scaled((int64_t)(tu_rand64(&seed) % 400000) - 200000, -10);
		fpr is = fpr_inv(fpr_add(fpr_of(1), fpr_scaled(
			(int64_t)(300 + tu_rand64(&seed) % 500), -10)));
		int z1 = fa_backend_portable.samplerz(&s1, mu, is);
		int z2 = be->samplerz(&s2, mu, is);

		ok &= z1 == z2 && s1.p.ptr == s2.p.ptr;
	}
	CHECK(ok, "%s samplerz sequence", be->name);
	/* pairs (same sigma), against two portable calls; interleaved with
	   single calls so that pairs start at every buffer position */
	ok = 1;
	for (i = 0; i < 20000; i ++) {
		fpr mu0 = fpr_scaled((int64_t)(tu_rand64(&seed) % 400000) - 200000, -10);
		fpr mu1 = fpr_scaled((int64_t)(tu_rand64(&seed) % 400000) - 200000, -13);
		fpr is = fpr_inv(fpr_add(fpr_of(1), fpr_scaled(
			(int64_t)(300 + tu_rand64(&seed) % 500), -10)));
		int za[2], zb[2];

		za[0] = fa_backend_portable.samplerz(&s1, mu0, is);
		za[1] = fa_backend_portable.samplerz(&s1, mu1, is);
		be->samplerz_pair(&s2, zb, mu0, mu1, is);
		ok &= za[0] == zb[0] && za[1] == zb[1] && s1.p.ptr == s2.p.ptr;
		if (i % 3 == 0) {
			ok &= fa_backend_portable.samplerz(&s1, mu1, is)
				== be->samplerz(&s2, mu1, is);
		}
	}
	CHECK(ok, "%s samplerz_pair sequence", be->name);
	be->prng_refill(&s2.p);
	fa_backend_portable.prng_refill(&s1.p);
	ok_prng = memcmp(s1.p.buf, s2.p.buf, sizeof s1.p.buf) == 0
		&& memcmp(s1.p.state, s2.p.state, sizeof s1.p.state) == 0;
	CHECK(ok_prng, "%s prng_refill", be->name);
}

int main(void)
{
	size_t i;
	int tested = 0;

	for (i = 0; i < fa_backend_count(); i ++) {
		const struct fa_kernels *be = fa_backend_at(i);
		unsigned logn;
		int kind;

		if (!fa_backend_available(be)) {
			printf("backend %s: not available here, skipped\n", be->name);
			continue;
		}
		printf("backend %s\n", be->name);
		tested ++;
		for (logn = 1; logn <= 10; logn ++) {
			for (kind = 0; kind < IN_KINDS; kind ++) {
				test_fp_slots(be, logn, kind);
				test_mq_slots(be, logn, kind);
			}
		}
		test_sampler(be);
	}
	CHECK(tested >= 1, "at least the portable backend");
	CHECK(fa_backend_find("portable") == &fa_backend_portable, "find portable");
	CHECK(fa_backend_find("no-such-backend") == NULL, "unknown name");
	CHECK(fa_backend_default() != NULL, "default");
	return tu_finish("test_backends");
}
