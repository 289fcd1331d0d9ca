/*
 * fndsa_api.c -- the FN-DSA public functions (falcon_accel.h, "FN-DSA"):
 * argument checks, the message representative mu, pre-hash identifiers,
 * key generation, signing and verification around the cores of
 * fndsa_keygen.c, fndsa_sign.c and fndsa_codec.c.
 */

#include "fndsa_inner.h"
#include "ct_declassify.h"

/* DER encodings of the hash OIDs (2.16.840.1.101.3.4.2.x). */
static const uint8_t OID_PREFIX[10] = {
	0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02
};

static int ph_oid_last(int ph)
{
	switch (ph) {
	case FA_FNDSA_PH_SHA256:   return 0x01;
	case FA_FNDSA_PH_SHA384:   return 0x02;
	case FA_FNDSA_PH_SHA512:   return 0x03;
	case FA_FNDSA_PH_SHA3_256: return 0x08;
	default:                   return -1;
	}
}

int fa_fndsa_ph_size(int ph)
{
	switch (ph) {
	case FA_FNDSA_PH_NONE:     return 0;
	case FA_FNDSA_PH_SHA256:   return 32;
	case FA_FNDSA_PH_SHA384:   return 48;
	case FA_FNDSA_PH_SHA512:   return 64;
	case FA_FNDSA_PH_SHA3_256: return 32;
	default:                   return FA_ERR_BADARG;
	}
}

int fa_fndsa_prehash(uint8_t *out, int ph, const void *data, size_t len)
{
	switch (ph) {
	case FA_FNDSA_PH_SHA256:   fa_sha256(out, data, len); return FA_OK;
	case FA_FNDSA_PH_SHA384:   fa_sha384(out, data, len); return FA_OK;
	case FA_FNDSA_PH_SHA512:   fa_sha512(out, data, len); return FA_OK;
	case FA_FNDSA_PH_SHA3_256: fa_sha3_256(out, data, len); return FA_OK;
	default:                   return FA_ERR_BADARG;
	}
}

const char *fa_fndsa_strerror(int err)
{
	if (err == FA_ERR_SCHEME) {
		return "object of the other scheme (round-3 Falcon given to "
			"FN-DSA)";
	}
	return fa_strerror(err);
}

/* Arguments of mu: ctx length, ph, hash length. */
static int check_mu_args(const void *ctx, size_t ctx_len, int ph,
	const void *msg, size_t msg_len)
{
	int hl = fa_fndsa_ph_size(ph);

	if (ctx_len > FA_FNDSA_CTX_MAX || (ctx == NULL && ctx_len > 0)
		|| (msg == NULL && msg_len > 0) || hl < 0)
	{
		return FA_ERR_BADARG;
	}
	if (hl > 0 && msg_len != (size_t)hl) {
		return FA_ERR_LENGTH;
	}
	return FA_OK;
}

/* mu from the 64-byte hash of the public key (arguments checked). */
static void mu_from_hpk(uint8_t *mu, const uint8_t *hpk, const void *ctx,
	size_t ctx_len, int ph, const void *msg, size_t msg_len)
{
	fa_shake256_ctx sc;
	uint8_t b[2];

	b[0] = ph == FA_FNDSA_PH_NONE ? 0x00 : 0x01;
	b[1] = (uint8_t)ctx_len;
	fa_shake256_init(&sc);
	fa_shake256_inject(&sc, hpk, 64);
	fa_shake256_inject(&sc, b, 2);
	if (ctx_len > 0) {
		fa_shake256_inject(&sc, ctx, ctx_len);
	}
	if (ph != FA_FNDSA_PH_NONE) {
		uint8_t last = (uint8_t)ph_oid_last(ph);

		fa_shake256_inject(&sc, OID_PREFIX, sizeof OID_PREFIX);
		fa_shake256_inject(&sc, &last, 1);
	}
	if (msg_len > 0) {
		fa_shake256_inject(&sc, msg, msg_len);
	}
	fa_shake256_flip(&sc);
	fa_shake256_extract(&sc, mu, 64);
}

static void hash_pk(uint8_t *hpk, const void *pk, size_t pk_len)
{
	fa_shake256_ctx sc;

	fa_shake256_init(&sc);
	fa_shake256_inject(&sc, pk, pk_len);
	fa_shake256_flip(&sc);
	fa_shake256_extract(&sc, hpk, 64);
}

int fa_fndsa_compute_mu(uint8_t mu[64], const void *pk, size_t pk_len,
	const void *ctx, size_t ctx_len, int ph, const void *msg,
	size_t msg_len)
{
	uint16_t h[1024];
	uint8_t hpk[64];
	unsigned logn;
	int r;

	if (mu == NULL) {
		return FA_ERR_BADARG;
	}
	r = check_mu_args(ctx, ctx_len, ph, msg, msg_len);
	if (r != FA_OK) {
		return r;
	}
	r = fa_fndsa_pubkey_decode(h, &logn, pk, pk_len);
	if (r != FA_OK) {
		return r;
	}
	hash_pk(hpk, pk, pk_len);
	mu_from_hpk(mu, hpk, ctx, ctx_len, ph, msg, msg_len);
	return FA_OK;
}

/* ------------------------------------------------------------------ */
/* Key generation. */

int fa_fndsa_keygen_seed(const fa_backend *be, const uint8_t seed[32],
	unsigned logn, void *sk, size_t sk_len, void *pk, size_t pk_len,
	void *tmp, size_t tmp_len)
{
	const struct fa_kernels *k;
	size_t n;
	int8_t *f, *g, *F, *G;
	uint16_t *h;
	uint8_t pkb[FA_FNDSA_PUBKEY_SIZE(10)];

	if (logn < FA_FNDSA_LOGN_MIN || logn > FA_FNDSA_LOGN_MAX
		|| seed == NULL || sk == NULL || tmp == NULL)
	{
		return FA_ERR_BADARG;
	}
	if (sk_len < FA_FNDSA_PRIVKEY_SIZE(logn)
		|| (pk != NULL && pk_len < FA_FNDSA_PUBKEY_SIZE(logn))
		|| tmp_len < FA_TMPSIZE_FNDSA_KEYGEN(logn))
	{
		return FA_ERR_SIZE;
	}
	k = fa_kernels_resolve(be);
	if (k == NULL) {
		return FA_ERR_BACKEND;
	}
	n = MKN(logn);
	h = (uint16_t *)fa_align8(tmp);
	f = (int8_t *)(h + n);
	g = f + n;
	F = g + n;
	G = F + n;
	fa_fndsa_keygen_inner(seed, f, g, F, G, h, logn, (uint8_t *)(G + n),
		k);
	fa_fndsa_pubkey_encode(pkb, h, logn);
	fa_fndsa_privkey_encode(sk, f, g, F, pkb, logn);
	if (pk != NULL) {
		memcpy(pk, pkb, FA_FNDSA_PUBKEY_SIZE(logn));
	}
	memset(tmp, 0, tmp_len);
	return FA_OK;
}

int fa_fndsa_keygen(const fa_backend *be, fa_shake256_ctx *rng,
	unsigned logn, void *sk, size_t sk_len, void *pk, size_t pk_len,
	void *tmp, size_t tmp_len)
{
	uint8_t seed[32];
	int r;

	if (rng == NULL) {
		return FA_ERR_BADARG;
	}
	if (logn < FA_FNDSA_LOGN_MIN || logn > FA_FNDSA_LOGN_MAX
		|| sk == NULL || tmp == NULL)
	{
		return FA_ERR_BADARG;
	}
	fa_shake256_extract(rng, seed, sizeof seed);
	r = fa_fndsa_keygen_seed(be, seed, logn, sk, sk_len, pk, pk_len, tmp,
		tmp_len);
	memset(seed, 0, sizeof seed);
	return r;
}

/* ------------------------------------------------------------------ */
/* Signing. tmp layout: f, g, F, G (4n), then the sign core's area
   (8-byte aligned). */

typedef struct {
	unsigned logn;
	int8_t *f, *g, *F, *G;
	uint8_t hsk[40], hpk[64];
	uint8_t *work;
} sk_state;

/* The private key decoded and checked into tmp (st points there); on a
   failure of the decoding itself tmp is wiped (partly decoded secrets). */
static int decode_sk(sk_state *st, uint8_t *pk_out, const void *sk,
	size_t sk_len, void *tmp, size_t tmp_len, const struct fa_kernels *k)
{
	unsigned logn;
	size_t n;
	uint8_t *t = fa_align8(tmp);
	int r;

	if (sk == NULL || sk_len == 0) {
		return FA_ERR_FORMAT;
	}
	logn = ((const uint8_t *)sk)[0] & 0x0F;
	if (logn < FA_FNDSA_LOGN_MIN || logn > FA_FNDSA_LOGN_MAX) {
		return FA_ERR_HEADER;
	}
	if (tmp == NULL || tmp_len < FA_TMPSIZE_FNDSA_SIGN(logn)) {
		return tmp == NULL ? FA_ERR_BADARG : FA_ERR_SIZE;
	}
	n = MKN(logn);
	st->f = (int8_t *)t;
	st->g = st->f + n;
	st->F = st->g + n;
	st->G = st->F + n;
	st->work = fa_align8(st->G + n);
	r = fa_fndsa_privkey_decode(st->f, st->g, st->F, st->G, st->hsk,
		st->hpk, pk_out, &st->logn, sk, sk_len, st->work, k);
	if (r != FA_OK) {
		memset(tmp, 0, tmp_len);   /* partly decoded secrets */
	}
	return r;
}

static int sign_common(const fa_backend *be, fa_shake256_ctx *rng,
	const uint8_t *seed, void *sig, size_t sig_len, const void *sk,
	size_t sk_len, const uint8_t *mu_ext, const void *ctx, size_t ctx_len,
	int ph, const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	const struct fa_kernels *k;
	sk_state st;
	uint8_t mu[64], rnd[40], hseed[40];
	fa_shake256_ctx sc;
	int r;

	if (sig == NULL || (rng == NULL && seed == NULL)) {
		return FA_ERR_BADARG;
	}
	if (mu_ext == NULL) {
		r = check_mu_args(ctx, ctx_len, ph, msg, msg_len);
		if (r != FA_OK) {
			return r;
		}
	}
	k = fa_kernels_resolve(be);
	if (k == NULL) {
		return FA_ERR_BACKEND;
	}
	r = decode_sk(&st, NULL, sk, sk_len, tmp, tmp_len, k);
	if (r != FA_OK) {
		return r;
	}
	if (sig_len < FA_FNDSA_SIG_SIZE(st.logn)) {
		r = FA_ERR_SIZE;
		goto out;
	}
	if (mu_ext != NULL) {
		memcpy(mu, mu_ext, 64);
	} else {
		mu_from_hpk(mu, st.hpk, ctx, ctx_len, ph, msg, msg_len);
	}
	if (seed != NULL) {
		memcpy(rnd, seed, 40);
	} else {
		fa_shake256_extract(rng, rnd, 40);
	}
	/* hedging: SHAKE256(H(f, g) || mu || seed) */
	fa_shake256_init(&sc);
	fa_shake256_inject(&sc, st.hsk, 40);
	fa_shake256_inject(&sc, mu, 64);
	fa_shake256_inject(&sc, rnd, 40);
	fa_shake256_flip(&sc);
	fa_shake256_extract(&sc, hseed, 40);
	r = fa_fndsa_sign_inner(sig, hseed, st.f, st.g, st.F, st.G, mu,
		st.logn, st.work, k);
	memset(rnd, 0, sizeof rnd);
	memset(hseed, 0, sizeof hseed);
out:
	memset(tmp, 0, tmp_len);
	return r;
}

int fa_fndsa_sign(const fa_backend *be, fa_shake256_ctx *rng,
	void *sig, size_t sig_len, const void *sk, size_t sk_len,
	const void *ctx, size_t ctx_len, int ph,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	if (rng == NULL) {
		return FA_ERR_BADARG;
	}
	return sign_common(be, rng, NULL, sig, sig_len, sk, sk_len, NULL,
		ctx, ctx_len, ph, msg, msg_len, tmp, tmp_len);
}

int fa_fndsa_sign_seed(const fa_backend *be, const uint8_t seed[40],
	void *sig, size_t sig_len, const void *sk, size_t sk_len,
	const void *ctx, size_t ctx_len, int ph,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	if (seed == NULL) {
		return FA_ERR_BADARG;
	}
	return sign_common(be, NULL, seed, sig, sig_len, sk, sk_len, NULL,
		ctx, ctx_len, ph, msg, msg_len, tmp, tmp_len);
}

int fa_fndsa_sign_mu(const fa_backend *be, fa_shake256_ctx *rng,
	const uint8_t *seed, void *sig, size_t sig_len,
	const void *sk, size_t sk_len, const uint8_t mu[64],
	void *tmp, size_t tmp_len)
{
	if (mu == NULL) {
		return FA_ERR_BADARG;
	}
	return sign_common(be, rng, seed, sig, sig_len, sk, sk_len, mu,
		NULL, 0, FA_FNDSA_PH_NONE, NULL, 0, tmp, tmp_len);
}

/* ------------------------------------------------------------------ */
/* Expanded keys. Header (8 bytes): 0x70 + logn, 'F', 'N', the checksum
   version (1: 64-bit lanes, 2: 32-bit lanes, as round 3's), the 32-bit
   checksum of the body, little-endian. Body: SHAKE256(f || g encoding)
   (40 bytes), SHAKE256(pk) (64 bytes), then the basis and the LDL tree
   (fa_fndsa_expand_inner), binary64. */

#define EK_HDR      8u
#define EK_HASHES   104u
#define EK_BODY(logn) (FA_FNDSA_EXPANDED_KEY_SIZE(logn) - EK_HDR)

static uint32_t ek_sum(const uint8_t *ek, unsigned logn, unsigned version,
	const struct fa_kernels *k)
{
	const void *body = ek + EK_HDR;

	if (version == 2) {
		uint32_t c;

		fa_k_ek_checksum32(k, &c, (const uint32_t *)body,
			EK_BODY(logn) >> 2, logn);
		return c;
	}
	return fa_expanded_key_checksum((const uint64_t *)body,
		EK_BODY(logn) >> 3, logn);
}

/* logn, or FA_ERR_SCHEME (a round-3 expanded key), FA_ERR_KEY (header
   or checksum wrong). */
static int ek_check(const uint8_t *ek, const struct fa_kernels *k)
{
	unsigned logn = ek[0] & 0x0F;
	uint32_t c;

	if ((ek[0] & 0xF0) == 0x60 && ek[1] == 'F' && ek[2] == 'A') {
		return FA_ERR_SCHEME;
	}
	if ((ek[0] & 0xF0) != 0x70 || logn < FA_FNDSA_LOGN_MIN
		|| logn > FA_FNDSA_LOGN_MAX || ek[1] != 'F' || ek[2] != 'N'
		|| (ek[3] != 1 && ek[3] != 2))
	{
		return FA_ERR_KEY;
	}
	c = ek_sum(ek, logn, ek[3], k);
	c ^= (uint32_t)ek[4] | ((uint32_t)ek[5] << 8)
		| ((uint32_t)ek[6] << 16) | ((uint32_t)ek[7] << 24);
	/* declassified: the verdict only rejects a corrupted key */
	if (fa_declassify_u32(c) != 0) {
		return FA_ERR_KEY;
	}
	return (int)logn;
}

int fa_fndsa_expand_privkey(const fa_backend *be, void *expanded_key,
	size_t expanded_key_len, const void *sk, size_t sk_len,
	void *tmp, size_t tmp_len)
{
	const struct fa_kernels *k;
	uint8_t *ek = expanded_key;
	sk_state st;
	uint32_t c;
	int r;

	if (expanded_key == NULL || ((uintptr_t)expanded_key & 7) != 0) {
		return FA_ERR_BADARG;
	}
	k = fa_kernels_resolve(be);
	if (k == NULL) {
		return FA_ERR_BACKEND;
	}
	r = decode_sk(&st, NULL, sk, sk_len, tmp, tmp_len, k);
	if (r != FA_OK) {
		return r;
	}
	if (expanded_key_len < FA_FNDSA_EXPANDED_KEY_SIZE(st.logn)) {
		r = FA_ERR_SIZE;
		goto out;
	}
	memcpy(ek + EK_HDR, st.hsk, 40);
	memcpy(ek + EK_HDR + 40, st.hpk, 64);
	fa_fndsa_expand_inner((fpr *)(void *)(ek + EK_HDR + EK_HASHES),
		st.f, st.g, st.F, st.G, st.logn, (fpr *)(void *)st.work, k);
	c = ek_sum(ek, st.logn, FA_EK_VERSION_NATIVE, &fa_backend_portable);
	ek[0] = (uint8_t)(0x70 + st.logn);
	ek[1] = 'F';
	ek[2] = 'N';
	ek[3] = (uint8_t)FA_EK_VERSION_NATIVE;
	ek[4] = (uint8_t)c;
	ek[5] = (uint8_t)(c >> 8);
	ek[6] = (uint8_t)(c >> 16);
	ek[7] = (uint8_t)(c >> 24);
out:
	memset(tmp, 0, tmp_len);
	return r;
}

static int sign_tree_common(const fa_backend *be, fa_shake256_ctx *rng,
	const uint8_t *seed, void *sig, size_t sig_len, const void *ek_in,
	const uint8_t *mu_ext, const void *ctx, size_t ctx_len, int ph,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	const struct fa_kernels *k;
	const uint8_t *ek = ek_in;
	uint8_t mu[64], rnd[40], hseed[40];
	fa_shake256_ctx sc;
	unsigned logn;
	int r;

	if (sig == NULL || ek == NULL || tmp == NULL
		|| (rng == NULL && seed == NULL))
	{
		return FA_ERR_BADARG;
	}
	if (((uintptr_t)ek & 7) != 0) {
		return FA_ERR_BADARG;
	}
	if (mu_ext == NULL) {
		r = check_mu_args(ctx, ctx_len, ph, msg, msg_len);
		if (r != FA_OK) {
			return r;
		}
	}
	k = fa_kernels_resolve(be);
	if (k == NULL) {
		return FA_ERR_BACKEND;
	}
	r = ek_check(ek, k);
	if (r < 0) {
		return r;
	}
	logn = (unsigned)r;
	if (sig_len < FA_FNDSA_SIG_SIZE(logn)
		|| tmp_len < FA_TMPSIZE_FNDSA_SIGN_TREE(logn))
	{
		return FA_ERR_SIZE;
	}
	if (mu_ext != NULL) {
		memcpy(mu, mu_ext, 64);
	} else {
		mu_from_hpk(mu, ek + EK_HDR + 40, ctx, ctx_len, ph, msg,
			msg_len);
	}
	if (seed != NULL) {
		memcpy(rnd, seed, 40);
	} else {
		fa_shake256_extract(rng, rnd, 40);
	}
	fa_shake256_init(&sc);
	fa_shake256_inject(&sc, ek + EK_HDR, 40);
	fa_shake256_inject(&sc, mu, 64);
	fa_shake256_inject(&sc, rnd, 40);
	fa_shake256_flip(&sc);
	fa_shake256_extract(&sc, hseed, 40);
	r = fa_fndsa_sign_tree_inner(sig, hseed,
		(const fpr *)(const void *)(ek + EK_HDR + EK_HASHES), mu, logn,
		fa_align8(tmp), k);
	memset(rnd, 0, sizeof rnd);
	memset(hseed, 0, sizeof hseed);
	memset(tmp, 0, tmp_len);
	return r;
}

int fa_fndsa_sign_tree(const fa_backend *be, fa_shake256_ctx *rng,
	const uint8_t *seed, void *sig, size_t sig_len,
	const void *expanded_key, const void *ctx, size_t ctx_len, int ph,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	return sign_tree_common(be, rng, seed, sig, sig_len, expanded_key,
		NULL, ctx, ctx_len, ph, msg, msg_len, tmp, tmp_len);
}

int fa_fndsa_sign_tree_mu(const fa_backend *be, fa_shake256_ctx *rng,
	const uint8_t *seed, void *sig, size_t sig_len,
	const void *expanded_key, const uint8_t mu[64], void *tmp,
	size_t tmp_len)
{
	if (mu == NULL) {
		return FA_ERR_BADARG;
	}
	return sign_tree_common(be, rng, seed, sig, sig_len, expanded_key,
		mu, NULL, 0, FA_FNDSA_PH_NONE, NULL, 0, tmp, tmp_len);
}

int fa_fndsa_make_public(void *pk, size_t pk_len, const void *sk,
	size_t sk_len, void *tmp, size_t tmp_len)
{
	sk_state st;
	uint8_t pkb[FA_FNDSA_PUBKEY_SIZE(10)];
	int r;

	if (pk == NULL) {
		return FA_ERR_BADARG;
	}
	r = decode_sk(&st, pkb, sk, sk_len, tmp, tmp_len, &fa_backend_portable);
	if (r == FA_OK) {
		if (pk_len < FA_FNDSA_PUBKEY_SIZE(st.logn)) {
			r = FA_ERR_SIZE;
		} else {
			memcpy(pk, pkb, FA_FNDSA_PUBKEY_SIZE(st.logn));
		}
	}
	if (tmp != NULL) {
		memset(tmp, 0, tmp_len);
	}
	return r;
}

/* ------------------------------------------------------------------ */
/* Verification. */

/* A signature that fails FN-DSA decoding: round 3's? */
static int sig_scheme_check(const uint8_t *sig, size_t sig_len,
	unsigned logn, int r)
{
	int16_t s2[1024];
	unsigned h = sig[0] & 0xF0, l = sig[0] & 0x0F;

	if (l != logn || sig_len < 41) {
		return r;
	}
	if (h == 0x50 && sig_len == FA_SIG_CT_SIZE(logn)) {
		return FA_ERR_SCHEME;
	}
	if (h == 0x30 && sig_len <= FA_SIG_COMPRESSED_MAXSIZE(logn)
		&& fa_comp_decode(s2, logn, sig + 41, sig_len - 41) >= 0)
	{
		return FA_ERR_SCHEME;
	}
	return r;
}

static int verify_mu(const struct fa_kernels *k, const uint8_t *sig,
	size_t sig_len, const uint16_t *h, unsigned logn, const uint8_t *mu,
	void *tmp, size_t tmp_len)
{
	size_t n = MKN(logn), u;
	uint16_t *t1, *t2;
	int16_t *s2;
	uint32_t norm1 = 0, norm2 = 0, sat = 0;
	int r;

	if (tmp == NULL || tmp_len < FA_TMPSIZE_FNDSA_VERIFY(logn)) {
		return tmp == NULL ? FA_ERR_BADARG : FA_ERR_SIZE;
	}
	t1 = (uint16_t *)fa_align8(tmp);
	t2 = t1 + n;
	s2 = (int16_t *)(t2 + n);
	if (sig_len != FA_FNDSA_SIG_SIZE(logn)) {
		return sig_scheme_check(sig, sig_len, logn, FA_ERR_LENGTH);
	}
	if (sig[0] != 0x30 + logn) {
		return sig_scheme_check(sig, sig_len, logn, FA_ERR_HEADER);
	}
	r = fa_fndsa_comp_decode(s2, n, sig + 41, sig_len - 41);
	if (r != FA_OK) {
		return sig_scheme_check(sig, sig_len, logn, r);
	}
	/* |s2[i]| <= 840 (decoder): norm2 <= 1024 * 840^2 < 2^30 */
	for (u = 0; u < n; u ++) {
		norm2 += (uint32_t)((int32_t)s2[u] * s2[u]);
	}
	fa_fndsa_hash_to_point(t1, sig + 1, mu, logn, k);
	/* t2 = s2 h mod q, then s1 = c - s2 h */
	for (u = 0; u < n; u ++) {
		int32_t v = s2[u];

		t2[u] = (uint16_t)(v + (int32_t)(FA_Q & -(uint32_t)(v < 0)));
	}
	if (k->mq_poly_mul_by_ntt == NULL
		|| k->mq_poly_mul_by_ntt(t2, h, logn) != FA_KERNEL_DONE)
	{
		fa_k_mq_ntt(k, t2, logn);
		fa_k_mq_poly_mul_ntt(k, t2, h, logn);
		fa_k_mq_intt(k, t2, logn);
	}
	/* s1 centred; out of [-840, 840] (sat) rejects. Within it every
	   square is below 2^20, so norm1 < 2^30 cannot wrap. */
	for (u = 0; u < n; u ++) {
		int32_t d = (int32_t)t1[u] - (int32_t)t2[u];

		d += (int32_t)FA_Q & -(int32_t)(d < 0);
		/* centre in [-(q-1)/2, (q-1)/2] */
		d -= (int32_t)FA_Q & -(int32_t)(d > (int32_t)(FA_Q - 1) / 2);
		norm1 += (uint32_t)(d * d);
		sat |= (uint32_t)(FA_FNDSA_BINF - d) | (uint32_t)(FA_FNDSA_BINF + d);
	}
	norm1 |= -(sat >> 31);
	if (norm1 < (uint32_t)-norm2 && norm1 + norm2 <= fa_l2bound[logn]) {
		return FA_OK;
	}
	return FA_ERR_BADSIG;
}

static int verify_common(const fa_backend *be, const void *sig,
	size_t sig_len, const void *pk, size_t pk_len, const uint8_t *mu_ext,
	const void *ctx, size_t ctx_len, int ph, const void *msg,
	size_t msg_len, void *tmp, size_t tmp_len)
{
	const struct fa_kernels *k;
	uint16_t h[1024];
	uint8_t mu[64];
	unsigned logn;
	int r;

	if (sig == NULL || sig_len == 0) {
		return FA_ERR_FORMAT;
	}
	if (mu_ext == NULL) {
		r = check_mu_args(ctx, ctx_len, ph, msg, msg_len);
		if (r != FA_OK) {
			return r;
		}
	}
	k = fa_kernels_resolve(be);
	if (k == NULL) {
		return FA_ERR_BACKEND;
	}
	r = fa_fndsa_pubkey_decode(h, &logn, pk, pk_len);
	if (r != FA_OK) {
		return r;
	}
	if (mu_ext != NULL) {
		memcpy(mu, mu_ext, 64);
	} else {
		uint8_t hpk[64];

		hash_pk(hpk, pk, pk_len);
		mu_from_hpk(mu, hpk, ctx, ctx_len, ph, msg, msg_len);
	}
	/* the public key holds h in NTT form already */
	return verify_mu(k, sig, sig_len, h, logn, mu, tmp, tmp_len);
}

int fa_fndsa_verify(const fa_backend *be, const void *sig, size_t sig_len,
	const void *pk, size_t pk_len, const void *ctx, size_t ctx_len,
	int ph, const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	return verify_common(be, sig, sig_len, pk, pk_len, NULL, ctx, ctx_len,
		ph, msg, msg_len, tmp, tmp_len);
}

int fa_fndsa_verify_mu(const fa_backend *be, const void *sig,
	size_t sig_len, const void *pk, size_t pk_len, const uint8_t mu[64],
	void *tmp, size_t tmp_len)
{
	if (mu == NULL) {
		return FA_ERR_BADARG;
	}
	return verify_common(be, sig, sig_len, pk, pk_len, mu, NULL, 0,
		FA_FNDSA_PH_NONE, NULL, 0, tmp, tmp_len);
}
