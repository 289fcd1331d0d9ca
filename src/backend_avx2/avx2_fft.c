/*
 * avx2_fft.c -- FFT, inverse FFT and FFT-domain vector operations with
 * AVX2 (four binary64 lanes per register).
 *
 * Bit-exactness: every output value is computed by exactly the same
 * sequence of IEEE-754 operations (same operands, same association) as
 * in src/fft.c; only the order in which independent values are computed
 * changes. No fused multiply-add is used (it would round once where the
 * portable code rounds twice). Operand order inside one addition or
 * multiplication does not matter (both are commutative in IEEE-754,
 * signed zeros included), so a*b is written freely as b*a.
 *
 * Layout (src/kernels.h): FFT slot j < n/2 has its real part at f[j] and
 * its imaginary part at f[j + n/2]. A vector holds four consecutive real
 * parts (or imaginary parts). The two last FFT levels pair values at
 * distance 2 and 1 inside a vector; they are reordered with in-lane
 * shuffles (unpack) or 128-bit swaps (permute2f128) as described at each
 * level.
 *
 * Twiddles: fa_fft_roots[2k], [2k+1] are cos and sin of root k
 * (interleaved). Loading four doubles at root k gives
 * [c_k, s_k, c_{k+1}, s_{k+1}].
 */

#include <immintrin.h>

#include "avx2_inner.h"

typedef __m256d v4;

static inline v4 ld(const fpr *p)
{
	return _mm256_loadu_pd(p);
}

static inline void st(fpr *p, v4 x)
{
	_mm256_storeu_pd(p, x);
}

/* Four doubles from the root table at root k: [c_k, s_k, c_k+1, s_k+1]. */
static inline v4 ld_roots(size_t k)
{
	return _mm256_loadu_pd((const double *)(const void *)&fa_fft_roots[2 * k]);
}

static inline v4 bcast(uint64_t bits)
{
	return _mm256_set1_pd(fpr_from_bits(bits));
}

static inline v4 vneg(v4 x)
{
	/* exact negation: flip the sign bit, as fpr_neg (-x) does */
	return _mm256_xor_pd(x, _mm256_set1_pd(-0.0));
}

/* Complex products on interleaved pairs: d = [re, im, ...] times
   w = [c, s, ...] as addsub(d*[c c], swap(d)*[s s]) =
   [d_re c - d_im s, d_im c + d_re s], the portable CMUL operations (the
   imaginary sum in the other order, the same value). Four lanes (two
   slots) and two lanes (one slot). */
static inline v4 cmul_pairs(v4 d, v4 w)
{
	v4 c = _mm256_movedup_pd(w);            /* [c0 c0 c1 c1] */
	v4 sn = _mm256_permute_pd(w, 0xF);      /* [s0 s0 s1 s1] */

	return _mm256_addsub_pd(_mm256_mul_pd(d, c),
		_mm256_mul_pd(_mm256_permute_pd(d, 0x5), sn));
}

static inline __m128d cmul_pair(__m128d d, __m128d w)
{
	__m128d c = _mm_movedup_pd(w);
	__m128d sn = _mm_permute_pd(w, 0x3);

	return _mm_addsub_pd(_mm_mul_pd(d, c),
		_mm_mul_pd(_mm_permute_pd(d, 0x1), sn));
}

/* (dr, di) = (ar + i ai)(br + i bi): dr = ar*br - ai*bi,
   di = ar*bi + ai*br (the portable CMUL). */
#define VCMUL(dr, di, ar, ai, br, bi) do { \
		v4 vc_ar = (ar), vc_ai = (ai), vc_br = (br), vc_bi = (bi); \
		(dr) = _mm256_sub_pd(_mm256_mul_pd(vc_ar, vc_br), \
			_mm256_mul_pd(vc_ai, vc_bi)); \
		(di) = _mm256_add_pd(_mm256_mul_pd(vc_ar, vc_bi), \
			_mm256_mul_pd(vc_ai, vc_br)); \
	} while (0)

/* ------------------------------------------------------------------ */
/* Forward FFT. Level u (m = 2^u) pairs slots at distance ht = n/2^(u+1)
   inside blocks of t = 2*ht slots; block b uses root[m + b]. */

/* One level with ht >= 4: whole vectors, one broadcast twiddle per block. */
static void fft_level_wide(fpr *f, size_t hn, size_t m, size_t ht)
{
	size_t b, j;

	for (b = 0; b < (m >> 1); b ++) {
		size_t j1 = b * (ht << 1);
		v4 sr = bcast(fa_fft_roots[2 * (m + b)]);
		v4 si = bcast(fa_fft_roots[2 * (m + b) + 1]);

		for (j = j1; j < j1 + ht; j += 4) {
			v4 xr = ld(f + j), xi = ld(f + j + hn);
			v4 yr = ld(f + j + ht), yi = ld(f + j + ht + hn);
			v4 tr, ti;

			VCMUL(tr, ti, yr, yi, sr, si);
			st(f + j, _mm256_add_pd(xr, tr));
			st(f + j + hn, _mm256_add_pd(xi, ti));
			st(f + j + ht, _mm256_sub_pd(xr, tr));
			st(f + j + ht + hn, _mm256_sub_pd(xi, ti));
		}
	}
}

/*
 * Level with ht = 2 (m = hn/2): blocks of 4 slots [x0 x1 y0 y1]. Two
 * blocks b, b+1 (vectors A, B) give X = [A0 A1 B0 B1], Y = [A2 A3 B2 B3]
 * (permute2f128) and the twiddles [s_b s_b s_b+1 s_b+1] (unpack of the
 * root load with itself).
 */
static void fft_level_ht2(fpr *f, size_t hn)
{
	size_t m = hn >> 1, b;

	for (b = 0; b < (m >> 1); b += 2) {
		size_t j = 4 * b;
		v4 rt = ld_roots(m + b);
		v4 sr = _mm256_unpacklo_pd(rt, rt), si = _mm256_unpackhi_pd(rt, rt);
		v4 ar = ld(f + j), br = ld(f + j + 4);
		v4 ai = ld(f + j + hn), bi = ld(f + j + 4 + hn);
		v4 xr = _mm256_permute2f128_pd(ar, br, 0x20);
		v4 yr = _mm256_permute2f128_pd(ar, br, 0x31);
		v4 xi = _mm256_permute2f128_pd(ai, bi, 0x20);
		v4 yi = _mm256_permute2f128_pd(ai, bi, 0x31);
		v4 tr, ti, ur, ui, vr, vi;

		VCMUL(tr, ti, yr, yi, sr, si);
		ur = _mm256_add_pd(xr, tr);
		ui = _mm256_add_pd(xi, ti);
		vr = _mm256_sub_pd(xr, tr);
		vi = _mm256_sub_pd(xi, ti);
		st(f + j, _mm256_permute2f128_pd(ur, vr, 0x20));
		st(f + j + 4, _mm256_permute2f128_pd(ur, vr, 0x31));
		st(f + j + hn, _mm256_permute2f128_pd(ui, vi, 0x20));
		st(f + j + 4 + hn, _mm256_permute2f128_pd(ui, vi, 0x31));
	}
}

/*
 * Last level, ht = 1 (m = hn): blocks of 2 slots [x y]. Four blocks
 * b..b+3 (vectors A = [x_b y_b x_b+1 y_b+1], B) give
 * X = unpacklo(A, B) = [x_b x_b+2 x_b+1 x_b+3], Y = unpackhi(A, B), and
 * the same unpack of two root loads gives the twiddles in that order.
 * unpacklo/unpackhi of the results restore the layout.
 */
static void fft_level_ht1(fpr *f, size_t hn)
{
	size_t m = hn, b;

	for (b = 0; b < (m >> 1); b += 4) {
		size_t j = 2 * b;
		v4 r1 = ld_roots(m + b), r2 = ld_roots(m + b + 2);
		v4 sr = _mm256_unpacklo_pd(r1, r2), si = _mm256_unpackhi_pd(r1, r2);
		v4 ar = ld(f + j), br = ld(f + j + 4);
		v4 ai = ld(f + j + hn), bi = ld(f + j + 4 + hn);
		v4 xr = _mm256_unpacklo_pd(ar, br), yr = _mm256_unpackhi_pd(ar, br);
		v4 xi = _mm256_unpacklo_pd(ai, bi), yi = _mm256_unpackhi_pd(ai, bi);
		v4 tr, ti, ur, ui, vr, vi;

		VCMUL(tr, ti, yr, yi, sr, si);
		ur = _mm256_add_pd(xr, tr);
		ui = _mm256_add_pd(xi, ti);
		vr = _mm256_sub_pd(xr, tr);
		vi = _mm256_sub_pd(xi, ti);
		st(f + j, _mm256_unpacklo_pd(ur, vr));
		st(f + j + 4, _mm256_unpackhi_pd(ur, vr));
		st(f + j + hn, _mm256_unpacklo_pd(ui, vi));
		st(f + j + 4 + hn, _mm256_unpackhi_pd(ui, vi));
	}
}

int fa_fft_avx2(fpr *f, unsigned logn)
{
	size_t hn, ht, m;
	unsigned u;

	if (logn < 4) {
		return FA_KERNEL_FALLBACK;
	}
	hn = MKN(logn) >> 1;
	ht = hn;
	for (u = 1, m = 2; u < logn; u ++, m <<= 1) {
		ht >>= 1;
		if (ht >= 4) {
			fft_level_wide(f, hn, m, ht);
		} else if (ht == 2) {
			fft_level_ht2(f, hn);
		} else {
			fft_level_ht1(f, hn);
		}
	}
	return FA_KERNEL_DONE;
}

/* ------------------------------------------------------------------ */
/* Inverse FFT: levels u = logn-1 .. 1, x = c[j], y = c[j+ht];
   c[j] = x + y; c[j+ht] = (x - y) * conj(s), s = root[m + b]; then
   every value times 2/n. The scaling is folded into level 1: the same
   multiplication, applied to each value right after its last butterfly. */

/* Butterfly on vectors; conj(s) = (sr, nsi) with nsi = -s_im. */
#define IBFLY(xr, xi, yr, yi, sr, nsi) do { \
		v4 ib_dr = _mm256_sub_pd(xr, yr), ib_di = _mm256_sub_pd(xi, yi); \
		(xr) = _mm256_add_pd(xr, yr); \
		(xi) = _mm256_add_pd(xi, yi); \
		VCMUL(yr, yi, ib_dr, ib_di, sr, nsi); \
	} while (0)

static void ifft_level_wide(fpr *f, size_t hn, size_t m, size_t ht)
{
	size_t b, j;

	for (b = 0; b < (m >> 1); b ++) {
		size_t j1 = b * (ht << 1);
		v4 sr = bcast(fa_fft_roots[2 * (m + b)]);
		v4 nsi = vneg(bcast(fa_fft_roots[2 * (m + b) + 1]));

		for (j = j1; j < j1 + ht; j += 4) {
			v4 xr = ld(f + j), xi = ld(f + j + hn);
			v4 yr = ld(f + j + ht), yi = ld(f + j + ht + hn);

			IBFLY(xr, xi, yr, yi, sr, nsi);
			st(f + j, xr);
			st(f + j + hn, xi);
			st(f + j + ht, yr);
			st(f + j + ht + hn, yi);
		}
	}
}

/* Level 1 (m = 2, one block, ht = hn/2) with the final 2/n scaling. */
static void ifft_level_last_scaled(fpr *f, size_t hn, v4 scale)
{
	size_t j, ht = hn >> 1;
	v4 sr = bcast(fa_fft_roots[2 * 2]);
	v4 nsi = vneg(bcast(fa_fft_roots[2 * 2 + 1]));

	for (j = 0; j < ht; j += 4) {
		v4 xr = ld(f + j), xi = ld(f + j + hn);
		v4 yr = ld(f + j + ht), yi = ld(f + j + ht + hn);

		IBFLY(xr, xi, yr, yi, sr, nsi);
		st(f + j, _mm256_mul_pd(xr, scale));
		st(f + j + hn, _mm256_mul_pd(xi, scale));
		st(f + j + ht, _mm256_mul_pd(yr, scale));
		st(f + j + ht + hn, _mm256_mul_pd(yi, scale));
	}
}

/* ht = 2, same data movement as fft_level_ht2. */
static void ifft_level_ht2(fpr *f, size_t hn)
{
	size_t m = hn >> 1, b;

	for (b = 0; b < (m >> 1); b += 2) {
		size_t j = 4 * b;
		v4 rt = ld_roots(m + b);
		v4 sr = _mm256_unpacklo_pd(rt, rt);
		v4 nsi = vneg(_mm256_unpackhi_pd(rt, rt));
		v4 ar = ld(f + j), br = ld(f + j + 4);
		v4 ai = ld(f + j + hn), bi = ld(f + j + 4 + hn);
		v4 xr = _mm256_permute2f128_pd(ar, br, 0x20);
		v4 yr = _mm256_permute2f128_pd(ar, br, 0x31);
		v4 xi = _mm256_permute2f128_pd(ai, bi, 0x20);
		v4 yi = _mm256_permute2f128_pd(ai, bi, 0x31);

		IBFLY(xr, xi, yr, yi, sr, nsi);
		st(f + j, _mm256_permute2f128_pd(xr, yr, 0x20));
		st(f + j + 4, _mm256_permute2f128_pd(xr, yr, 0x31));
		st(f + j + hn, _mm256_permute2f128_pd(xi, yi, 0x20));
		st(f + j + 4 + hn, _mm256_permute2f128_pd(xi, yi, 0x31));
	}
}

/* ht = 1, same data movement as fft_level_ht1. */
static void ifft_level_ht1(fpr *f, size_t hn)
{
	size_t m = hn, b;

	for (b = 0; b < (m >> 1); b += 4) {
		size_t j = 2 * b;
		v4 r1 = ld_roots(m + b), r2 = ld_roots(m + b + 2);
		v4 sr = _mm256_unpacklo_pd(r1, r2);
		v4 nsi = vneg(_mm256_unpackhi_pd(r1, r2));
		v4 ar = ld(f + j), br = ld(f + j + 4);
		v4 ai = ld(f + j + hn), bi = ld(f + j + 4 + hn);
		v4 xr = _mm256_unpacklo_pd(ar, br), yr = _mm256_unpackhi_pd(ar, br);
		v4 xi = _mm256_unpacklo_pd(ai, bi), yi = _mm256_unpackhi_pd(ai, bi);

		IBFLY(xr, xi, yr, yi, sr, nsi);
		st(f + j, _mm256_unpacklo_pd(xr, yr));
		st(f + j + 4, _mm256_unpackhi_pd(xr, yr));
		st(f + j + hn, _mm256_unpacklo_pd(xi, yi));
		st(f + j + 4 + hn, _mm256_unpackhi_pd(xi, yi));
	}
}

int fa_ifft_avx2(fpr *f, unsigned logn)
{
	size_t hn, ht, m;
	unsigned u;

	if (logn < 4) {
		return FA_KERNEL_FALLBACK;
	}
	hn = MKN(logn) >> 1;
	for (u = logn - 1, m = hn, ht = 1; u >= 2; u --, m >>= 1, ht <<= 1) {
		if (ht == 1) {
			ifft_level_ht1(f, hn);
		} else if (ht == 2) {
			ifft_level_ht2(f, hn);
		} else {
			ifft_level_wide(f, hn, m, ht);
		}
	}
	/* 2/n = 2^(1-logn), exact (logn >= 4 here). */
	ifft_level_last_scaled(f, hn, _mm256_set1_pd(fpr_scaled(1, 1 - (int)logn)));
	return FA_KERNEL_DONE;
}

/* ------------------------------------------------------------------ */
/* Vector operations. n >= 8 (logn >= 3) for the vector paths, so that
   n/2 complex slots fill whole vectors. */

int fa_poly_add_avx2(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, n = MKN(logn);

	if (logn < 3) {
		if (logn == 2) {
			st(a, _mm256_add_pd(ld(a), ld(b)));
		} else if (logn == 1) {
			_mm_storeu_pd(a, _mm_add_pd(_mm_loadu_pd(a), _mm_loadu_pd(b)));
		} else {
			return FA_KERNEL_FALLBACK;
		}
		return FA_KERNEL_DONE;
	}
	for (u = 0; u < n; u += 4) {
		st(a + u, _mm256_add_pd(ld(a + u), ld(b + u)));
	}
	return FA_KERNEL_DONE;
}

int fa_poly_sub_avx2(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, n = MKN(logn);

	if (logn < 3) {
		if (logn == 2) {
			st(a, _mm256_sub_pd(ld(a), ld(b)));
		} else if (logn == 1) {
			_mm_storeu_pd(a, _mm_sub_pd(_mm_loadu_pd(a), _mm_loadu_pd(b)));
		} else {
			return FA_KERNEL_FALLBACK;
		}
		return FA_KERNEL_DONE;
	}
	for (u = 0; u < n; u += 4) {
		st(a + u, _mm256_sub_pd(ld(a + u), ld(b + u)));
	}
	return FA_KERNEL_DONE;
}

int fa_poly_neg_avx2(fpr *a, unsigned logn)
{
	size_t u, n = MKN(logn);

	if (logn < 3) {
		return FA_KERNEL_FALLBACK;
	}
	for (u = 0; u < n; u += 4) {
		st(a + u, vneg(ld(a + u)));
	}
	return FA_KERNEL_DONE;
}

int fa_poly_adj_fft_avx2(fpr *a, unsigned logn)
{
	size_t u, n = MKN(logn);

	if (logn < 3) {
		return FA_KERNEL_FALLBACK;
	}
	for (u = n >> 1; u < n; u += 4) {
		st(a + u, vneg(ld(a + u)));
	}
	return FA_KERNEL_DONE;
}

int fa_poly_mul_fft_avx2(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	if (logn < 3) {
		if (logn == 2) {
			/* two slots: [re0 re1], [im0 im1] */
			__m128d ar = _mm_loadu_pd(a), ai = _mm_loadu_pd(a + 2);
			__m128d br = _mm_loadu_pd(b), bi = _mm_loadu_pd(b + 2);

			_mm_storeu_pd(a, _mm_sub_pd(_mm_mul_pd(ar, br),
				_mm_mul_pd(ai, bi)));
			_mm_storeu_pd(a + 2, _mm_add_pd(_mm_mul_pd(ar, bi),
				_mm_mul_pd(ai, br)));
		} else if (logn == 1) {
			/* one slot [re, im] */
			_mm_storeu_pd(a, cmul_pair(_mm_loadu_pd(a),
				_mm_loadu_pd(b)));
		} else {
			return FA_KERNEL_FALLBACK;
		}
		return FA_KERNEL_DONE;
	}
	for (u = 0; u < hn; u += 4) {
		v4 dr, di;

		VCMUL(dr, di, ld(a + u), ld(a + u + hn), ld(b + u), ld(b + u + hn));
		st(a + u, dr);
		st(a + u + hn, di);
	}
	return FA_KERNEL_DONE;
}

/* a * conj(b): re = ar*br + ai*bi, im = ai*br - ar*bi. */
int fa_poly_muladj_fft_avx2(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	if (logn < 3) {
		return FA_KERNEL_FALLBACK;
	}
	for (u = 0; u < hn; u += 4) {
		v4 ar = ld(a + u), ai = ld(a + u + hn);
		v4 br = ld(b + u), bi = ld(b + u + hn);

		st(a + u, _mm256_add_pd(_mm256_mul_pd(ar, br),
			_mm256_mul_pd(ai, bi)));
		st(a + u + hn, _mm256_sub_pd(_mm256_mul_pd(ai, br),
			_mm256_mul_pd(ar, bi)));
	}
	return FA_KERNEL_DONE;
}

/* |a|^2: re = ar^2 + ai^2, im = +0. */
int fa_poly_mulselfadj_fft_avx2(fpr *a, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	if (logn < 3) {
		return FA_KERNEL_FALLBACK;
	}
	for (u = 0; u < hn; u += 4) {
		v4 ar = ld(a + u), ai = ld(a + u + hn);

		st(a + u, _mm256_add_pd(_mm256_mul_pd(ar, ar),
			_mm256_mul_pd(ai, ai)));
		st(a + u + hn, _mm256_setzero_pd());
	}
	return FA_KERNEL_DONE;
}

int fa_poly_mulconst_avx2(fpr *a, fpr x, unsigned logn)
{
	size_t u, n = MKN(logn);
	v4 vx;

	if (logn < 3) {
		return FA_KERNEL_FALLBACK;
	}
	vx = _mm256_set1_pd(x);
	for (u = 0; u < n; u += 4) {
		st(a + u, _mm256_mul_pd(ld(a + u), vx));
	}
	return FA_KERNEL_DONE;
}

/* w = 1/(br^2 + bi^2); re = (ar*br + ai*bi)*w, im = (ai*br - ar*bi)*w. */
int fa_poly_div_fft_avx2(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;
	v4 one = _mm256_set1_pd(1.0);

	if (logn < 3) {
		return FA_KERNEL_FALLBACK;
	}
	for (u = 0; u < hn; u += 4) {
		v4 ar = ld(a + u), ai = ld(a + u + hn);
		v4 br = ld(b + u), bi = ld(b + u + hn);
		v4 w = _mm256_div_pd(one, _mm256_add_pd(_mm256_mul_pd(br, br),
			_mm256_mul_pd(bi, bi)));

		st(a + u, _mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(ar, br),
			_mm256_mul_pd(ai, bi)), w));
		st(a + u + hn, _mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(ai, br),
			_mm256_mul_pd(ar, bi)), w));
	}
	return FA_KERNEL_DONE;
}

/* d = 1/((ar^2 + ai^2) + (br^2 + bi^2)). */
int fa_poly_invnorm2_fft_avx2(fpr *d, const fpr *a, const fpr *b,
	unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;
	v4 one = _mm256_set1_pd(1.0);

	if (logn < 3) {
		return FA_KERNEL_FALLBACK;
	}
	for (u = 0; u < hn; u += 4) {
		v4 ar = ld(a + u), ai = ld(a + u + hn);
		v4 br = ld(b + u), bi = ld(b + u + hn);
		v4 na = _mm256_add_pd(_mm256_mul_pd(ar, ar), _mm256_mul_pd(ai, ai));
		v4 nb = _mm256_add_pd(_mm256_mul_pd(br, br), _mm256_mul_pd(bi, bi));

		st(d + u, _mm256_div_pd(one, _mm256_add_pd(na, nb)));
	}
	return FA_KERNEL_DONE;
}

int fa_poly_mul_autoadj_fft_avx2(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	if (logn < 3) {
		return FA_KERNEL_FALLBACK;
	}
	for (u = 0; u < hn; u += 4) {
		v4 bv = ld(b + u);

		st(a + u, _mm256_mul_pd(ld(a + u), bv));
		st(a + u + hn, _mm256_mul_pd(ld(a + u + hn), bv));
	}
	return FA_KERNEL_DONE;
}

int fa_poly_div_autoadj_fft_avx2(fpr *a, const fpr *b, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;
	v4 one = _mm256_set1_pd(1.0);

	if (logn < 3) {
		return FA_KERNEL_FALLBACK;
	}
	for (u = 0; u < hn; u += 4) {
		v4 w = _mm256_div_pd(one, ld(b + u));

		st(a + u, _mm256_mul_pd(ld(a + u), w));
		st(a + u + hn, _mm256_mul_pd(ld(a + u + hn), w));
	}
	return FA_KERNEL_DONE;
}

/*
 * LDL slot (src/fft.c, ldl_slot): w = 1/g00_re; mu = g01*w;
 * p = mu*adj(g01): p_re = mu_re*g01_re + mu_im*g01_im,
 * p_im = mu_im*g01_re - mu_re*g01_im; d11 = g11 - p; l10 = adj(mu).
 * All inputs of four slots are loaded before any store, so d11/l10 may
 * alias g11/g01 (and g00 may alias g11).
 */
static inline void ldl_vec(fpr *d11, fpr *l10, const fpr *g00,
	const fpr *g01, const fpr *g11, size_t u, size_t hn)
{
	v4 one = _mm256_set1_pd(1.0);
	v4 g00r = ld(g00 + u);
	v4 g01r = ld(g01 + u), g01i = ld(g01 + u + hn);
	v4 g11r = ld(g11 + u), g11i = ld(g11 + u + hn);
	v4 w = _mm256_div_pd(one, g00r);
	v4 mur = _mm256_mul_pd(g01r, w), mui = _mm256_mul_pd(g01i, w);
	v4 pr = _mm256_add_pd(_mm256_mul_pd(mur, g01r), _mm256_mul_pd(mui, g01i));
	v4 pi = _mm256_sub_pd(_mm256_mul_pd(mui, g01r), _mm256_mul_pd(mur, g01i));

	st(d11 + u, _mm256_sub_pd(g11r, pr));
	st(d11 + u + hn, _mm256_sub_pd(g11i, pi));
	st(l10 + u, mur);
	st(l10 + u + hn, vneg(mui));
}

/* The same on 128-bit registers for hn = 2 (two slots) or hn = 1 (lane
   0 only; lane 1 computes on zeros and is not stored). */
static inline __m128d ld_h(const fpr *p, size_t hn)
{
	return hn == 2 ? _mm_loadu_pd(p) : _mm_load_sd(p);
}

static inline void st_h(fpr *p, __m128d x, size_t hn)
{
	if (hn == 2) {
		_mm_storeu_pd(p, x);
	} else {
		_mm_store_sd(p, x);
	}
}

static inline void ldl_small(fpr *d11, fpr *l10, const fpr *g00,
	const fpr *g01, const fpr *g11, size_t hn)
{
	__m128d one = _mm_set1_pd(1.0);
	__m128d g00r = ld_h(g00, hn);
	__m128d g01r = ld_h(g01, hn), g01i = ld_h(g01 + hn, hn);
	__m128d g11r = ld_h(g11, hn), g11i = ld_h(g11 + hn, hn);
	__m128d w = _mm_div_pd(one, g00r);
	__m128d mur = _mm_mul_pd(g01r, w), mui = _mm_mul_pd(g01i, w);
	__m128d pr = _mm_add_pd(_mm_mul_pd(mur, g01r), _mm_mul_pd(mui, g01i));
	__m128d pi = _mm_sub_pd(_mm_mul_pd(mui, g01r), _mm_mul_pd(mur, g01i));

	st_h(d11, _mm_sub_pd(g11r, pr), hn);
	st_h(d11 + hn, _mm_sub_pd(g11i, pi), hn);
	st_h(l10, mur, hn);
	st_h(l10 + hn, _mm_xor_pd(mui, _mm_set1_pd(-0.0)), hn);
}

int fa_poly_LDL_fft_avx2(const fpr *g00, fpr *g01, fpr *g11, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	if (logn < 3) {
		if (logn == 0) {
			return FA_KERNEL_FALLBACK;
		}
		ldl_small(g11, g01, g00, g01, g11, hn);
		return FA_KERNEL_DONE;
	}
	for (u = 0; u < hn; u += 4) {
		ldl_vec(g11, g01, g00, g01, g11, u, hn);
	}
	return FA_KERNEL_DONE;
}

int fa_poly_LDLmv_fft_avx2(fpr *d11, fpr *l10, const fpr *g00,
	const fpr *g01, const fpr *g11, unsigned logn)
{
	size_t u, hn = MKN(logn) >> 1;

	if (logn < 3) {
		if (logn == 0) {
			return FA_KERNEL_FALLBACK;
		}
		ldl_small(d11, l10, g00, g01, g11, hn);
		return FA_KERNEL_DONE;
	}
	for (u = 0; u < hn; u += 4) {
		ldl_vec(d11, l10, g00, g01, g11, u, hn);
	}
	return FA_KERNEL_DONE;
}


/*
 * Small sizes (the leaves of fast Fourier sampling call these at every
 * node). logn = 3 (n = 8, two slots per half): registers hold
 * [re_k, im_k, re_k+1, im_k+1] (unpack of the real and imaginary
 * vectors), the twiddles load as [c_k, s_k, c_k+1, s_k+1] in the same
 * layout, and a complex product d * w is
 *     P = d * [c c], Q = swap(d) * [s s]   (swap: [im, re]),
 *     d*w = addsub(P, Q) = [d_re c - d_im s, d_im c + d_re s]
 * (addsub: even lanes subtract, odd lanes add), the portable CMUL
 * operations exactly. logn = 2 (n = 4, one slot per half) is the same on
 * 128-bit registers.
 */
static void split_logn3(fpr *f0, fpr *f1, const fpr *f)
{
	v4 half = _mm256_set1_pd(0.5);
	v4 re = ld(f), im = ld(f + 4);
	v4 a = _mm256_unpacklo_pd(re, im);      /* slots 0, 2 */
	v4 b = _mm256_unpackhi_pd(re, im);      /* slots 1, 3 */
	v4 w = _mm256_xor_pd(ld_roots(4),        /* conj: negate the sines */
		_mm256_setr_pd(0.0, -0.0, 0.0, -0.0));
	v4 s0, d;

	s0 = _mm256_mul_pd(_mm256_add_pd(a, b), half);
	d = _mm256_mul_pd(_mm256_sub_pd(a, b), half);
	st(f0, _mm256_permute4x64_pd(s0, 0xD8));
	st(f1, _mm256_permute4x64_pd(cmul_pairs(d, w), 0xD8));
}

static void merge_logn3(fpr *f, const fpr *f0, const fpr *f1)
{
	v4 a = _mm256_permute4x64_pd(ld(f0), 0xD8);  /* [re0 im0 re1 im1] */
	v4 c = _mm256_permute4x64_pd(ld(f1), 0xD8);
	v4 t = cmul_pairs(c, ld_roots(4));
	v4 u = _mm256_add_pd(a, t), v = _mm256_sub_pd(a, t);

	st(f, _mm256_unpacklo_pd(u, v));
	st(f + 4, _mm256_unpackhi_pd(u, v));
}

static void split_logn2(fpr *f0, fpr *f1, const fpr *f)
{
	__m128d half = _mm_set1_pd(0.5);
	__m128d re = _mm_loadu_pd(f), im = _mm_loadu_pd(f + 2);
	__m128d a = _mm_unpacklo_pd(re, im), b = _mm_unpackhi_pd(re, im);
	__m128d w = _mm_loadu_pd((const double *)(const void *)&fa_fft_roots[4]);

	w = _mm_xor_pd(w, _mm_set_pd(-0.0, 0.0));   /* conj */
	_mm_storeu_pd(f0, _mm_mul_pd(_mm_add_pd(a, b), half));
	_mm_storeu_pd(f1, cmul_pair(_mm_mul_pd(_mm_sub_pd(a, b), half), w));
}

static void merge_logn2(fpr *f, const fpr *f0, const fpr *f1)
{
	__m128d a = _mm_loadu_pd(f0);
	__m128d w = _mm_loadu_pd((const double *)(const void *)&fa_fft_roots[4]);
	__m128d t = cmul_pair(_mm_loadu_pd(f1), w);
	__m128d u = _mm_add_pd(a, t), v = _mm_sub_pd(a, t);

	_mm_storeu_pd(f, _mm_unpacklo_pd(u, v));
	_mm_storeu_pd(f + 2, _mm_unpackhi_pd(u, v));
}

/*
 * Split: slots 2k, 2k+1 of f are a = f(w), b = f(-w), w = root[hn + k];
 * f0[k] = (a + b)/2, f1[k] = ((a - b)/2) * conj(w) (halving = times 0.5,
 * as fpr_half). Four k at a time: A = f[2k..2k+3] = [a_k b_k a_k+1 b_k+1],
 * B = f[2k+4..2k+7]; unpacklo/hi give the slots in the order
 * [k, k+2, k+1, k+3], as do the twiddles from the same unpack of two
 * root loads; permute4x64 (0xD8 = lanes 0,2,1,3) restores k..k+3.
 */
int fa_poly_split_fft_avx2(fpr *f0, fpr *f1, const fpr *f, unsigned logn)
{
	size_t hn, qn, k;
	v4 half = _mm256_set1_pd(0.5);

	if (logn < 4) {
		if (logn == 3) {
			split_logn3(f0, f1, f);
		} else if (logn == 2) {
			split_logn2(f0, f1, f);
		} else if (logn == 1) {
			/* n = 2: the one slot (f[0], f[1]) is f0 and f1 */
			f0[0] = f[0];
			f1[0] = f[1];
		} else {
			return FA_KERNEL_FALLBACK;
		}
		return FA_KERNEL_DONE;
	}
	hn = MKN(logn) >> 1;
	qn = hn >> 1;
	for (k = 0; k < qn; k += 4) {
		v4 r1 = ld_roots(hn + k), r2 = ld_roots(hn + k + 2);
		v4 sr = _mm256_unpacklo_pd(r1, r2);
		v4 nsi = vneg(_mm256_unpackhi_pd(r1, r2));
		v4 pr = ld(f + 2 * k), qr = ld(f + 2 * k + 4);
		v4 pi = ld(f + 2 * k + hn), qi = ld(f + 2 * k + 4 + hn);
		v4 ar = _mm256_unpacklo_pd(pr, qr), br = _mm256_unpackhi_pd(pr, qr);
		v4 ai = _mm256_unpacklo_pd(pi, qi), bi = _mm256_unpackhi_pd(pi, qi);
		v4 s0r = _mm256_mul_pd(_mm256_add_pd(ar, br), half);
		v4 s0i = _mm256_mul_pd(_mm256_add_pd(ai, bi), half);
		v4 dr = _mm256_mul_pd(_mm256_sub_pd(ar, br), half);
		v4 di = _mm256_mul_pd(_mm256_sub_pd(ai, bi), half);
		v4 s1r, s1i;

		VCMUL(s1r, s1i, dr, di, sr, nsi);
		st(f0 + k, _mm256_permute4x64_pd(s0r, 0xD8));
		st(f0 + k + qn, _mm256_permute4x64_pd(s0i, 0xD8));
		st(f1 + k, _mm256_permute4x64_pd(s1r, 0xD8));
		st(f1 + k + qn, _mm256_permute4x64_pd(s1i, 0xD8));
	}
	return FA_KERNEL_DONE;
}

/*
 * Merge: t = f1[k] * w (w = root[hn + k]); f[2k] = f0[k] + t,
 * f[2k+1] = f0[k] - t. Inputs permuted to [k, k+2, k+1, k+3] to match
 * the twiddles; unpacklo/hi of the results give f[2k..2k+7] in order.
 */
int fa_poly_merge_fft_avx2(fpr *f, const fpr *f0, const fpr *f1,
	unsigned logn)
{
	size_t hn, qn, k;

	if (logn < 4) {
		if (logn == 3) {
			merge_logn3(f, f0, f1);
		} else if (logn == 2) {
			merge_logn2(f, f0, f1);
		} else if (logn == 1) {
			f[0] = f0[0];
			f[1] = f1[0];
		} else {
			return FA_KERNEL_FALLBACK;
		}
		return FA_KERNEL_DONE;
	}
	hn = MKN(logn) >> 1;
	qn = hn >> 1;
	for (k = 0; k < qn; k += 4) {
		v4 r1 = ld_roots(hn + k), r2 = ld_roots(hn + k + 2);
		v4 sr = _mm256_unpacklo_pd(r1, r2), si = _mm256_unpackhi_pd(r1, r2);
		v4 ar = _mm256_permute4x64_pd(ld(f0 + k), 0xD8);
		v4 ai = _mm256_permute4x64_pd(ld(f0 + k + qn), 0xD8);
		v4 cr = _mm256_permute4x64_pd(ld(f1 + k), 0xD8);
		v4 ci = _mm256_permute4x64_pd(ld(f1 + k + qn), 0xD8);
		v4 tr, ti, ur, ui, vr, vi;

		VCMUL(tr, ti, cr, ci, sr, si);
		ur = _mm256_add_pd(ar, tr);
		ui = _mm256_add_pd(ai, ti);
		vr = _mm256_sub_pd(ar, tr);
		vi = _mm256_sub_pd(ai, ti);
		st(f + 2 * k, _mm256_unpacklo_pd(ur, vr));
		st(f + 2 * k + 4, _mm256_unpackhi_pd(ur, vr));
		st(f + 2 * k + hn, _mm256_unpacklo_pd(ui, vi));
		st(f + 2 * k + 4 + hn, _mm256_unpackhi_pd(ui, vi));
	}
	return FA_KERNEL_DONE;
}
