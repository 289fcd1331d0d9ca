/*
 * test_ntt.c -- arithmetic modulo q: NTT against its definition, inverse,
 * products against schoolbook multiplication, public key / private key
 * completion, raw verification (constructed cases and the NIST KAT
 * vectors), norm bounds.
 *
 * References used here are written from the definitions, with plain
 * 64-bit arithmetic: evaluation at the roots psi_n^(2*brv(j)+1), the
 * negacyclic schoolbook product, exact integer norms.
 */
#include "inner.h"
#include "test_util.h"

#include <time.h>

#define Q 12289u

/* ------------------------------------------------------------------ */
/* Independent reference arithmetic. */

static uint32_t
ref_mul(uint32_t a, uint32_t b)
{
	return (uint32_t)(((uint64_t)a * b) % Q);
}

static uint32_t
ref_pow(uint32_t a, uint32_t e)
{
	uint32_t r = 1;

	while (e) {
		if (e & 1) {
			r = ref_mul(r, a);
		}
		a = ref_mul(a, a);
		e >>= 1;
	}
	return r;
}

static uint32_t
ref_mod(int64_t v)
{
	int64_t r = v % (int64_t)Q;

	return (uint32_t)(r < 0 ? r + Q : r);
}

static size_t
brv(size_t j, unsigned logn)
{
	size_t r = 0;
	unsigned i;

	for (i = 0; i < logn; i ++) {
		r = (r << 1) | ((j >> i) & 1);
	}
	return r;
}

/* Slot j = a(psi_n^(2 brv(j) + 1)), psi_n = 7^(1024/n), by Horner. */
static void
ref_ntt(uint16_t *out, const uint16_t *a, unsigned logn)
{
	size_t n = MKN(logn), j, i;
	uint32_t psi = ref_pow(7, (uint32_t)(1024 >> logn));

	for (j = 0; j < n; j ++) {
		uint32_t x = ref_pow(psi, (uint32_t)(2 * brv(j, logn) + 1));
		uint32_t acc = 0;

		for (i = n; i -- > 0;) {
			acc = (ref_mul(acc, x) + a[i]) % Q;
		}
		out[j] = (uint16_t)acc;
	}
}

/* c = a*b mod (x^n + 1, q), a and b given as signed integers. */
static void
ref_negamul(int64_t *c, const int64_t *a, const int64_t *b, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i ++) {
		c[i] = 0;
	}
	for (i = 0; i < n; i ++) {
		for (j = 0; j < n; j ++) {
			int64_t p = a[i] * b[j];

			if (i + j < n) {
				c[i + j] += p;
			} else {
				c[i + j - n] -= p;
			}
		}
	}
}

static void
ref_negamul_mq(uint16_t *c, const uint16_t *a, const uint16_t *b, size_t n)
{
	static int64_t ta[1024], tb[1024], tc[1024];
	size_t u;

	for (u = 0; u < n; u ++) {
		ta[u] = a[u];
		tb[u] = b[u];
	}
	ref_negamul(tc, ta, tb, n);
	for (u = 0; u < n; u ++) {
		c[u] = (uint16_t)ref_mod(tc[u]);
	}
}

/* ------------------------------------------------------------------ */
/* A kernel table that counts calls and declines each one, so that the
   seam's dispatcher runs the portable NTT. */

static unsigned long n_ntt, n_intt, n_mul;

static int
count_ntt(uint16_t *a, unsigned logn)
{
	(void)a;
	(void)logn;
	n_ntt ++;
	return FA_KERNEL_FALLBACK;
}

static int
count_intt(uint16_t *a, unsigned logn)
{
	(void)a;
	(void)logn;
	n_intt ++;
	return FA_KERNEL_FALLBACK;
}

static int
count_mul(uint16_t *a, const uint16_t *b, unsigned logn)
{
	(void)a;
	(void)b;
	(void)logn;
	n_mul ++;
	return FA_KERNEL_FALLBACK;
}

static struct fa_kernels kern;

static void
init_kernels(void)
{
	memset(&kern, 0, sizeof kern);
	kern.name = "test-counting";
	kern.mq_ntt = count_ntt;
	kern.mq_intt = count_intt;
	kern.mq_poly_mul_ntt = count_mul;
}

/* ------------------------------------------------------------------ */

static uint64_t rs = 0x1234567890ABCDEFu;

static void
rand_mq(uint16_t *a, size_t n)
{
	size_t u;

	for (u = 0; u < n; u ++) {
		a[u] = (uint16_t)(tu_rand64(&rs) % Q);
	}
}

/* Signed values in [-lim, lim]. */
static int32_t
rand_small(int32_t lim)
{
	return (int32_t)(tu_rand64(&rs) % (uint64_t)(2 * lim + 1)) - lim;
}

static void
test_ntt_definition(void)
{
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn);
		int trial, trials = logn >= 9 ? 2 : 6;

		for (trial = 0; trial < trials; trial ++) {
			uint16_t a[1024], b[1024], r[1024];
			size_t u;

			if (trial == 0) {
				for (u = 0; u < n; u ++) {
					a[u] = Q - 1;   /* extreme values */
				}
			} else if (trial == 1) {
				memset(a, 0, sizeof a);
				a[n - 1] = 1;       /* x^(n-1) */
			} else {
				rand_mq(a, n);
			}
			memcpy(b, a, sizeof a);
			fa_mq_ntt_portable(b, logn);
			ref_ntt(r, a, logn);
			CHECK(memcmp(b, r, n * sizeof b[0]) == 0,
				"ntt logn %u trial %d", logn, trial);
			fa_mq_intt_portable(b, logn);
			CHECK(memcmp(b, a, n * sizeof b[0]) == 0,
				"intt(ntt) logn %u trial %d", logn, trial);
			/* intt of the definition's output, too. */
			fa_mq_intt_portable(r, logn);
			CHECK(memcmp(r, a, n * sizeof b[0]) == 0,
				"intt(ref) logn %u trial %d", logn, trial);
		}
	}
}

static void
test_products(void)
{
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn);
		int trial;

		for (trial = 0; trial < 5; trial ++) {
			uint16_t a[1024], b[1024], c[1024], r[1024];
			size_t u;

			rand_mq(a, n);
			rand_mq(b, n);
			if (trial == 0) {
				for (u = 0; u < n; u ++) {
					a[u] = b[u] = Q - 1;
				}
			}
			ref_negamul_mq(r, a, b, n);
			memcpy(c, a, sizeof a);
			fa_mq_ntt_portable(c, logn);
			fa_mq_ntt_portable(b, logn);
			fa_mq_poly_mul_ntt_portable(c, b, logn);
			fa_mq_intt_portable(c, logn);
			CHECK(memcmp(c, r, n * sizeof c[0]) == 0,
				"product logn %u trial %d", logn, trial);
		}
	}
}

static void
rand_small_poly(int8_t *p, size_t n, int32_t lim)
{
	size_t u;

	for (u = 0; u < n; u ++) {
		p[u] = (int8_t)rand_small(lim);
	}
}

/* 1 if some NTT slot of f (by the reference) is zero. */
static int
ref_not_invertible(const int8_t *f, unsigned logn)
{
	uint16_t a[1024], r[1024];
	size_t u, n = MKN(logn);
	int z = 0;

	for (u = 0; u < n; u ++) {
		a[u] = (uint16_t)ref_mod(f[u]);
	}
	ref_ntt(r, a, logn);
	for (u = 0; u < n; u ++) {
		z |= r[u] == 0;
	}
	return z;
}

static void
test_compute_public(void)
{
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn), u;
		int trial;

		for (trial = 0; trial < 4; trial ++) {
			int8_t f[1024], g[1024];
			uint16_t h[1024], hf[1024], fm[1024], tmp[1024];
			int ok, exp_ok, good;
			unsigned long c0 = n_ntt, c1 = n_intt;

			rand_small_poly(f, n, 40);
			rand_small_poly(g, n, 40);
			ok = fa_compute_public(h, f, g, logn, (uint8_t *)tmp, &kern);
			exp_ok = !ref_not_invertible(f, logn);
			CHECK(ok == exp_ok, "compute_public ok logn %u", logn);
			CHECK(n_ntt == c0 + 2 && n_intt == c1 + (unsigned)ok,
				"kernel calls logn %u", logn);
			if (!ok) {
				continue;
			}
			/* h*f == g mod q, h in [0, q-1]. */
			for (u = 0; u < n; u ++) {
				fm[u] = (uint16_t)ref_mod(f[u]);
			}
			ref_negamul_mq(hf, h, fm, n);
			good = 1;
			for (u = 0; u < n; u ++) {
				good &= h[u] < Q && hf[u] == ref_mod(g[u]);
			}
			CHECK(good, "h*f == g logn %u trial %d", logn, trial);
		}

		/*
		 * Not invertible: f = 25 + 108 x^(n/2). Since
		 * 25^2 + 108^2 = q, -25/108 is a square root of -1, and
		 * x^(n/2) takes both square roots of -1 on the 2n-th roots.
		 */
		{
			int8_t f[1024], g[1024];
			uint16_t h[1024], tmp[1024];

			memset(f, 0, sizeof f);
			f[0] = 25;
			f[n / 2] = 108;
			rand_small_poly(g, n, 40);
			CHECK(ref_not_invertible(f, logn), "ref logn %u", logn);
			CHECK(fa_compute_public(h, f, g, logn, (uint8_t *)tmp,
				&kern) == 0, "non-invertible f logn %u", logn);
			memset(f, 0, sizeof f);
			CHECK(fa_compute_public(h, f, g, logn, (uint8_t *)tmp,
				&kern) == 0, "f = 0 logn %u", logn);
		}
	}
}

/* Sparse polynomial with k non-zero coefficients in [-lim, lim]. */
static void
rand_sparse(int64_t *p, size_t n, int k, int32_t lim)
{
	size_t u;
	int i;

	for (u = 0; u < n; u ++) {
		p[u] = 0;
	}
	for (i = 0; i < k; i ++) {
		p[tu_rand64(&rs) % n] = rand_small(lim);
	}
}

/*
 * complete_private: with f = a*c, g = b*c, F = a*d, G = b*d, one has
 * g*F = f*G exactly, so G = g*F/f mod q whenever f is invertible.
 */
static void
test_complete_private(void)
{
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn), u;
		int trial;

		for (trial = 0; trial < 6; trial ++) {
			int64_t a[1024], b[1024], c[1024], d[1024], t[1024];
			int8_t f[1024], g[1024], F[1024], G[1024], G2[1024];
			uint16_t tmp[2048];
			int expect_range = 1, ok, same;
			unsigned long c0 = n_ntt, c1 = n_intt, c2 = n_mul;

			rand_sparse(a, n, 3, 3);
			rand_sparse(b, n, 3, 3);
			rand_sparse(c, n, 3, 3);
			rand_sparse(d, n, 3, 3);
			a[0] = 1 + (int64_t)(tu_rand64(&rs) % 3);
			c[0] = 1 + (int64_t)(tu_rand64(&rs) % 3);
			if (trial == 5) {
				/* G coefficient 200: out of range. */
				for (u = 0; u < n; u ++) {
					b[u] = 0;
					d[u] = 0;
					a[u] = u == 0;
					c[u] = u == 0;
				}
				b[0] = 20;
				d[0] = 10;
				expect_range = 0;
			}
			ref_negamul(t, a, c, n);
			for (u = 0; u < n; u ++) f[u] = (int8_t)t[u];
			ref_negamul(t, b, c, n);
			for (u = 0; u < n; u ++) g[u] = (int8_t)t[u];
			ref_negamul(t, a, d, n);
			for (u = 0; u < n; u ++) F[u] = (int8_t)t[u];
			ref_negamul(t, b, d, n);
			for (u = 0; u < n; u ++) G[u] = (int8_t)t[u];
			if (ref_not_invertible(f, logn)) {
				continue;
			}
			ok = fa_complete_private(G2, f, g, F, logn,
				(uint8_t *)tmp, &kern);
			CHECK(n_ntt == c0 + 3 && n_intt == c1 + 1 && n_mul == c2 + 1,
				"kernel calls logn %u", logn);
			if (!expect_range) {
				CHECK(ok == 0, "G out of range accepted logn %u",
					logn);
				continue;
			}
			same = 1;
			for (u = 0; u < n; u ++) {
				same &= G2[u] == G[u];
			}
			CHECK(ok == 1 && same, "complete_private logn %u trial %d",
				logn, trial);
		}
		/* Non-invertible f. */
		{
			int8_t f[1024], g[1024], F[1024], G[1024];
			uint16_t tmp[2048];

			memset(f, 0, sizeof f);
			f[0] = 25;
			f[n / 2] = -108;
			rand_small_poly(g, n, 5);
			rand_small_poly(F, n, 5);
			CHECK(fa_complete_private(G, f, g, F, logn,
				(uint8_t *)tmp, &kern) == 0,
				"complete_private non-invertible logn %u", logn);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Norms. */

static const double sigma_pub[11] = {
	0, 144.8125397630842, 146.83798833523602, 148.83587593064712,
	151.783407138455, 154.67477946027608, 157.51308555044116,
	160.3011442197534, 163.04153322607098, 165.73661718297757,
	168.3885714465439
};

static uint64_t
ref_norm(const int16_t *s1, const int16_t *s2, size_t n)
{
	uint64_t s = 0;
	size_t u;

	for (u = 0; u < n; u ++) {
		if (s1 != NULL) {
			s += (uint64_t)((int64_t)s1[u] * s1[u]);
		}
		s += (uint64_t)((int64_t)s2[u] * s2[u]);
	}
	return s;
}

static uint32_t
isqrt32(uint64_t v)
{
	uint64_t r = 0, bit;

	for (bit = (uint64_t)1 << 31; bit; bit >>= 1) {
		if ((r + bit) * (r + bit) <= v) {
			r += bit;
		}
	}
	return (uint32_t)r;
}

/*
 * Fill v[0..len) with values of absolute value <= vmax whose squares sum
 * to exactly target (greedy, then a search on the last four). Returns 1
 * on success. Signs and order are then shuffled.
 */
static int
exact_norm_vector(int16_t *v, size_t len, uint64_t target, uint32_t vmax)
{
	size_t u;
	uint64_t rem = target;

	for (u = 0; u < len; u ++) {
		v[u] = 0;
	}
	for (u = 0; u + 4 < len && rem > 0; u ++) {
		uint32_t x = isqrt32(rem);

		if (x > vmax) {
			x = vmax;
		}
		v[u] = (int16_t)x;
		rem -= (uint64_t)x * x;
	}
	if (rem > 4 * (uint64_t)vmax * vmax) {
		return 0;
	}
	{
		int64_t a, b, c, d, top = isqrt32(rem);

		for (a = top < vmax ? top : vmax; a >= 0; a --) {
			int64_t r1 = (int64_t)rem - a * a;

			top = isqrt32((uint64_t)r1);
			for (b = top < vmax ? top : vmax; b >= 0; b --) {
				int64_t r2 = r1 - b * b;

				top = isqrt32((uint64_t)r2);
				for (c = top < vmax ? top : vmax; c >= 0; c --) {
					int64_t r3 = r2 - c * c;

					d = isqrt32((uint64_t)r3);
					if (d * d == r3 && d <= vmax) {
						v[u] = (int16_t)a;
						v[u + 1] = (int16_t)b;
						v[u + 2] = (int16_t)c;
						v[u + 3] = (int16_t)d;
						goto shuffle;
					}
				}
			}
		}
	}
	return 0;
shuffle:
	for (u = len; u > 1; u --) {
		size_t j = (size_t)(tu_rand64(&rs) % u);
		int16_t t = v[u - 1];

		v[u - 1] = v[j];
		v[j] = t;
	}
	for (u = 0; u < len; u ++) {
		if (tu_rand64(&rs) & 1) {
			v[u] = (int16_t)-v[u];
		}
	}
	return 1;
}

static void
test_norms(void)
{
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn), u;
		double b2 = 1.21 * sigma_pub[logn] * sigma_pub[logn]
			* 2.0 * (double)n;
		int trial;

		/* fa_l2bound = floor(1.1^2 sigma^2 2n). */
		CHECK(fa_l2bound[logn] == (uint32_t)b2, "l2bound logn %u: %u",
			logn, fa_l2bound[logn]);

		for (trial = 0; trial < 200; trial ++) {
			int16_t s1[1024], s2[1024];
			int32_t lim = (int32_t)isqrt32(
				3 * (uint64_t)fa_l2bound[logn] / (2 * n));
			uint64_t nr;
			uint32_t h1;

			for (u = 0; u < n; u ++) {
				s1[u] = (int16_t)rand_small(lim);
				s2[u] = (int16_t)rand_small(lim);
			}
			nr = ref_norm(s1, s2, n);
			CHECK(fa_is_short(s1, s2, logn) == (nr <= fa_l2bound[logn]),
				"is_short logn %u", logn);
			h1 = (uint32_t)ref_norm(NULL, s1, n);
			CHECK(fa_is_short_half(h1, s2, logn)
				== (nr <= fa_l2bound[logn]), "is_short_half logn %u",
				logn);
		}

		/* Exactly on the bound, and one above. */
		{
			int16_t v[2048];

			CHECK(exact_norm_vector(v, 2 * n, fa_l2bound[logn], 6144),
				"construct logn %u", logn);
			CHECK(ref_norm(v, v + n, n) == fa_l2bound[logn], "norm");
			CHECK(fa_is_short(v, v + n, logn) == 1, "at bound logn %u",
				logn);
			CHECK(exact_norm_vector(v, 2 * n, fa_l2bound[logn] + 1,
				6144), "construct logn %u", logn);
			CHECK(fa_is_short(v, v + n, logn) == 0,
				"bound + 1 logn %u", logn);
		}

		/* Saturation: 4 * 32768^2 = 2^32 would wrap to 0. */
		{
			int16_t s1[1024], s2[1024];

			memset(s1, 0, sizeof s1);
			memset(s2, 0, sizeof s2);
			s1[0] = s2[0] = s1[n - 1] = s2[n - 1] = -32768;
			CHECK(fa_is_short(s1, s2, logn) == 0, "wrap logn %u", logn);
			CHECK(fa_is_short_half(0xFFFFFFFFu, s2, logn) == 0,
				"saturated half logn %u", logn);
			memset(s2, 0, sizeof s2);
			CHECK(fa_is_short_half(0x80000000u, s2, logn) == 0,
				"2^31 half logn %u", logn);
			CHECK(fa_is_short_half(fa_l2bound[logn], s2, logn) == 1,
				"half at bound logn %u", logn);
			CHECK(fa_is_short_half(fa_l2bound[logn] + 1, s2, logn) == 0,
				"half above bound logn %u", logn);
			s2[n / 2] = -32768;
			CHECK(fa_is_short_half(0xC0000000u, s2, logn) == 0,
				"2^31+2^30 half logn %u", logn);
		}
	}
}

/* ------------------------------------------------------------------ */
/* verify_raw. */

/* c0 = s1 + s2*h mod q (reference). */
static void
ref_c0(uint16_t *c0, const int16_t *s1, const int16_t *s2,
	const uint16_t *h, size_t n)
{
	uint16_t sm[1024], t[1024];
	size_t u;

	for (u = 0; u < n; u ++) {
		sm[u] = (uint16_t)ref_mod(s2[u]);
	}
	ref_negamul_mq(t, sm, h, n);
	for (u = 0; u < n; u ++) {
		c0[u] = (uint16_t)ref_mod((int64_t)s1[u] + t[u]);
	}
}

static void
test_verify_raw(void)
{
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn), u;
		int8_t f[1024], g[1024];
		uint16_t h[1024], h_ntt[1024], c0[1024], tmp[1024];
		int16_t v[2048], *s1 = v, *s2 = v + n;
		int r;

		do {
			rand_small_poly(f, n, 30);
			rand_small_poly(g, n, 30);
		} while (!fa_compute_public(h, f, g, logn, (uint8_t *)tmp,
			&kern));
		memcpy(h_ntt, h, sizeof h);
		fa_to_ntt(h_ntt, logn, &kern);

		/* Norm exactly at the bound: accepted. */
		CHECK(exact_norm_vector(v, 2 * n, fa_l2bound[logn], 6144),
			"construct");
		/* s1 = -6144 (lowest centred value) where the norm allows. */
		for (u = 0; u < n; u ++) {
			if (s1[u] == 6144) {
				s1[u] = -6144;
			}
		}
		ref_c0(c0, s1, s2, h, n);
		r = fa_verify_raw(c0, s2, h_ntt, logn, (uint8_t *)tmp, &kern);
		CHECK(r == 1, "verify_raw at bound logn %u", logn);

		/* Tampered c0 (one coefficient + 1): s1 changes by one. */
		{
			uint64_t nr;
			int expect;
			int16_t old = s1[0];

			c0[0] = (uint16_t)((c0[0] + 1) % Q);
			/* New s1[0], centred: 6144 + 1 becomes -6144. */
			s1[0] = (int16_t)(old + 1 > 6144 ? old + 1 - (int)Q
				: old + 1);
			nr = ref_norm(s1, s2, n);
			expect = nr <= fa_l2bound[logn];
			r = fa_verify_raw(c0, s2, h_ntt, logn, (uint8_t *)tmp,
				&kern);
			CHECK(r == expect, "tampered c0 logn %u", logn);
			s1[0] = old;
			c0[0] = (uint16_t)((c0[0] + Q - 1) % Q);
		}

		/* Tampered s2: s1 = c0 - s2*h changes completely. */
		s2[n - 1] = (int16_t)(s2[n - 1] + 1);
		CHECK(fa_verify_raw(c0, s2, h_ntt, logn, (uint8_t *)tmp, &kern)
			== 0, "tampered s2 logn %u", logn);
		s2[n - 1] = (int16_t)(s2[n - 1] - 1);

		/* One above the bound: rejected. */
		CHECK(exact_norm_vector(v, 2 * n, fa_l2bound[logn] + 1, 6144),
			"construct");
		ref_c0(c0, s1, s2, h, n);
		CHECK(fa_verify_raw(c0, s2, h_ntt, logn, (uint8_t *)tmp, &kern)
			== 0, "verify_raw above bound logn %u", logn);

		/* Random small vectors: compare with the exact norm. */
		for (u = 0; u < 20; u ++) {
			size_t w;
			int32_t lim = (int32_t)isqrt32(
				3 * (uint64_t)fa_l2bound[logn] / (2 * n));

			for (w = 0; w < 2 * n; w ++) {
				v[w] = (int16_t)rand_small(lim);
			}
			ref_c0(c0, s1, s2, h, n);
			CHECK(fa_verify_raw(c0, s2, h_ntt, logn, (uint8_t *)tmp,
				&kern) == (ref_norm(s1, s2, n) <= fa_l2bound[logn]),
				"verify_raw random logn %u", logn);
		}

		/*
		 * s1 = 6144 everywhere, s2 = 0: ||s1||^2 = 9 * 2^22 * n, which
		 * is 9 * 2^32 (wraps to 0 without saturation) for n = 1024.
		 */
		for (u = 0; u < n; u ++) {
			s1[u] = 6144;
			s2[u] = 0;
		}
		ref_c0(c0, s1, s2, h, n);
		CHECK(fa_verify_raw(c0, s2, h_ntt, logn, (uint8_t *)tmp, &kern)
			== 0, "verify_raw saturation logn %u", logn);
	}
}

/* ------------------------------------------------------------------ */
/* NIST KAT vectors (first records of falcon512/1024-KAT.rsp). */

static int
hexv(int c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static size_t
unhex(uint8_t *dst, size_t max, const char *s)
{
	size_t n = 0;

	while (hexv(s[0]) >= 0 && hexv(s[1]) >= 0 && n < max) {
		dst[n ++] = (uint8_t)((hexv(s[0]) << 4) | hexv(s[1]));
		s += 2;
	}
	return n;
}

typedef struct {
	uint8_t pk[1793], sk[2305], sm[4000];
	size_t pk_len, sk_len, sm_len, mlen;
} kat_rec;

/* Read the next record; 1 on success. */
static int
kat_next(FILE *fp, kat_rec *r)
{
	static char line[16384];
	int have = 0;

	while (fgets(line, sizeof line, fp) != NULL) {
		if (strncmp(line, "mlen = ", 7) == 0) {
			r->mlen = (size_t)strtoul(line + 7, NULL, 10);
		} else if (strncmp(line, "pk = ", 5) == 0) {
			r->pk_len = unhex(r->pk, sizeof r->pk, line + 5);
		} else if (strncmp(line, "sk = ", 5) == 0) {
			r->sk_len = unhex(r->sk, sizeof r->sk, line + 5);
		} else if (strncmp(line, "sm = ", 5) == 0) {
			r->sm_len = unhex(r->sm, sizeof r->sm, line + 5);
			have = 1;
			break;
		}
	}
	return have;
}

static FILE *
kat_open(unsigned n)
{
	unsigned records;

	return tu_kat_open(n, &records);
}

static void
test_kat(void)
{
	unsigned logn;

	for (logn = 9; logn <= 10; logn ++) {
		size_t n = MKN(logn), u;
		unsigned fgb = FA_FG_BITS(logn);
		FILE *fp = kat_open(1u << logn);
		kat_rec *r;
		int rec;

		if (fp == NULL) {
			continue;
		}
		r = malloc(sizeof *r);
		for (rec = 0; rec < 3 && kat_next(fp, r); rec ++) {
			int8_t f[1024], g[1024], F[1024], G[1024];
			uint16_t h[1024], h2[1024], c0[1024], tmp[2048];
			int16_t s2[1024];
			int64_t a[1024], b[1024], fG[1024], gF[1024];
			const uint8_t *p;
			size_t off, siglen;
			int ok, eq;
			fa_shake256_ctx sc;

			/* sk = 0x50+logn | f | g | F. */
			CHECK(r->sk[0] == 0x50 + logn, "sk header");
			off = 1;
			CHECK(fa_trim_i8_decode(f, logn, fgb, r->sk + off,
				r->sk_len - off) == (int)(fgb * n / 8), "f");
			off += fgb * n / 8;
			CHECK(fa_trim_i8_decode(g, logn, fgb, r->sk + off,
				r->sk_len - off) == (int)(fgb * n / 8), "g");
			off += fgb * n / 8;
			CHECK(fa_trim_i8_decode(F, logn, 8, r->sk + off,
				r->sk_len - off) == (int)n, "F");
			/* pk = 0x00+logn | h. */
			CHECK(r->pk[0] == logn, "pk header");
			CHECK(fa_modq_decode(h, logn, r->pk + 1, r->pk_len - 1)
				== (int)(r->pk_len - 1), "h");

			/* h = g/f. */
			ok = fa_compute_public(h2, f, g, logn, (uint8_t *)tmp,
				&kern);
			CHECK(ok && memcmp(h, h2, n * 2) == 0,
				"KAT compute_public n=%zu rec %d", n, rec);

			/* G from f, g, F; then fG - gF = q exactly. */
			ok = fa_complete_private(G, f, g, F, logn, (uint8_t *)tmp,
				&kern);
			CHECK(ok, "KAT complete_private");
			for (u = 0; u < n; u ++) { a[u] = f[u]; b[u] = G[u]; }
			ref_negamul(fG, a, b, n);
			for (u = 0; u < n; u ++) { a[u] = g[u]; b[u] = F[u]; }
			ref_negamul(gF, a, b, n);
			eq = fG[0] - gF[0] == (int64_t)Q;
			for (u = 1; u < n; u ++) {
				eq &= fG[u] == gF[u];
			}
			CHECK(eq, "KAT fG - gF = q n=%zu rec %d", n, rec);

			/*
			 * sm = siglen (2 bytes, big-endian) | nonce (40) | msg |
			 * 0x20+logn | compressed s2; siglen counts the header
			 * byte and s2.
			 */
			p = r->sm;
			siglen = ((size_t)p[0] << 8) | p[1];
			CHECK(2 + 40 + r->mlen + siglen == r->sm_len, "sm length");
			CHECK(p[2 + 40 + r->mlen] == 0x20 + logn, "sig header");
			off = 2 + 40 + r->mlen + 1;
			CHECK(fa_comp_decode(s2, logn, p + off, r->sm_len - off)
				== (int)(r->sm_len - off), "s2");

			fa_shake256_init(&sc);
			fa_shake256_inject(&sc, p + 2, 40);
			fa_shake256_inject(&sc, p + 42, r->mlen);
			fa_shake256_flip(&sc);
			fa_hash_to_point_vartime(&sc, c0, logn);

			memcpy(h2, h, sizeof h);
			fa_to_ntt(h2, logn, &kern);
			CHECK(fa_verify_raw(c0, s2, h2, logn, (uint8_t *)tmp, &kern)
				== 1, "KAT verify n=%zu rec %d", n, rec);

			/* Another message: rejected. */
			fa_shake256_init(&sc);
			fa_shake256_inject(&sc, p + 2, 40);
			fa_shake256_inject(&sc, "other", 5);
			fa_shake256_flip(&sc);
			fa_hash_to_point_vartime(&sc, c0, logn);
			CHECK(fa_verify_raw(c0, s2, h2, logn, (uint8_t *)tmp, &kern)
				== 0, "KAT wrong message n=%zu rec %d", n, rec);
		}
		CHECK(rec == 3, "KAT records read: %d", rec);
		free(r);
		fclose(fp);
	}
}

/* ------------------------------------------------------------------ */

static double
now_ns(void)
{
	struct timespec ts;

	timespec_get(&ts, TIME_UTC);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* `test_ntt bench`: timings (not a test). */
static void
bench(void)
{
	unsigned logn;

	for (logn = 9; logn <= 10; logn ++) {
		size_t n = MKN(logn);
		uint16_t a[1024], b[1024], c0[1024], tmp[1024];
		int16_t s2[1024];
		int i, iter = 20000;
		double t0, t1, t2, t3, t4;
		volatile int sink = 0;

		rand_mq(a, n);
		rand_mq(b, n);
		rand_mq(c0, n);
		memset(s2, 0, sizeof s2);
		t0 = now_ns();
		for (i = 0; i < iter; i ++) {
			fa_mq_ntt_portable(a, logn);
		}
		t1 = now_ns();
		for (i = 0; i < iter; i ++) {
			fa_mq_intt_portable(a, logn);
		}
		t2 = now_ns();
		for (i = 0; i < iter; i ++) {
			fa_mq_poly_mul_ntt_portable(a, b, logn);
		}
		t3 = now_ns();
		for (i = 0; i < iter / 4; i ++) {
			sink += fa_verify_raw(c0, s2, b, logn, (uint8_t *)tmp,
				&kern);
		}
		t4 = now_ns();
		(void)sink;
		printf("n=%4zu ntt %7.0f ns  intt %7.0f ns  pointwise mul %6.0f ns"
			"  verify_raw %7.0f ns\n", n, (t1 - t0) / iter,
			(t2 - t1) / iter, (t3 - t2) / iter, (t4 - t3) / (iter / 4));
	}
}

int
main(int argc, char **argv)
{
	init_kernels();
	if (argc > 1 && strcmp(argv[1], "bench") == 0) {
		bench();
		return 0;
	}
	test_ntt_definition();
	test_products();
	test_compute_public();
	test_complete_private();
	test_norms();
	test_verify_raw();
	test_kat();
	return tu_finish("test_ntt");
}
