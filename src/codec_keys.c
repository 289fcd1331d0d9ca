/*
 * codec_keys.c -- encodings of public and private keys (falcon_accel.h
 * formats) and the private-key decoder's checks: the key is one keygen
 * could have produced. The coefficient codecs they use: codec.c.
 * Declarations: inner.h.
 */

#include "inner.h"
#include "ct_declassify.h"

size_t fa_pubkey_encode(uint8_t *pk, const uint16_t *h, unsigned logn)
{
	size_t len = FA_PUBKEY_SIZE(logn);

	pk[0] = (uint8_t)(0x00 + logn);
	if (fa_modq_encode(pk + 1, len - 1, h, logn) != len - 1) {
		return 0;
	}
	return len;
}

int fa_pubkey_decode(uint16_t *h, unsigned *logn_out,
	const uint8_t *pk, size_t pk_len)
{
	unsigned logn;
	int r;

	if (pk == NULL || pk_len == 0) {
		return FA_ERR_FORMAT;
	}
	logn = pk[0] & 0x0F;
	if ((pk[0] & 0xF0) != 0x00 || logn < 1 || logn > 10) {
		return FA_ERR_HEADER;
	}
	if (pk_len != FA_PUBKEY_SIZE(logn)) {
		return FA_ERR_LENGTH;
	}
	r = fa_modq_decode(h, logn, pk + 1, pk_len - 1);
	if (r < 0) {
		return r;
	}
	if ((size_t)r != pk_len - 1) {
		return FA_ERR_LENGTH;
	}
	*logn_out = logn;
	return FA_OK;
}

size_t fa_privkey_encode(uint8_t *sk, const int8_t *f, const int8_t *g,
	const int8_t *F, unsigned logn)
{
	size_t len = FA_PRIVKEY_SIZE(logn), off = 1, w;
	unsigned fgb = FA_FG_BITS(logn);

	sk[0] = (uint8_t)(0x50 + logn);
	w = fa_trim_i8_encode(sk + off, len - off, f, logn, fgb);
	if (w == 0) {
		return 0;
	}
	off += w;
	w = fa_trim_i8_encode(sk + off, len - off, g, logn, fgb);
	if (w == 0) {
		return 0;
	}
	off += w;
	w = fa_trim_i8_encode(sk + off, len - off, F, logn, 8);
	if (w == 0) {
		return 0;
	}
	off += w;
	return off == len ? len : 0;
}

/* Decode f, g, F (G not computed). */
int fa_privkey_decode(int8_t *f, int8_t *g, int8_t *F,
	unsigned *logn_out, const uint8_t *sk, size_t sk_len)
{
	unsigned logn, fgb;
	size_t off = 1;
	int r;

	if (sk == NULL || sk_len == 0) {
		return FA_ERR_FORMAT;
	}
	logn = sk[0] & 0x0F;
	if ((sk[0] & 0xF0) != 0x50 || logn < 1 || logn > 10) {
		return FA_ERR_HEADER;
	}
	if (sk_len != FA_PRIVKEY_SIZE(logn)) {
		return FA_ERR_LENGTH;
	}
	fgb = FA_FG_BITS(logn);
	r = fa_trim_i8_decode(f, logn, fgb, sk + off, sk_len - off);
	if (r < 0) {
		return r;
	}
	off += (size_t)r;
	r = fa_trim_i8_decode(g, logn, fgb, sk + off, sk_len - off);
	if (r < 0) {
		return r;
	}
	off += (size_t)r;
	r = fa_trim_i8_decode(F, logn, 8, sk + off, sk_len - off);
	if (r < 0) {
		return r;
	}
	off += (size_t)r;
	if (off != sk_len) {
		return FA_ERR_LENGTH;
	}
	*logn_out = logn;
	return FA_OK;
}

/*
 * Decode f, g, F, recompute G and check that the key is one keygen could
 * have produced: f invertible mod q, |G| <= 127, fG - gF = q exactly
 * (privkey_check.c), ||(f, g)||^2 < 16823 and the Gram-Schmidt bound of
 * keygen's step 3 (its Parseval form, keygen.c). The last two bound the
 * Gram-Schmidt norm of the basis by 1.17 sqrt(q), which keeps every leaf sigma of the LDL tree in
 * [sigma_min, sigma_max]: SamplerZ's acceptance rate and the signature
 * rejection rate are then those of genuine keys. Any failure:
 * FA_ERR_KEY. tmp: 8-byte aligned internally, needs FA_TMPSIZE_PRIVCHECK
 * bytes.
 */
int fa_privkey_decode_full(int8_t *f, int8_t *g, int8_t *F, int8_t *G,
	unsigned *logn_out, const uint8_t *sk, size_t sk_len, uint8_t *tmp,
	const struct fa_kernels *k)
{
	int r = fa_privkey_decode(f, g, F, logn_out, sk, sk_len);
	unsigned logn;
	uint8_t *t;
	int ok;

	if (r != FA_OK) {
		return r;
	}
	logn = *logn_out;
	t = fa_align8(tmp);
	ok = fa_complete_private(G, f, g, F, logn, t, k);
	ok &= fa_ntru_equation_ok(f, g, F, G, logn, t);
	ok &= fa_fg_norm_ok(f, g, logn);
	ok &= fa_gs_norm_ok_parseval(f, g, logn, (fpr *)(void *)t, k);
	/* declassified: the verdict only rejects a key */
	if (!fa_declassify_int(ok)) {
		return FA_ERR_KEY;
	}
	return FA_OK;
}

