/*
 * test_fft.c -- the portable FFT and FFT-domain operations against their
 * mathematical definitions (long double evaluation of polynomials at the
 * roots of x^n+1, negacyclic products), for every logn 1..10.
 */
#include <math.h>

#include "inner.h"
#include "test_util.h"

static unsigned brv(unsigned k, unsigned bits)
{
	unsigned r = 0, i;

	for (i = 0; i < bits; i ++) {
		r = (r << 1) | ((k >> i) & 1);
	}
	return r;
}

static double as_double(fpr x)
{
	uint64_t b = fpr_bits(x);
	double d;

	memcpy(&d, &b, sizeof d);
	return d;
}

/* max |FFT(f)[j] - f(w_j)| over j, with w_j = exp(i pi (2 brv(j)+1)/n).
   w_j^u = exp(i pi m / n) with m = (2 brv(j)+1) u mod 2n: one table of
   2n long double cosines/sines, no accumulated error. */
static long double fft_error(const fpr *fft, const double *f, unsigned logn)
{
	static long double ct[2048], st[2048];
	size_t n = MKN(logn), hn = n >> 1, j, u;
	long double worst = 0;
	const long double pi = 3.141592653589793238462643383279502884L;

	for (u = 0; u < 2 * n; u ++) {
		ct[u] = cosl(pi * (long double)u / (long double)n);
		st[u] = sinl(pi * (long double)u / (long double)n);
	}
	for (j = 0; j < hn; j ++) {
		size_t e = 2 * brv((unsigned)j, logn) + 1;
		long double re = 0, im = 0;

		for (u = 0; u < n; u ++) {
			size_t m = (e * u) % (2 * n);

			re += f[u] * ct[m];
			im += f[u] * st[m];
		}
		re = fabsl(re - (long double)as_double(fft[j]));
		im = fabsl(im - (long double)as_double(fft[j + hn]));
		if (re > worst) worst = re;
		if (im > worst) worst = im;
	}
	return worst;
}

static void rand_poly(double *d, fpr *f, unsigned logn, uint64_t *s, int scale)
{
	size_t u, n = MKN(logn);

	for (u = 0; u < n; u ++) {
		int64_t v = (int64_t)(tu_rand64(s) % (2 * scale + 1)) - scale;

		d[u] = (double)v;
		f[u] = fpr_of(v);
	}
}

/* negacyclic product of integer polynomials (exact in double for small
   values). */
static void negamul(double *c, const double *a, const double *b, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i ++) c[i] = 0;
	for (i = 0; i < n; i ++) {
		for (j = 0; j < n; j ++) {
			if (i + j < n) c[i + j] += a[i] * b[j];
			else c[i + j - n] -= a[i] * b[j];
		}
	}
}

int main(void)
{
	static fpr f[1024], g[1024], h[1024], f0[512], f1[512];
	static double df[1024], dg[1024], dc[1024];
	uint64_t seed = 0x1234567;
	unsigned logn;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn), u;
		int rep;

		for (rep = 0; rep < 3; rep ++) {
			double worst = 0;

			rand_poly(df, f, logn, &seed, 200);
			memcpy(h, f, sizeof f);
			fa_fft_portable(h, logn);
			/* FFT vs direct evaluation (|f| <= 200 * n terms) */
			CHECK(fft_error(h, df, logn) < 1e-9L * n, "fft logn=%u", logn);

			/* inverse: back to the integers exactly after rounding,
			   and close before */
			fa_ifft_portable(h, logn);
			for (u = 0; u < n; u ++) {
				double e = fabs(as_double(h[u]) - df[u]);
				if (e > worst) worst = e;
			}
			CHECK(worst < 1e-9, "ifft(fft) logn=%u err=%g", logn, worst);

			/* product in FFT form == negacyclic convolution */
			rand_poly(dg, g, logn, &seed, 200);
			memcpy(h, f, sizeof f);
			fa_fft_portable(h, logn);
			fa_fft_portable(g, logn);
			fa_poly_mul_fft_portable(h, g, logn);
			fa_ifft_portable(h, logn);
			negamul(dc, df, dg, n);
			worst = 0;
			for (u = 0; u < n; u ++) {
				double e = fabs(as_double(h[u]) - dc[u]);
				if (e > worst) worst = e;
			}
			CHECK(worst < 1e-6, "mul_fft logn=%u err=%g", logn, worst);

			/* split then merge is the identity (up to rounding), and
			   split matches f(x) = f0(x^2) + x f1(x^2) */
			memcpy(h, f, sizeof f);
			fa_fft_portable(h, logn);
			fa_poly_split_fft_portable(f0, f1, h, logn);
			fa_ifft_portable(f0, logn - 1 ? logn - 1 : 0);
			fa_ifft_portable(f1, logn - 1 ? logn - 1 : 0);
			worst = 0;
			for (u = 0; u < n / 2; u ++) {
				double e0 = fabs(as_double(f0[u]) - df[2 * u]);
				double e1 = fabs(as_double(f1[u]) - df[2 * u + 1]);
				if (e0 > worst) worst = e0;
				if (e1 > worst) worst = e1;
			}
			CHECK(worst < 1e-9, "split logn=%u err=%g", logn, worst);
			fa_fft_portable(f0, logn - 1 ? logn - 1 : 0);
			fa_fft_portable(f1, logn - 1 ? logn - 1 : 0);
			fa_poly_merge_fft_portable(g, f0, f1, logn);
			fa_ifft_portable(g, logn);
			worst = 0;
			for (u = 0; u < n; u ++) {
				double e = fabs(as_double(g[u]) - df[u]);
				if (e > worst) worst = e;
			}
			CHECK(worst < 1e-9, "merge logn=%u err=%g", logn, worst);

			/* adj: adj(f)(x) = f(1/x) = f0 - f_{n-1} x - ... */
			memcpy(h, f, sizeof f);
			fa_fft_portable(h, logn);
			fa_poly_adj_fft_portable(h, logn);
			fa_ifft_portable(h, logn);
			worst = fabs(as_double(h[0]) - df[0]);
			for (u = 1; u < n; u ++) {
				double e = fabs(as_double(h[u]) + df[n - u]);
				if (e > worst) worst = e;
			}
			CHECK(worst < 1e-9, "adj logn=%u err=%g", logn, worst);

			/* div then mul returns the numerator */
			memcpy(h, f, sizeof f);
			rand_poly(dg, g, logn, &seed, 50);
			g[0] = fpr_of(1000);  /* keep the divisor invertible */
			fa_fft_portable(h, logn);
			fa_fft_portable(g, logn);
			fa_poly_div_fft_portable(h, g, logn);
			fa_poly_mul_fft_portable(h, g, logn);
			fa_ifft_portable(h, logn);
			worst = 0;
			for (u = 0; u < n; u ++) {
				double e = fabs(as_double(h[u]) - df[u]);
				if (e > worst) worst = e;
			}
			CHECK(worst < 1e-6, "div logn=%u err=%g", logn, worst);
		}
	}
	return tu_finish("test_fft");
}
