/*
 * test_ntru.c -- the NTRU equation solver (src/kgen_*.c).
 *
 *  1. Random (f, g) from a Gaussian-like distribution (centered binomial
 *     with Falcon's variance 1.17^2 q / (2n)), coefficients below
 *     2^(FA_FG_BITS-1), odd coefficient sums, logn = 1..10: on success,
 *     f*G - g*F = q is checked with exact integer arithmetic and
 *     |F|, |G| <= 127; the answer must not depend on the alignment of
 *     tmp; some keys of every degree must succeed.
 *  2. Failures: (3f', 3g') (resultants share the factor 3^n), g = f
 *     (common resultant), must report 0.
 *  3. Known answers: the private keys of the NIST KAT files (outputs of
 *     the reference key generation) give back exactly their F, and a G
 *     that completes the equation, with every available backend.
 *
 * (During development the solver was also compared, outside this
 * repository, with the reference key generation on every (f, g) it tried,
 * failures included: same outcome and same F, G every time.)
 */

#include "test_util.h"
#include "inner.h"

static uint8_t tmp_buf[FA_TMPSIZE_NTRU(10) + 64];

/* 1 if the solver left tmp_buf untouched outside [off, off + size). */
static int canary_intact(size_t off, size_t size)
{
	size_t u;

	for (u = 0; u < sizeof tmp_buf; u ++) {
		if ((u < off || u >= off + size) && tmp_buf[u] != 0xA5) {
			return 0;
		}
	}
	return 1;
}

static int popcount64(uint64_t x)
{
	int c = 0;

	while (x != 0) {
		x &= x - 1;
		c ++;
	}
	return c;
}

/* Centered binomial: sum of B bits minus sum of B bits, variance B/2;
   B = 2 sigma^2 = 1.17^2 q / n. */
static int sample_coeff(uint64_t *rs, unsigned logn)
{
	unsigned b = (unsigned)((16822u + (1u << (logn - 1))) >> logn);
	int v = 0;

	while (b > 0) {
		unsigned k = b < 64 ? b : 64;
		uint64_t m = k == 64 ? ~(uint64_t)0 : (((uint64_t)1 << k) - 1);

		v += popcount64(tu_rand64(rs) & m);
		v -= popcount64(tu_rand64(rs) & m);
		b -= k;
	}
	return v;
}

/* Random small polynomial with odd coefficient sum, |x| < 2^(bits-1). */
static void sample_poly(uint64_t *rs, int8_t *f, unsigned logn)
{
	size_t u, n = MKN(logn);
	int lim = 1 << (FA_FG_BITS(logn) - 1);

	for (;;) {
		int sum = 0;

		for (u = 0; u < n; u ++) {
			int v;

			do {
				v = sample_coeff(rs, logn);
			} while (v <= -lim || v >= lim);
			f[u] = (int8_t)v;
			sum += v;
		}
		if (sum & 1) {
			return;
		}
	}
}

/* d = a*b mod x^n+1 (exact, int32). */
static void poly_mul(int32_t *d, const int8_t *a, const int8_t *b,
	unsigned logn)
{
	size_t n = MKN(logn), i, j;

	memset(d, 0, n * sizeof *d);
	for (i = 0; i < n; i ++) {
		for (j = 0; j < n; j ++) {
			int32_t z = (int32_t)a[i] * b[j];

			if (i + j < n) {
				d[i + j] += z;
			} else {
				d[i + j - n] -= z;
			}
		}
	}
}

/* 1 if f*G - g*F = q exactly and all of F, G are in [-127, 127]. */
static int check_solution(const int8_t *f, const int8_t *g,
	const int8_t *F, const int8_t *G, unsigned logn)
{
	static int32_t t1[1024], t2[1024];
	size_t n = MKN(logn), u;
	int ok = 1;

	/* int8_t: only -128 can be out of range. */
	for (u = 0; u < n; u ++) {
		ok &= F[u] >= -127 && G[u] >= -127;
	}
	poly_mul(t1, f, G, logn);
	poly_mul(t2, g, F, logn);
	for (u = 0; u < n; u ++) {
		ok &= (t1[u] - t2[u]) == (u == 0 ? 12289 : 0);
	}
	return ok;
}

static void test_random(void)
{
	static const unsigned count[11] = {
		0, 60, 60, 60, 60, 60, 40, 30, 20, 12, 5
	};
	uint64_t rs = 0x6E747275u;
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn);
		unsigned i, solved = 0;

		for (i = 0; i < count[logn]; i ++) {
			int8_t f[1024], g[1024], F[1024], G[1024];
			int8_t F2[1024], G2[1024];
			size_t off = 3 + (i & 4);
			int r, r2;

			sample_poly(&rs, f, logn);
			sample_poly(&rs, g, logn);
			r = fa_ntru_solve(F, G, f, g, logn, tmp_buf,
				&fa_backend_portable);
			/* Same answer with a misaligned buffer, and nothing
			   written outside FA_TMPSIZE_NTRU(logn) bytes. */
			memset(tmp_buf, 0xA5, sizeof tmp_buf);
			r2 = fa_ntru_solve(F2, G2, f, g, logn, tmp_buf + off,
				&fa_backend_portable);
			CHECK(canary_intact(off, FA_TMPSIZE_NTRU(logn)),
				"logn=%u key %u: write outside tmp", logn, i);
			CHECK(r == r2, "logn=%u key %u: %d vs %d (alignment)",
				logn, i, r, r2);
			if (!r) {
				continue;
			}
			solved ++;
			CHECK(check_solution(f, g, F, G, logn),
				"logn=%u key %u: fG - gF != q or out of range",
				logn, i);
			CHECK(r2 && memcmp(F, F2, n) == 0
				&& memcmp(G, G2, n) == 0,
				"logn=%u key %u: result depends on alignment",
				logn, i);
		}
		/* The reference fails often at logn = 3 (its size limits),
		   rarely elsewhere. */
		CHECK(solved >= (logn == 3 ? 1u : count[logn] / 2),
			"logn=%u: only %u of %u solved", logn, solved,
			count[logn]);
	}
}

static void test_failures(void)
{
	uint64_t rs = 0x66616964u;
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn), u;
		int8_t f[1024], g[1024], F[1024], G[1024];
		int r;

		/* f = 3 f', g = 3 g' (f', g' in [-13, 13], odd sums). */
		for (;;) {
			int sf = 0, sg = 0;

			for (u = 0; u < n; u ++) {
				int a = (int)(tu_rand64(&rs) % 27) - 13;
				int b = (int)(tu_rand64(&rs) % 27) - 13;

				f[u] = (int8_t)(3 * a);
				g[u] = (int8_t)(3 * b);
				sf += f[u];
				sg += g[u];
			}
			if ((sf & sg & 1) != 0) {
				break;
			}
		}
		r = fa_ntru_solve(F, G, f, g, logn, tmp_buf,
			&fa_backend_portable);
		CHECK(r == 0, "logn=%u: 3f', 3g' solved", logn);

		/* g = f: gcd(Res(f), Res(g)) = Res(f) > 1. */
		sample_poly(&rs, f, logn);
		memcpy(g, f, n);
		r = fa_ntru_solve(F, G, f, g, logn, tmp_buf,
			&fa_backend_portable);
		CHECK(r == 0, "logn=%u: g = f solved", logn);
	}
}

/* MSB-first bit reader over the private key encoding. */
static int read_signed(const uint8_t *buf, size_t *pos, unsigned bits)
{
	uint32_t v = 0;
	unsigned i;

	for (i = 0; i < bits; i ++, (*pos) ++) {
		v = (v << 1) | ((buf[*pos >> 3] >> (7 - (*pos & 7))) & 1);
	}
	return (int)(v ^ (1u << (bits - 1))) - (int)(1u << (bits - 1));
}

static int hexval(int c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static void test_kat(const struct fa_kernels *be)
{
	static char line[20000];
	unsigned logn;

	for (logn = 9; logn <= 10; logn ++) {
		size_t n = MKN(logn);
		unsigned keys = 0, nrec;
		FILE *fp = tu_kat_open(1u << logn, &nrec);

		if (fp == NULL) {
			continue;
		}
		while (fgets(line, sizeof line, fp) != NULL) {
			static uint8_t sk[2400];
			int8_t f[1024], g[1024], F[1024], G[1024], F2[1024];
			size_t len, u, pos;
			unsigned fgb = FA_FG_BITS(logn);
			int r;

			if (strncmp(line, "sk = ", 5) != 0) {
				continue;
			}
			len = (strlen(line) - 5) / 2;
			if (len > sizeof sk) {
				len = sizeof sk;
			}
			for (u = 0; u < len; u ++) {
				sk[u] = (uint8_t)(hexval(line[5 + 2 * u]) << 4
					| hexval(line[6 + 2 * u]));
			}
			CHECK(sk[0] == 0x50 + logn, "KAT %u: bad sk header",
				keys);
			pos = 8;
			for (u = 0; u < n; u ++) {
				f[u] = (int8_t)read_signed(sk, &pos, fgb);
			}
			for (u = 0; u < n; u ++) {
				g[u] = (int8_t)read_signed(sk, &pos, fgb);
			}
			for (u = 0; u < n; u ++) {
				F[u] = (int8_t)read_signed(sk, &pos, 8);
			}
			r = fa_ntru_solve(F2, G, f, g, logn, tmp_buf, be);
			CHECK(r == 1, "%s logn=%u KAT key %u: not solved",
				be->name, logn, keys);
			CHECK(r == 1 && memcmp(F, F2, n) == 0,
				"%s logn=%u KAT key %u: F differs from the KAT",
				be->name, logn, keys);
			CHECK(r == 1 && check_solution(f, g, F2, G, logn),
				"%s logn=%u KAT key %u: bad G", be->name, logn,
				keys);
			keys ++;
		}
		fclose(fp);
		CHECK(keys == nrec, "logn=%u: %u KAT keys read", logn, keys);
	}
}

int main(void)
{
	size_t i;

	test_random();
	test_failures();
	/* The final rounding uses the kernels' FFT: every backend (all give
	   bit-identical results) must reproduce the KAT keys. Simulated
	   hardware backends are skipped (too slow here). */
	for (i = 0; i < fa_backend_count(); i ++) {
		const fa_backend *be = fa_backend_at(i);

		if (be != NULL && fa_backend_available(be) && !be->simulated) {
			test_kat(be);
		}
	}
	return tu_finish("test_ntru");
}
