/*
 * fndsa_codec.c -- FN-DSA encodings (fn-dsa 0.4.0): bits packed
 * little-endian (first value in the low bits of the first byte), four
 * 14-bit values mod q per 7 bytes, the compressed s2 with its sign bit
 * first then the 7 low bits then the high bits in unary, all from the low
 * bit up; keys and their checks; hash-to-point.
 */

#include "fndsa_inner.h"
#include "ct_declassify.h"

size_t fa_fndsa_trim_i8_encode(uint8_t *d, const int8_t *f, size_t n,
	unsigned bits)
{
	uint32_t acc = 0, mask = (1u << bits) - 1;
	unsigned acc_len = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i ++) {
		acc |= ((uint32_t)(uint8_t)f[i] & mask) << acc_len;
		acc_len += bits;
		while (acc_len >= 8) {
			d[k ++] = (uint8_t)acc;
			acc >>= 8;
			acc_len -= 8;
		}
	}
	return k;
}

int fa_fndsa_trim_i8_decode(int8_t *f, size_t n, unsigned bits,
	const uint8_t *d, size_t dlen)
{
	size_t need = (n * bits) >> 3, i, j = 0;
	uint32_t acc = 0, m1 = (1u << bits) - 1, m2 = 1u << (bits - 1);
	uint32_t bad = 0;
	unsigned acc_len = 0;

	if (dlen < need) {
		return FA_ERR_LENGTH;
	}
	for (i = 0; i < need; i ++) {
		acc |= (uint32_t)d[i] << acc_len;
		acc_len += 8;
		while (acc_len >= bits && j < n) {
			uint32_t w = acc & m1;

			acc >>= bits;
			acc_len -= bits;
			w |= -(w & m2);
			/* -2^(bits-1) is not a valid value */
			bad |= (uint32_t)(w == (uint32_t)-m2);
			f[j ++] = (int8_t)w;
		}
	}
	if (fa_declassify_u32(bad)) {
		return FA_ERR_COEFF_RANGE;
	}
	return (int)need;
}

size_t fa_fndsa_modq_encode(uint8_t *d, const uint16_t *h, size_t n)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i += 4) {
		uint64_t x = (uint64_t)h[i] | ((uint64_t)h[i + 1] << 14)
			| ((uint64_t)h[i + 2] << 28) | ((uint64_t)h[i + 3] << 42);

		for (j = 0; j < 7; j ++) {
			d[k ++] = (uint8_t)(x >> (8 * j));
		}
	}
	return k;
}

int fa_fndsa_modq_decode(uint16_t *h, size_t n, const uint8_t *d,
	size_t dlen)
{
	size_t i, j, need = 7 * (n >> 2);
	uint32_t bad = 0;

	if (dlen != need) {
		return FA_ERR_LENGTH;
	}
	for (i = 0; i < n; i += 4) {
		const uint8_t *e = d + (i >> 2) * 7;
		uint64_t x = (uint64_t)e[0] | ((uint64_t)e[1] << 8)
			| ((uint64_t)e[2] << 16) | ((uint64_t)e[3] << 24);

		x |= ((uint64_t)e[4] << 32) | ((uint64_t)e[5] << 40)
			| ((uint64_t)e[6] << 48);

		for (j = 0; j < 4; j ++) {
			uint32_t v = (uint32_t)(x >> (14 * j)) & 0x3FFF;

			bad |= (uint32_t)(v >= FA_Q);
			h[i + j] = (uint16_t)v;
		}
	}
	return bad ? FA_ERR_COEFF_RANGE : (int)need;
}

int fa_fndsa_comp_encode(uint8_t *d, size_t dlen, const int16_t *s,
	size_t n)
{
	uint32_t acc = 0;
	unsigned acc_len = 0;
	size_t i, j = 0;

	for (i = 0; i < n; i ++) {
		int32_t x = s[i];
		uint32_t sw = (uint32_t)(x >> 16);
		uint32_t w = ((uint32_t)x ^ sw) - sw;
		uint32_t wh;

		if (w > (uint32_t)FA_FNDSA_BINF) {
			return 0;
		}
		acc |= ((sw & 1) | ((w & 0x7F) << 1)) << acc_len;
		acc_len += 8;
		wh = w >> 7;
		acc |= (uint32_t)1 << (acc_len + wh);
		acc_len += wh + 1;
		while (acc_len >= 8) {
			if (j >= dlen) {
				return 0;
			}
			d[j ++] = (uint8_t)acc;
			acc >>= 8;
			acc_len -= 8;
		}
	}
	if (acc_len > 0) {
		if (j >= dlen) {
			return 0;
		}
		d[j ++] = (uint8_t)acc;
	}
	memset(d + j, 0, dlen - j);
	return 1;
}

int fa_fndsa_comp_decode(int16_t *s, size_t n, const uint8_t *d,
	size_t dlen)
{
	uint32_t acc = 0;
	unsigned acc_len = 0;
	size_t i, j = 0;

	for (i = 0; i < n; i ++) {
		uint32_t sg, m, tz, sw;

		if (j >= dlen) {
			return FA_ERR_LENGTH;
		}
		acc |= (uint32_t)d[j ++] << acc_len;
		sg = acc & 1;
		m = (acc >> 1) & 0x7F;
		acc >>= 8;
		/* the unary part: at most 6 zeros, so one more byte at most */
		if (acc == 0) {
			if (j >= dlen) {
				return FA_ERR_LENGTH;
			}
			acc |= (uint32_t)d[j ++] << acc_len;
			acc_len += 8;
			if (acc == 0) {
				return FA_ERR_COEFF_RANGE;
			}
		}
#if defined(__GNUC__)
		tz = (uint32_t)__builtin_ctz(acc);
#else
		for (tz = 0; ((acc >> tz) & 1) == 0; tz ++) {
		}
#endif
		m += tz << 7;
		if (m > (uint32_t)FA_FNDSA_BINF) {
			return FA_ERR_COEFF_RANGE;
		}
		acc >>= tz + 1;
		acc_len -= tz + 1;
		if (sg && m == 0) {
			return FA_ERR_MINUS_ZERO;
		}
		sw = -sg;
		s[i] = (int16_t)(int32_t)((m ^ sw) - sw);
	}
	if (acc != 0) {
		return FA_ERR_PADDING;
	}
	for (; j < dlen; j ++) {
		if (d[j] != 0) {
			return FA_ERR_PADDING;
		}
	}
	return FA_OK;
}

/* ------------------------------------------------------------------ */
/* Keys. */

void fa_fndsa_pubkey_encode(uint8_t *pk, const uint16_t *h, unsigned logn)
{
	pk[0] = (uint8_t)(0x00 + logn);
	fa_fndsa_modq_encode(pk + 1, h, MKN(logn));
}

int fa_fndsa_pubkey_decode(uint16_t *h, unsigned *logn_out,
	const uint8_t *pk, size_t pk_len)
{
	unsigned logn;
	int r;

	if (pk == NULL || pk_len == 0) {
		return FA_ERR_FORMAT;
	}
	logn = pk[0] & 0x0F;
	if ((pk[0] & 0xF0) != 0x00 || logn < FA_FNDSA_LOGN_MIN
		|| logn > FA_FNDSA_LOGN_MAX)
	{
		return FA_ERR_HEADER;
	}
	if (pk_len != FA_FNDSA_PUBKEY_SIZE(logn)) {
		return FA_ERR_LENGTH;
	}
	r = fa_fndsa_modq_decode(h, MKN(logn), pk + 1, pk_len - 1);
	if (r < 0) {
		/* Same header and length as a round-3 public key, whose
		   14-bit values are packed high bit first: a key that only
		   the round-3 decoder accepts is one (a random FN-DSA key
		   decodes as round 3 with probability below (3/4)^n). */
		uint16_t h3[1024];
		unsigned l3;

		if (fa_pubkey_decode(h3, &l3, pk, pk_len) == FA_OK) {
			return FA_ERR_SCHEME;
		}
		return r;
	}
	*logn_out = logn;
	return FA_OK;
}

void fa_fndsa_privkey_encode(uint8_t *sk, const int8_t *f, const int8_t *g,
	const int8_t *F, const uint8_t *pk, unsigned logn)
{
	size_t n = MKN(logn), off = 1;
	unsigned b = FA_FG_BITS(logn);
	fa_shake256_ctx sc;

	sk[0] = (uint8_t)(0x50 + logn);
	off += fa_fndsa_trim_i8_encode(sk + off, f, n, b);
	off += fa_fndsa_trim_i8_encode(sk + off, g, n, b);
	off += fa_fndsa_trim_i8_encode(sk + off, F, n, 8);
	fa_shake256_init(&sc);
	fa_shake256_inject(&sc, pk, FA_FNDSA_PUBKEY_SIZE(logn));
	fa_shake256_flip(&sc);
	fa_shake256_extract(&sc, sk + off, 64);
}

/* s mod q in [0, q-1] */
static void small_to_q(uint16_t *d, const int8_t *s, size_t n)
{
	size_t u;

	for (u = 0; u < n; u ++) {
		int32_t v = s[u];

		d[u] = (uint16_t)(v + (int32_t)(FA_Q & -(uint32_t)(v < 0)));
	}
}

/*
 * G = gF/f mod q (centred, each within [-127, 127]) and h = g/f in NTT
 * form, on backend k's NTT slots, when k accelerates the pointwise
 * product: 1/f is f^(q-2) slot by slot (13 squarings and 12 products
 * of whole NTT vectors, the exponent public), instead of the portable
 * batch inversion of fa_complete_private / fa_compute_public (same
 * values: the inverse mod q is unique). 0 if f is not invertible (an
 * NTT slot of f is 0) or G is out of range. w: 4n values.
 */
static int complete_ntt(int8_t *G, uint16_t *h, const int8_t *f,
	const int8_t *g, const int8_t *F, unsigned logn, uint16_t *w,
	const struct fa_kernels *k)
{
	size_t n = MKN(logn), u;
	uint16_t *ft = w, *inv = w + n, *sq = w + 2 * n, *gt = w + 3 * n;
	uint32_t zero = 0, bad = 0;
	int b;

	small_to_q(ft, f, n);
	small_to_q(h, g, n);
	small_to_q(gt, F, n);
	fa_k_mq_ntt(k, ft, logn);
	fa_k_mq_ntt(k, h, logn);
	fa_k_mq_ntt(k, gt, logn);
	for (u = 0; u < n; u ++) {
		zero |= ((uint32_t)ft[u] - 1u) >> 31;
	}
	/* q - 2 = 12287 = 0b10111111111111 */
	memcpy(inv, ft, n * sizeof *ft);
	for (b = 12; b >= 0; b --) {
		memcpy(sq, inv, n * sizeof *sq);
		fa_k_mq_poly_mul_ntt(k, inv, sq, logn);
		if (b != 12) {
			fa_k_mq_poly_mul_ntt(k, inv, ft, logn);
		}
	}
	fa_k_mq_poly_mul_ntt(k, h, inv, logn);      /* h = g/f */
	fa_k_mq_poly_mul_ntt(k, gt, h, logn);       /* G = F g/f */
	fa_k_mq_intt(k, gt, logn);
	for (u = 0; u < n; u ++) {
		int32_t v = gt[u];

		v -= (int32_t)FA_Q & -(int32_t)(v > (int32_t)(FA_Q - 1) / 2);
		bad |= (uint32_t)(127 - v) | (uint32_t)(127 + v);
		G[u] = (int8_t)v;
	}
	return (int)(1u - (zero | (bad >> 31)));
}

/*
 * fG - gF = q exactly, in the FFT domain on k's slots: with the
 * coefficients of f, g below 2^7 and of F, G at most 127 in absolute
 * value, n <= 1024, every coefficient of fG - gF is below 2^25 in
 * absolute value; the binary64 FFT products (forward transforms,
 * products, inverse, all rounded to nearest) carry an absolute error
 * below 2^-11 there (Higham's bound for radix-2 transforms with
 * correctly rounded twiddles, relative error log2(n) 5u each way,
 * u = 2^-53, on vectors of Euclidean norm below 2^12 each, times n),
 * far below 1/2: rounding each computed coefficient gives the exact
 * integer, so comparing the rounded values with (q, 0, ..., 0) is the
 * exact test (round 3's fa_ntru_equation_ok does it modulo a second
 * prime instead; this reuses the FFT kernels). w: 4n fpr, 8-aligned.
 */
static int ntru_equation_fft(const int8_t *f, const int8_t *g,
	const int8_t *F, const int8_t *G, unsigned logn, fpr *w,
	const struct fa_kernels *k)
{
	size_t n = MKN(logn), u;
	fpr *a = w, *b = a + n, *c = b + n, *d = c + n;
	uint32_t bad = 0;

	for (u = 0; u < n; u ++) {
		a[u] = fpr_of32(f[u]);
		b[u] = fpr_of32(G[u]);
		c[u] = fpr_of32(g[u]);
		d[u] = fpr_of32(F[u]);
	}
	fa_k_fft(k, a, logn);
	fa_k_fft(k, b, logn);
	fa_k_fft(k, c, logn);
	fa_k_fft(k, d, logn);
	fa_k_poly_mul_fft(k, a, b, logn);
	fa_k_poly_mul_fft(k, c, d, logn);
	fa_k_poly_sub(k, a, c, logn);
	fa_k_ifft(k, a, logn);
	for (u = 0; u < n; u ++) {
		int64_t v = fpr_rint(a[u]);

		v -= (int64_t)(u == 0 ? FA_Q : 0);
		bad |= (uint32_t)v | (uint32_t)((uint64_t)v >> 32);
	}
	return (int)(1u - ((bad | (0u - bad)) >> 31));
}

int fa_fndsa_privkey_decode(int8_t *f, int8_t *g, int8_t *F, int8_t *G,
	uint8_t *hsk, uint8_t *hpk, uint8_t *pk_out, unsigned *logn_out,
	const uint8_t *sk, size_t sk_len, uint8_t *tmp,
	const struct fa_kernels *k)
{
	unsigned logn, b;
	size_t n, off = 1, fglen;
	uint8_t pk[FA_FNDSA_PUBKEY_SIZE(10)], hp[64];
	uint16_t *h = (uint16_t *)(void *)tmp;
	fa_shake256_ctx sc;
	int r, ok;

	if (sk == NULL || sk_len == 0) {
		return FA_ERR_FORMAT;
	}
	logn = sk[0] & 0x0F;
	if ((sk[0] & 0xF0) != 0x50 || logn < FA_FNDSA_LOGN_MIN
		|| logn > FA_FNDSA_LOGN_MAX)
	{
		/* 0x50+logn is also round 3's header: only logn 1 is left */
		return FA_ERR_HEADER;
	}
	if (sk_len != FA_FNDSA_PRIVKEY_SIZE(logn)) {
		if (sk_len == FA_PRIVKEY_SIZE(logn)) {
			return FA_ERR_SCHEME;
		}
		return FA_ERR_LENGTH;
	}
	n = MKN(logn);
	b = FA_FG_BITS(logn);
	r = fa_fndsa_trim_i8_decode(f, n, b, sk + off, sk_len - off);
	if (r < 0) {
		return r;
	}
	off += (size_t)r;
	r = fa_fndsa_trim_i8_decode(g, n, b, sk + off, sk_len - off);
	if (r < 0) {
		return r;
	}
	off += (size_t)r;
	fglen = off - 1;
	r = fa_fndsa_trim_i8_decode(F, n, 8, sk + off, sk_len - off);
	if (r < 0) {
		return r;
	}
	off += (size_t)r;
	memcpy(hpk, sk + off, 64);

	fa_shake256_init(&sc);
	fa_shake256_inject(&sc, sk + 1, fglen);
	fa_shake256_flip(&sc);
	fa_shake256_extract(&sc, hsk, 40);

	/* G = gF/f mod q within [-127, 127], fG - gF = q exactly, h = g/f
	   and the stored hash of the public key. */
	if (k->mq_poly_mul_ntt != NULL) {
		ok = complete_ntt(G, h, f, g, F, logn, h + n, k);
	} else {
		ok = fa_complete_private(G, f, g, F, logn, tmp + 2 * n, k);
		ok &= fa_compute_public(h, f, g, logn, tmp + 2 * n, k);
		fa_to_ntt(h, logn, k);
	}
	ok &= ntru_equation_fft(f, g, F, G, logn,
		(fpr *)(void *)(tmp + 8 * n), k);
	/* declassified: the verdict only rejects a key */
	if (!fa_declassify_int(ok)) {
		return FA_ERR_KEY;
	}
	fa_fndsa_pubkey_encode(pk, h, logn);
	fa_shake256_init(&sc);
	fa_shake256_inject(&sc, pk, FA_FNDSA_PUBKEY_SIZE(logn));
	fa_shake256_flip(&sc);
	fa_shake256_extract(&sc, hp, 64);
	if (memcmp(hp, hpk, 64) != 0) {
		return FA_ERR_KEY;
	}
	if (pk_out != NULL) {
		memcpy(pk_out, pk, FA_FNDSA_PUBKEY_SIZE(logn));
	}
	*logn_out = logn;
	return FA_OK;
}

/* ------------------------------------------------------------------ */

void fa_fndsa_hash_to_point(uint16_t *c, const uint8_t nonce[40],
	const uint8_t mu[64], unsigned logn, const struct fa_kernels *k)
{
	fa_shake256_ctx sc;
	uint8_t buf[136];
	size_t i = 0, n = MKN(logn);

	fa_shake256_init(&sc);
	fa_shake256_inject_k(k, &sc, nonce, 40);
	fa_shake256_inject_k(k, &sc, mu, 64);
	fa_shake256_flip(&sc);
	/* The stream a block at a time (136 bytes: 68 whole samples). The
	   inputs are public (nonce, mu): the sample count may leak. c[i] is
	   written before the verdict, i < n there. */
	while (i < n) {
		uint16_t r[68];
		uint8_t ok[68];
		size_t u;

		fa_shake256_extract_k(k, &sc, buf, sizeof buf);
		for (u = 0; u < 68; u ++) {
			uint32_t w = (uint32_t)buf[2 * u]
				| ((uint32_t)buf[2 * u + 1] << 8);

			r[u] = (uint16_t)fa_mod_q_small(w);
			ok[u] = (uint8_t)(w < 5 * FA_Q);
		}
		if (n - i >= 68) {
			for (u = 0; u < 68; u ++) {
				c[i] = r[u];
				i += ok[u];
			}
		} else {
			for (u = 0; u < 68 && i < n; u ++) {
				c[i] = r[u];
				i += ok[u];
			}
		}
	}
}
