/*
 * api.c -- the public API (falcon_accel.h): argument checks, scratch
 * layout, the signature and expanded-key formats, and the calls into
 * keygen/sign/verify. Key encodings and the private-key checks:
 * codec_keys.c.
 */

#include "inner.h"
#include "ct_declassify.h"

/* Scratch layouts below assume these bounds (checked at compile time). */
/* keygen: h (2n) after 8-byte alignment, f g F G (4n), then the solver's
   buffer aligned again (7) */
#define KEYGEN_NEED(logn) (7u + (6u << (logn)) + 7u + FA_TMPSIZE_NTRU(logn))
_Static_assert(FA_TMPSIZE_KEYGEN(1) >= KEYGEN_NEED(1), "keygen scratch");
_Static_assert(FA_TMPSIZE_KEYGEN(2) >= KEYGEN_NEED(2), "keygen scratch");
_Static_assert(FA_TMPSIZE_KEYGEN(3) >= KEYGEN_NEED(3), "keygen scratch");
_Static_assert(FA_TMPSIZE_KEYGEN(10) >= KEYGEN_NEED(10), "keygen scratch");
_Static_assert(FA_TMPSIZE_SIGN_DYN(10) >= 8u * 1024 + 8 + 80u * 1024,
	"sign_dyn scratch");

const char *fa_strerror(int err)
{
	switch (err) {
	case FA_OK:              return "success";
	case FA_ERR_RANDOM:      return "random source failed";
	case FA_ERR_SIZE:        return "buffer too small";
	case FA_ERR_FORMAT:      return "invalid encoding";
	case FA_ERR_BADSIG:      return "invalid signature";
	case FA_ERR_BADARG:      return "invalid argument";
	case FA_ERR_INTERNAL:    return "internal error";
	case FA_ERR_HEADER:      return "wrong header byte";
	case FA_ERR_LENGTH:      return "wrong encoded length";
	case FA_ERR_COEFF_RANGE: return "coefficient out of range";
	case FA_ERR_MINUS_ZERO:  return "non-canonical minus zero";
	case FA_ERR_PADDING:     return "non-zero padding or unused bits";
	case FA_ERR_BACKEND:     return "unknown or unavailable backend";
	case FA_ERR_BUSY:        return "queue full";
	case FA_ERR_KEY:         return "inconsistent private key";
	case FA_ERR_CANCELLED:   return "cancelled";
	case FA_ERR_DEADLINE:    return "deadline exceeded";
	case FA_ERR_SCHEME:      return "an object of the other scheme (round-3 Falcon vs FN-DSA)";
	case FA_ERR_SIGN_ATTEMPTS:
		return "signing gave up after FA_SIGN_MAX_ATTEMPTS attempts";
	default:                 return "unknown error";
	}
}

int fa_get_logn(const void *obj, size_t len)
{
	unsigned logn;

	if (obj == NULL || len == 0) {
		return FA_ERR_FORMAT;
	}
	logn = *(const uint8_t *)obj & 0x0F;
	if (logn < FA_LOGN_MIN || logn > FA_LOGN_MAX) {
		return FA_ERR_HEADER;
	}
	return (int)logn;
}

/* ------------------------------------------------------------------ */
/* Keys. */

int fa_keygen(const fa_backend *be, fa_shake256_ctx *rng, unsigned logn,
	void *sk, size_t sk_len, void *pk, size_t pk_len,
	void *tmp, size_t tmp_len)
{
	const struct fa_kernels *k = fa_kernels_resolve(be);
	size_t n;
	int8_t *f, *g, *F, *G;
	uint16_t *h;

	if (rng == NULL || sk == NULL || tmp == NULL
		|| logn < FA_LOGN_MIN || logn > FA_LOGN_MAX)
	{
		return FA_ERR_BADARG;
	}
	if (sk_len < FA_PRIVKEY_SIZE(logn)
		|| (pk != NULL && pk_len < FA_PUBKEY_SIZE(logn))
		|| tmp_len < FA_TMPSIZE_KEYGEN(logn))
	{
		return FA_ERR_SIZE;
	}
	n = MKN(logn);
	h = fa_align8(tmp);
	f = (int8_t *)(h + n);
	g = f + n;
	F = g + n;
	G = F + n;
	fa_keygen_inner(rng, f, g, F, G, h, logn, (uint8_t *)(G + n), k);
	if (fa_privkey_encode(sk, f, g, F, logn) == 0) {
		return FA_ERR_INTERNAL;
	}
	/* the public key is public */
	FA_DECLASSIFY(h, n * sizeof *h);
	if (pk != NULL && fa_pubkey_encode(pk, h, logn) == 0) {
		return FA_ERR_INTERNAL;
	}
	return FA_OK;
}

int fa_make_public(void *pk, size_t pk_len, const void *sk, size_t sk_len,
	void *tmp, size_t tmp_len)
{
	const struct fa_kernels *k = fa_kernels_resolve(NULL);
	unsigned logn;
	size_t n;
	int8_t *f, *g, *F, *G;
	uint16_t *h;
	int r;

	if (pk == NULL || sk == NULL || tmp == NULL) {
		return FA_ERR_BADARG;
	}
	r = fa_get_logn(sk, sk_len);
	if (r < 0) {
		return r;
	}
	logn = (unsigned)r;
	if (tmp_len < FA_TMPSIZE_MAKEPUB(logn)) {
		return FA_ERR_SIZE;
	}
	if (pk_len < FA_PUBKEY_SIZE(logn)) {
		return FA_ERR_SIZE;
	}
	/* [f g F G] (4n, 8-byte aligned), then the key check's scratch;
	   after the check, h (2n) and compute_public's scratch (2n) */
	n = MKN(logn);
	f = fa_align8(tmp);
	g = f + n;
	F = g + n;
	G = F + n;
	r = fa_privkey_decode_full(f, g, F, G, &logn, sk, sk_len,
		(uint8_t *)(G + n), k);
	if (r != FA_OK) {
		return r;
	}
	h = (uint16_t *)(void *)(G + n);
	if (!fa_compute_public(h, f, g, logn, (uint8_t *)(h + n), k)) {
		return FA_ERR_KEY;
	}
	FA_DECLASSIFY(h, n * sizeof *h);
	return fa_pubkey_encode(pk, h, logn) ? FA_OK : FA_ERR_INTERNAL;
}

/*
 * Expanded key header (8 bytes): 0x60 + logn, 'F', 'A', the version, then
 * the 32-bit checksum of the body (little-endian). The body is
 * FA_EXPANDED_KEY_SIZE(logn) - 8 bytes: 4n binary64 basis values, then
 * the LDL tree. The version names the checksum (privkey_check.c): 1 =
 * 64-bit lanes over the body's 64-bit words, 2 = 32-bit lanes over its
 * 32-bit words. fa_expand_privkey writes the one that is cheap on the
 * core it runs on (FA_EK_VERSION_NATIVE); signing accepts both.
 */
#define EK_BYTES(logn) (FA_EXPANDED_KEY_SIZE(logn) - 8u)

static uint32_t ek_checksum(const uint8_t *ek, unsigned logn,
	unsigned version, const struct fa_kernels *k)
{
	const void *body = ek + 8;

	if (version == 2) {
		uint32_t c;

		fa_k_ek_checksum32(k, &c, (const uint32_t *)body,
			EK_BYTES(logn) >> 2, logn);
		return c;
	}
	return fa_expanded_key_checksum((const uint64_t *)body,
		EK_BYTES(logn) >> 3, logn);
}

void fa_expanded_key_seal(uint8_t *ek, unsigned logn, unsigned version)
{
	uint32_t c = ek_checksum(ek, logn, version, &fa_backend_portable);

	ek[0] = (uint8_t)(0x60 + logn);
	ek[1] = 'F';
	ek[2] = 'A';
	ek[3] = (uint8_t)version;
	ek[4] = (uint8_t)c;
	ek[5] = (uint8_t)(c >> 8);
	ek[6] = (uint8_t)(c >> 16);
	ek[7] = (uint8_t)(c >> 24);
}

int fa_expanded_key_check(const uint8_t *ek)
{
	return fa_expanded_key_check_k(ek, &fa_backend_portable);
}

int fa_expanded_key_check_k(const uint8_t *ek, const struct fa_kernels *k)
{
	unsigned logn = ek[0] & 0x0F;
	uint32_t c;

	if ((ek[0] & 0xF0) != 0x60 || logn < 1 || logn > 10
		|| ek[1] != 'F' || ek[2] != 'A' || (ek[3] != 1 && ek[3] != 2))
	{
		return FA_ERR_KEY;
	}
	c = ek_checksum(ek, logn, ek[3], k);
	c ^= (uint32_t)ek[4] | ((uint32_t)ek[5] << 8)
		| ((uint32_t)ek[6] << 16) | ((uint32_t)ek[7] << 24);
	/* declassified: the verdict only rejects a corrupted key */
	if (fa_declassify_u32(c) != 0) {
		return FA_ERR_KEY;
	}
	return (int)logn;
}

int fa_expand_privkey(const fa_backend *be, void *expanded_key,
	size_t expanded_key_len, const void *sk, size_t sk_len,
	void *tmp, size_t tmp_len)
{
	const struct fa_kernels *k = fa_kernels_resolve(be);
	unsigned logn;
	size_t n;
	int8_t *f, *g, *F, *G;
	uint8_t *ek = expanded_key;
	int r;

	if (expanded_key == NULL || sk == NULL || tmp == NULL) {
		return FA_ERR_BADARG;
	}
	if (((uintptr_t)expanded_key & 7) != 0) {
		return FA_ERR_BADARG;
	}
	r = fa_get_logn(sk, sk_len);
	if (r < 0) {
		return r;
	}
	logn = (unsigned)r;
	if (expanded_key_len < FA_EXPANDED_KEY_SIZE(logn)
		|| tmp_len < FA_TMPSIZE_EXPAND(logn))
	{
		return FA_ERR_SIZE;
	}
	n = MKN(logn);
	f = tmp;
	g = f + n;
	F = g + n;
	G = F + n;
	r = fa_privkey_decode_full(f, g, F, G, &logn, sk, sk_len,
		(uint8_t *)(G + n), k);
	if (r != FA_OK) {
		return r;
	}
	fa_expand_privkey_inner((fpr *)(void *)(ek + 8), f, g, F, G, logn,
		(uint8_t *)(G + n), k);
	fa_expanded_key_seal(ek, logn, FA_EK_VERSION_NATIVE);
	return FA_OK;
}

/* ------------------------------------------------------------------ */
/* Message hashing: SHAKE256(nonce || msg) -> n values mod q, the
   permutations on k's keccak_f1600 slot. tmp: for the constant-time
   variant (2n bytes). */

static void hash_message(uint16_t *hm, const uint8_t *nonce,
	const void *msg, size_t msg_len, unsigned logn, int ct, uint8_t *tmp,
	const struct fa_kernels *k)
{
	fa_shake256_ctx sc;

	fa_shake256_init(&sc);
	fa_shake256_inject_k(k, &sc, nonce, FA_NONCE_SIZE);
	fa_shake256_inject_k(k, &sc, msg, msg_len);
	fa_shake256_flip(&sc);
	if (ct) {
		fa_hash_to_point_ct_k(k, &sc, hm, logn, tmp);
	} else {
		fa_hash_to_point_vartime_k(k, &sc, hm, logn);
	}
}

/* Encode s2 in the requested format after header and nonce. Returns the
   total length or 0 if s2 does not fit (then the caller re-samples). */
static size_t encode_sig(uint8_t *sig, size_t sig_max, int format,
	const uint8_t *nonce, const int16_t *s2, unsigned logn)
{
	size_t len, body;

	if (sig_max < 41) {
		return 0;
	}
	memcpy(sig + 1, nonce, FA_NONCE_SIZE);
	switch (format) {
	case FA_SIG_COMPRESSED:
		sig[0] = (uint8_t)(0x30 + logn);
		len = sig_max < FA_SIG_COMPRESSED_MAXSIZE(logn)
			? sig_max : FA_SIG_COMPRESSED_MAXSIZE(logn);
		body = fa_comp_encode(sig + 41, len - 41, s2, logn);
		return body == 0 ? 0 : 41 + body;
	case FA_SIG_PADDED:
		sig[0] = (uint8_t)(0x30 + logn);
		len = FA_SIG_PADDED_SIZE(logn);
		if (sig_max < len) {
			return 0;
		}
		body = fa_comp_encode(sig + 41, len - 41, s2, logn);
		if (body == 0) {
			return 0;
		}
		memset(sig + 41 + body, 0, len - 41 - body);
		return len;
	case FA_SIG_CT:
		sig[0] = (uint8_t)(0x50 + logn);
		len = FA_SIG_CT_SIZE(logn);
		if (sig_max < len) {
			return 0;
		}
		body = fa_trim_i16_encode(sig + 41, len - 41, s2, logn,
			FA_SIG_CT_BITS(logn));
		return body == len - 41 ? len : 0;
	default:
		return 0;
	}
}

static int check_sign_args(void *sig, size_t *sig_len, int format,
	unsigned logn)
{
	size_t need;

	if (sig == NULL || sig_len == NULL) {
		return FA_ERR_BADARG;
	}
	switch (format) {
	case FA_SIG_COMPRESSED:
		/* a compressed signature has no fixed size; require room for
		   the padded size, which almost every signature fits */
		need = FA_SIG_PADDED_SIZE(logn);
		break;
	case FA_SIG_PADDED:
		need = FA_SIG_PADDED_SIZE(logn);
		break;
	case FA_SIG_CT:
		need = FA_SIG_CT_SIZE(logn);
		break;
	default:
		return FA_ERR_BADARG;
	}
	return *sig_len < need ? FA_ERR_SIZE : FA_OK;
}

/* Signing core shared by dyn and tree: hm computed, then sign+encode until
   the encoding fits. */
typedef struct {
	const struct fa_kernels *k;
	int tree;
	const int8_t *f, *g, *F, *G;
	const fpr *ek;
} signer;

static int sign_core(const signer *sg, const uint8_t nonce[40],
	fa_shake256_ctx *sampler_rng, uint8_t *sig, size_t *sig_len,
	int format, const void *msg, size_t msg_len, unsigned logn,
	uint8_t *tmp)
{
	size_t n = MKN(logn), len;
	uint16_t *hm = fa_align8(tmp);
	int16_t *s2 = (int16_t *)(hm + n);
	uint8_t *rest = (uint8_t *)(s2 + n);

	unsigned left = FA_SIGN_MAX_ATTEMPTS, used;

	hash_message(hm, nonce, msg, msg_len, logn, format == FA_SIG_CT, rest,
		sg->k);
	/* Every attempt (a short-norm rejection in the inner loop or an
	   encoding that does not fit here) counts against one budget. */
	while (left > 0) {
		if (sg->tree) {
			used = fa_sign_tree_inner(s2, sampler_rng, sg->ek, hm,
				logn, rest, sg->k, left);
		} else {
			used = fa_sign_dyn_inner(s2, sampler_rng, sg->f, sg->g,
				sg->F, sg->G, hm, logn, rest, sg->k, left);
		}
		if (used == 0) {
			break;
		}
		left -= used;
		/* s2 is accepted: it is the public signature */
		FA_DECLASSIFY(s2, n * sizeof *s2);
		len = encode_sig(sig, *sig_len, format, nonce, s2, logn);
		if (len != 0) {
			*sig_len = len;
			return FA_OK;
		}
	}
	return FA_ERR_SIGN_ATTEMPTS;
}

int fa_sign_dyn_ex(const fa_backend *be, const uint8_t nonce[40],
	fa_shake256_ctx *sampler_rng, void *sig, size_t *sig_len,
	int sig_format, const void *sk, size_t sk_len,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	signer sg;
	unsigned logn;
	size_t n;
	int8_t *f, *g, *F, *G;
	int r;

	if (nonce == NULL || sampler_rng == NULL || sk == NULL || tmp == NULL
		|| (msg == NULL && msg_len != 0))
	{
		return FA_ERR_BADARG;
	}
	r = fa_get_logn(sk, sk_len);
	if (r < 0) {
		return r;
	}
	logn = (unsigned)r;
	r = check_sign_args(sig, sig_len, sig_format, logn);
	if (r != FA_OK) {
		return r;
	}
	if (tmp_len < FA_TMPSIZE_SIGN_DYN(logn)) {
		return FA_ERR_SIZE;
	}
	n = MKN(logn);
	f = tmp;
	g = f + n;
	F = g + n;
	G = F + n;
	sg.k = fa_kernels_resolve(be);
	r = fa_privkey_decode_full(f, g, F, G, &logn, sk, sk_len,
		(uint8_t *)(G + n), sg.k);
	if (r != FA_OK) {
		return r;
	}
	sg.tree = 0;
	sg.f = f;
	sg.g = g;
	sg.F = F;
	sg.G = G;
	sg.ek = NULL;
	return sign_core(&sg, nonce, sampler_rng, sig, sig_len, sig_format,
		msg, msg_len, logn, (uint8_t *)(G + n));
}

int fa_sign_tree_ex(const fa_backend *be, const uint8_t nonce[40],
	fa_shake256_ctx *sampler_rng, void *sig, size_t *sig_len,
	int sig_format, const void *expanded_key,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	const uint8_t *ek = expanded_key;
	signer sg;
	unsigned logn;
	int r;

	if (nonce == NULL || sampler_rng == NULL || ek == NULL || tmp == NULL
		|| (msg == NULL && msg_len != 0))
	{
		return FA_ERR_BADARG;
	}
	if (((uintptr_t)ek & 7) != 0) {
		return FA_ERR_BADARG;
	}
	memset(&sg, 0, sizeof sg);
	sg.k = fa_kernels_resolve(be);
	r = fa_expanded_key_check_k(ek, sg.k);
	if (r < 0) {
		return r;
	}
	logn = (unsigned)r;
	r = check_sign_args(sig, sig_len, sig_format, logn);
	if (r != FA_OK) {
		return r;
	}
	if (tmp_len < FA_TMPSIZE_SIGN_TREE(logn)) {
		return FA_ERR_SIZE;
	}
	sg.tree = 1;
	sg.ek = (const fpr *)(const void *)(ek + 8);
	return sign_core(&sg, nonce, sampler_rng, sig, sig_len, sig_format,
		msg, msg_len, logn, tmp);
}

/* nonce (40 bytes) then a 48-byte sampler seed, both from rng (its
   permutations on k's keccak_f1600 slot: the same bytes). */
static void draw_nonce_and_sampler(const struct fa_kernels *k,
	fa_shake256_ctx *rng, uint8_t *nonce, fa_shake256_ctx *sampler_rng)
{
	uint8_t seed[48];

	fa_shake256_extract_k(k, rng, nonce, FA_NONCE_SIZE);
	/* the nonce is public (it is part of the signature) */
	FA_DECLASSIFY(nonce, FA_NONCE_SIZE);
	fa_shake256_extract_k(k, rng, seed, sizeof seed);
	fa_shake256_init_prng_from_seed(sampler_rng, seed, sizeof seed);
	memset(seed, 0, sizeof seed);
}

int fa_sign_dyn(const fa_backend *be, fa_shake256_ctx *rng,
	void *sig, size_t *sig_len, int sig_format,
	const void *sk, size_t sk_len, const void *msg, size_t msg_len,
	void *tmp, size_t tmp_len)
{
	uint8_t nonce[FA_NONCE_SIZE];
	fa_shake256_ctx srng;

	if (rng == NULL) {
		return FA_ERR_BADARG;
	}
	draw_nonce_and_sampler(fa_kernels_resolve(be), rng, nonce, &srng);
	return fa_sign_dyn_ex(be, nonce, &srng, sig, sig_len, sig_format,
		sk, sk_len, msg, msg_len, tmp, tmp_len);
}

int fa_sign_tree(const fa_backend *be, fa_shake256_ctx *rng,
	void *sig, size_t *sig_len, int sig_format,
	const void *expanded_key, const void *msg, size_t msg_len,
	void *tmp, size_t tmp_len)
{
	uint8_t nonce[FA_NONCE_SIZE];
	fa_shake256_ctx srng;

	if (rng == NULL) {
		return FA_ERR_BADARG;
	}
	draw_nonce_and_sampler(fa_kernels_resolve(be), rng, nonce, &srng);
	return fa_sign_tree_ex(be, nonce, &srng, sig, sig_len, sig_format,
		expanded_key, msg, msg_len, tmp, tmp_len);
}

/* ------------------------------------------------------------------ */
/* Verification. */

/* Decode a signature of degree logn into s2; *ct set for the CT format. */
static int decode_sig(int16_t *s2, int *ct, const uint8_t *sig,
	size_t sig_len, int format, unsigned logn)
{
	unsigned slogn;
	int r;

	if (sig == NULL || sig_len < 42) {
		return sig == NULL ? FA_ERR_BADARG : FA_ERR_LENGTH;
	}
	slogn = sig[0] & 0x0F;
	if (slogn != logn) {
		return FA_ERR_HEADER;
	}
	switch (sig[0] & 0xF0) {
	case 0x30:
		if (format == FA_SIG_CT) {
			return FA_ERR_HEADER;
		}
		if (format == 0) {
			format = sig_len == FA_SIG_PADDED_SIZE(logn)
				? FA_SIG_PADDED : FA_SIG_COMPRESSED;
		}
		if (format == FA_SIG_PADDED) {
			size_t u;

			if (sig_len != FA_SIG_PADDED_SIZE(logn)) {
				return FA_ERR_LENGTH;
			}
			r = fa_comp_decode(s2, logn, sig + 41, sig_len - 41);
			if (r < 0) {
				return r;
			}
			for (u = 41 + (size_t)r; u < sig_len; u ++) {
				if (sig[u] != 0) {
					return FA_ERR_PADDING;
				}
			}
		} else if (format == FA_SIG_COMPRESSED) {
			if (sig_len > FA_SIG_COMPRESSED_MAXSIZE(logn)) {
				return FA_ERR_LENGTH;
			}
			r = fa_comp_decode(s2, logn, sig + 41, sig_len - 41);
			if (r < 0) {
				return r;
			}
			if ((size_t)r != sig_len - 41) {
				return FA_ERR_LENGTH;
			}
		} else {
			return FA_ERR_BADARG;
		}
		*ct = 0;
		return FA_OK;
	case 0x50:
		if (format != 0 && format != FA_SIG_CT) {
			return FA_ERR_HEADER;
		}
		if (sig_len != FA_SIG_CT_SIZE(logn)) {
			return FA_ERR_LENGTH;
		}
		r = fa_trim_i16_decode(s2, logn, FA_SIG_CT_BITS(logn),
			sig + 41, sig_len - 41);
		if (r < 0) {
			return r;
		}
		if ((size_t)r != sig_len - 41) {
			return FA_ERR_LENGTH;
		}
		*ct = 1;
		return FA_OK;
	default:
		return FA_ERR_HEADER;
	}
}

int fa_verify_prepared(const fa_backend *be, const void *sig,
	size_t sig_len, int sig_format, const fa_prepared_pubkey *pp,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	const struct fa_kernels *k = fa_kernels_resolve(be);
	unsigned logn;
	size_t n;
	uint16_t *hm;
	int16_t *s2;
	uint8_t *rest;
	int r, ct = 0;

	if (pp == NULL || tmp == NULL || (msg == NULL && msg_len != 0)) {
		return FA_ERR_BADARG;
	}
	logn = pp->logn;
	if (logn < 1 || logn > 10) {
		return FA_ERR_BADARG;
	}
	if (tmp_len < FA_TMPSIZE_VERIFY(logn)) {
		return FA_ERR_SIZE;
	}
	n = MKN(logn);
	hm = fa_align8(tmp);
	s2 = (int16_t *)(hm + n);
	rest = (uint8_t *)(s2 + n);
	r = decode_sig(s2, &ct, sig, sig_len, sig_format, logn);
	if (r != FA_OK) {
		return r;
	}
	hash_message(hm, (const uint8_t *)sig + 1, msg, msg_len, logn, ct, rest,
		k);
	return fa_verify_raw(hm, s2, pp->h_ntt, logn, rest, k)
		? FA_OK : FA_ERR_BADSIG;
}

int fa_pubkey_prepare(const fa_backend *be, fa_prepared_pubkey *pp,
	const void *pk, size_t pk_len)
{
	const struct fa_kernels *k = fa_kernels_resolve(be);
	unsigned logn;
	int r;

	if (pp == NULL || pk == NULL) {
		return FA_ERR_BADARG;
	}
	r = fa_pubkey_decode(pp->h_ntt, &logn, pk, pk_len);
	if (r != FA_OK) {
		return r;
	}
	pp->logn = logn;
	fa_to_ntt(pp->h_ntt, logn, k);
	return FA_OK;
}

int fa_verify(const fa_backend *be, const void *sig, size_t sig_len,
	int sig_format, const void *pk, size_t pk_len,
	const void *msg, size_t msg_len, void *tmp, size_t tmp_len)
{
	fa_prepared_pubkey pp;
	int r = fa_pubkey_prepare(be, &pp, pk, pk_len);

	if (r != FA_OK) {
		return r;
	}
	return fa_verify_prepared(be, sig, sig_len, sig_format, &pp, msg,
		msg_len, tmp, tmp_len);
}
