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
		uint64_t x = 0;

		for (j = 0; j < 7; j ++) {
			x |= (uint64_t)d[(i >> 2) * 7 + j] << (8 * j);
		}
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
		for (tz = 0; ((acc >> tz) & 1) == 0; tz ++) {
		}
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
	ok = fa_complete_private(G, f, g, F, logn, tmp, k);
	ok &= fa_ntru_equation_ok(f, g, F, G, logn, tmp);
	ok &= fa_compute_public(h, f, g, logn, tmp + 2 * n, k);
	/* declassified: the verdict only rejects a key */
	if (!fa_declassify_int(ok)) {
		return FA_ERR_KEY;
	}
	fa_to_ntt(h, logn, k);
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
	size_t i = 0, n = MKN(logn);

	fa_shake256_init(&sc);
	fa_shake256_inject_k(k, &sc, nonce, 40);
	fa_shake256_inject_k(k, &sc, mu, 64);
	fa_shake256_flip(&sc);
	while (i < n) {
		uint8_t v[2];
		uint32_t w;

		fa_shake256_extract_k(k, &sc, v, 2);
		w = (uint32_t)v[0] | ((uint32_t)v[1] << 8);
		if (w < 5 * FA_Q) {
			c[i ++] = (uint16_t)fa_mod_q_small(w);
		}
	}
}
