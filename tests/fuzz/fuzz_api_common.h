/*
 * fuzz_api_common.h -- shared by the public-API fuzz targets
 * (fuzz_api.c, the whole API in one target, and the per-function targets
 * fuzz_api_<function>.c): scratch buffers, the pool of genuine keys and
 * signatures, the input readers and the checks every target applies.
 *
 * Input layout shared by all of them (so that the seed corpus
 * tests/fuzz/corpus/api feeds every target): byte 0 selects a mode
 * (b % 5, see fuzz_api.c); a per-function target maps the modes onto the
 * cases it has (a raw object, or a patched genuine one). Patched inputs
 * read [logn selector][key index][format][patch count] then up to 8
 * (u16 offset, xor) patches (fuzz_read_patches).
 *
 * Every definition is static: each target is one translation unit.
 */
#ifndef FA_FUZZ_API_COMMON_H
#define FA_FUZZ_API_COMMON_H

#include "fuzz_common.h"
#include "falcon_accel.h"

#define FUZZ_MAYBE_UNUSED __attribute__((unused))

static uint8_t tmp_buf[FA_TMPSIZE_KEYGEN(10) + FA_TMPSIZE_SIGN_DYN(10)];
FUZZ_MAYBE_UNUSED static uint64_t
	ek_store[(FA_EXPANDED_KEY_SIZE(10) + 7) / 8];

/* A return code the API documents (FA_OK .. FA_ERR_SIGN_ATTEMPTS). */
static inline int known_code(int r)
{
	return r <= 0 && r >= FA_ERR_SIGN_ATTEMPTS;
}

/* A code a key decoder may return for a malformed or invalid key. */
static inline int is_decode_error(int r)
{
	return r == FA_ERR_FORMAT || r == FA_ERR_HEADER || r == FA_ERR_LENGTH
		|| r == FA_ERR_COEFF_RANGE || r == FA_ERR_PADDING
		|| r == FA_ERR_KEY;
}

FUZZ_MAYBE_UNUSED static const uint8_t default_seed[48] = { 1, 2, 3, 4, 5, 6, 7, 8 };

/* Little-endian u16 from the input (0 and nothing left when short). */
static inline size_t rd16(const uint8_t **d, size_t *n)
{
	size_t v;

	if (*n < 2) {
		*n = 0;
		return 0;
	}
	v = (size_t)(*d)[0] | ((size_t)(*d)[1] << 8);
	*d += 2;
	*n -= 2;
	return v;
}

/* logn 1..8 from a byte; 9 and 10 (slow under the sanitizers) for
   b = 254 / 255. */
static inline unsigned pick_logn(uint8_t b)
{
	return b == 255 ? 10u : b == 254 ? 9u : 1u + (unsigned)(b % 8u);
}

/*
 * A genuine key of degree 2^logn: key number idx of a pool (16 keys per
 * degree up to logn 8, 2 at logn 9 and 10), each generated once per
 * process from a fixed seed, so that inputs cost the function under
 * test, not keygen.
 */
static inline int genuine_key(uint8_t *sk, uint8_t *pk, unsigned logn,
	unsigned idx)
{
	static uint8_t p_sk[11][16][FA_PRIVKEY_SIZE(8)];
	static uint8_t p_pk[11][16][FA_PUBKEY_SIZE(8)];
	static uint8_t big_sk[2][2][FA_PRIVKEY_SIZE(10)];
	static uint8_t big_pk[2][2][FA_PUBKEY_SIZE(10)];
	static uint8_t valid[11][16];
	uint8_t *ks, *kp;
	fa_shake256_ctx rng;
	uint8_t seed[3];

	idx %= logn >= 9 ? 2u : 16u;
	ks = logn >= 9 ? big_sk[logn - 9][idx] : p_sk[logn][idx];
	kp = logn >= 9 ? big_pk[logn - 9][idx] : p_pk[logn][idx];
	if (!valid[logn][idx]) {
		seed[0] = 'K';
		seed[1] = (uint8_t)logn;
		seed[2] = (uint8_t)idx;
		fa_shake256_init_prng_from_seed(&rng, seed, sizeof seed);
		if (fa_keygen(NULL, &rng, logn, ks, FA_PRIVKEY_SIZE(logn), kp,
			FA_PUBKEY_SIZE(logn), tmp_buf, sizeof tmp_buf) != FA_OK)
		{
			return FA_ERR_INTERNAL;
		}
		valid[logn][idx] = 1;
	}
	memcpy(sk, ks, FA_PRIVKEY_SIZE(logn));
	if (pk != NULL) {
		memcpy(pk, kp, FA_PUBKEY_SIZE(logn));
	}
	return FA_OK;
}

/*
 * A genuine signature of the message "fuzz" in format fmt (1..3) by
 * genuine key idx of degree 2^logn, signed once per process (fixed
 * seed); sig receives it, its length is returned.
 */
static inline size_t genuine_sig(uint8_t *sig, unsigned logn, unsigned idx,
	int fmt)
{
	static uint8_t p_sig[11][16][3][FA_SIG_MAXSIZE(8)];
	static uint8_t big_sig[2][2][3][FA_SIG_MAXSIZE(10)];
	static size_t p_len[11][16][3];
	static uint8_t sk[FA_PRIVKEY_SIZE(10)];
	uint8_t *s;
	size_t *len;
	fa_shake256_ctx rng;
	uint8_t seed[4];

	idx %= logn >= 9 ? 2u : 16u;
	s = logn >= 9 ? big_sig[logn - 9][idx][fmt - 1]
		: p_sig[logn][idx][fmt - 1];
	len = &p_len[logn][idx][fmt - 1];
	if (*len == 0) {
		FUZZ_ASSERT(genuine_key(sk, NULL, logn, idx) == FA_OK);
		seed[0] = 'S';
		seed[1] = (uint8_t)logn;
		seed[2] = (uint8_t)idx;
		seed[3] = (uint8_t)fmt;
		fa_shake256_init_prng_from_seed(&rng, seed, sizeof seed);
		*len = FA_SIG_MAXSIZE(10);
		FUZZ_ASSERT(fa_sign_dyn(NULL, &rng, s, len, fmt, sk,
			FA_PRIVKEY_SIZE(logn), "fuzz", 4, tmp_buf,
			sizeof tmp_buf) == FA_OK);
	}
	memcpy(sig, s, *len);
	return *len;
}

/* Header of a patched input: [logn selector][key index][format][count]. */
typedef struct {
	unsigned logn, idx;
	int format;     /* 1..3 */
	size_t npatch;  /* 0..8 */
} fuzz_patch_hdr;

static inline int fuzz_read_patch_hdr(fuzz_patch_hdr *h,
	const uint8_t **d, size_t *n)
{
	if (*n < 4) {
		return 0;
	}
	h->logn = pick_logn((*d)[0]);
	h->idx = (*d)[1];
	h->format = 1 + (*d)[2] % 3;
	h->npatch = (*d)[3] % 9u;
	*d += 4;
	*n -= 4;
	return 1;
}

/* Apply up to h->npatch (u16 offset mod len, xor byte) patches to buf;
   returns whether buf changed. */
static inline int fuzz_apply_patches(uint8_t *buf, size_t len,
	const fuzz_patch_hdr *h, const uint8_t **d, size_t *n)
{
	size_t i;
	int changed = 0;

	for (i = 0; i < h->npatch && *n >= 3; i ++) {
		size_t off = ((size_t)(*d)[0] | ((size_t)(*d)[1] << 8)) % len;

		buf[off] ^= (*d)[2];
		changed |= (*d)[2] != 0;
		*d += 3;
		*n -= 3;
	}
	return changed;
}

/* A raw verification input [u16 pk_len][pk][u16 sig_len][sig][format]
   [msg]: lengths mod 2000, cut to what is left; format in 0..4 (4 is
   invalid), 0 with an empty message when nothing is left. */
typedef struct {
	const uint8_t *pk, *sig, *msg;
	size_t pk_len, sig_len, msg_len;
	int format;
} fuzz_raw_pair;

static inline void fuzz_read_raw_pair(fuzz_raw_pair *p,
	const uint8_t *data, size_t size)
{
	p->pk_len = rd16(&data, &size) % 2000u;
	if (p->pk_len > size) {
		p->pk_len = size;
	}
	p->pk = data;
	data += p->pk_len;
	size -= p->pk_len;
	p->sig_len = rd16(&data, &size) % 2000u;
	if (p->sig_len > size) {
		p->sig_len = size;
	}
	p->sig = data;
	data += p->sig_len;
	size -= p->sig_len;
	p->format = size > 0 ? data[0] % 5 : 0;
	p->msg = size > 0 ? data + 1 : data;
	p->msg_len = size > 0 ? size - 1 : 0;
}

/* fa_verify and fa_verify_prepared on the same input: same code. */
static inline void verify_both(const uint8_t *sig, size_t sl, int format,
	const uint8_t *pk, size_t pk_len, const uint8_t *msg, size_t msg_len)
{
	fa_prepared_pubkey pp;
	int r, rp, rr;

	r = fa_verify(NULL, sig, sl, format, pk, pk_len, msg, msg_len,
		tmp_buf, sizeof tmp_buf);
	FUZZ_ASSERT(known_code(r));
	rp = fa_pubkey_prepare(NULL, &pp, pk, pk_len);
	FUZZ_ASSERT(known_code(rp));
	if (rp != FA_OK) {
		FUZZ_ASSERT(r == rp);
		return;
	}
	rr = fa_verify_prepared(NULL, sig, sl, format, &pp, msg, msg_len,
		tmp_buf, sizeof tmp_buf);
	FUZZ_ASSERT(rr == r);
}

/*
 * A private key from the input, for the key targets: mode 0 (and 2, 4)
 * a raw key [u16 len][key][format][msg]; mode 1 (and 3) a patched
 * genuine key [patch header][patches][msg]. Writes the key into sk (at
 * most FA_PRIVKEY_SIZE(10) bytes: longer raw keys are cut, which only
 * the length check sees), sets *sk_len, *format and the message.
 * Returns 0 when the input is too short.
 */
static inline int fuzz_read_key(uint8_t *sk, size_t *sk_len, int *format,
	const uint8_t **msg, size_t *msg_len, unsigned mode,
	const uint8_t *data, size_t size)
{
	if (mode == 1 || mode == 3) {
		fuzz_patch_hdr h;

		if (!fuzz_read_patch_hdr(&h, &data, &size)) {
			return 0;
		}
		FUZZ_ASSERT(genuine_key(sk, NULL, h.logn, h.idx) == FA_OK);
		*sk_len = FA_PRIVKEY_SIZE(h.logn);
		fuzz_apply_patches(sk, *sk_len, &h, &data, &size);
		*format = h.format;
	} else {
		size_t kl = rd16(&data, &size) % 2400u;

		if (kl > size) {
			kl = size;
		}
		*sk_len = kl < FA_PRIVKEY_SIZE(10) ? kl : FA_PRIVKEY_SIZE(10);
		memcpy(sk, data, *sk_len);
		*format = size > kl ? data[kl] % 5 : FA_SIG_COMPRESSED;
		data += kl;
		size -= kl;
		if (size > 0) {
			data ++;
			size --;
		}
	}
	*msg = data;
	*msg_len = size;
	return 1;
}

#endif
