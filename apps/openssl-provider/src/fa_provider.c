/*
 * fa_provider.c -- falconaccel, an OpenSSL 3 provider for Falcon (round 3,
 * NIST KAT-exact) and FN-DSA (fn-dsa 0.4.0, provisional) on libfalcon_accel.
 *
 * Algorithms: falcon512, falcon1024, fndsa512, fndsa1024 (names and OIDs
 * from include/falcon_accel_oids.h, generated from data/oids.json), each
 * with
 *  - key management: generation (OS random source), import / export of
 *    the raw keys (OSSL_PKEY_PARAM_PUB_KEY / PRIV_KEY), compare, dup;
 *  - signature: pure message signing as for EdDSA (EVP_DigestSign* with
 *    no digest, the one-shot EVP_PKEY_sign on the message, `openssl
 *    pkeyutl -sign -rawin`, X.509 and CMS). A digest name given to
 *    EVP_DigestSignInit (CMS passes the one of its messageDigest
 *    attribute) is accepted and not used: the signature is always over
 *    the data itself. Round 3: compressed signatures (header 0x30+logn, as
 *    liboqs / oqs-provider); FN-DSA: fn-dsa's fixed-size signature, empty
 *    context, no pre-hash;
 *  - encoders and decoders: PrivateKeyInfo and SubjectPublicKeyInfo in
 *    DER and PEM (the codec is the library's src/pki.c, strict DER).
 *
 * Backend: the library's default, or the one named by the provider's
 * configuration parameter "backend" (openssl.cnf provider section), else
 * by $FALCON_ACCEL_BACKEND: portable, avx2 or rtl. "soc" (the simulated
 * SoC runs whole CLI commands only) and unknown names make the provider
 * refuse to load, with the reason on the error stack.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "falcon_accel.h"
#include "falcon_accel_pki.h"

#define FAP_NAME "falconaccel"
#define FAP_VERSION "0.1.0"
#define FAP_MAX_PK 1793
#define FAP_SIG_MAX 1462   /* FA_SIG_COMPRESSED_MAXSIZE(10) */

/* ------------------------------------------------------------------ */
/* Provider context and errors */

typedef struct {
	const OSSL_CORE_HANDLE *handle;
	const fa_backend *be;
	char be_name[32];
} fap_ctx;

static const OSSL_CORE_HANDLE *c_handle;
static OSSL_FUNC_core_new_error_fn *c_new_error;
static OSSL_FUNC_core_set_error_debug_fn *c_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *c_vset_error;
static OSSL_FUNC_core_get_params_fn *c_get_params;
static OSSL_FUNC_core_obj_create_fn *c_obj_create;
static OSSL_FUNC_core_obj_add_sigid_fn *c_obj_add_sigid;
static OSSL_FUNC_BIO_read_ex_fn *c_bio_read_ex;
static OSSL_FUNC_BIO_write_ex_fn *c_bio_write_ex;

/* Reason codes (fap_reasons). */
#define FAP_R_KEY        1
#define FAP_R_ENCODING   2
#define FAP_R_BACKEND    3
#define FAP_R_SIGN       4
#define FAP_R_ARG        5

static const OSSL_ITEM fap_reasons[] = {
	{ FAP_R_KEY, "falconaccel: invalid or missing key" },
	{ FAP_R_ENCODING, "falconaccel: key encoding refused" },
	{ FAP_R_BACKEND, "falconaccel: backend" },
	{ FAP_R_SIGN, "falconaccel: signing failed" },
	{ FAP_R_ARG, "falconaccel: invalid argument" },
	{ 0, NULL }
};

static void fap_err(const char *func, int reason, const char *fmt, ...)
{
	va_list ap;

	if (c_new_error == NULL || c_vset_error == NULL) {
		return;
	}
	c_new_error(c_handle);
	if (c_set_error_debug != NULL) {
		c_set_error_debug(c_handle, __FILE__, 0, func);
	}
	va_start(ap, fmt);
	c_vset_error(c_handle, (uint32_t)reason, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Keys */

typedef struct {
	fap_ctx *pc;
	int alg;
	int has_pub, has_priv;
	uint8_t pk[FAP_MAX_PK];
	size_t pk_len;
	uint8_t *sk;
	size_t sk_len;
	fa_prepared_pubkey pp;   /* round 3: h in NTT form, for verifying */
	int pp_ready;
} fap_key;

static int alg_fndsa(int alg)
{
	return fa_pki_alg_fndsa(alg);
}

static unsigned alg_logn(int alg)
{
	return fa_pki_alg_logn(alg);
}

static size_t alg_sig_max(int alg)
{
	unsigned logn = alg_logn(alg);

	return alg_fndsa(alg) ? FA_FNDSA_SIG_SIZE(logn)
		: FA_SIG_COMPRESSED_MAXSIZE(logn);
}

static fap_key *key_new(fap_ctx *pc, int alg)
{
	fap_key *k = OPENSSL_zalloc(sizeof *k);

	if (k != NULL) {
		k->pc = pc;
		k->alg = alg;
	}
	return k;
}

static void key_free(void *vk)
{
	fap_key *k = vk;

	if (k == NULL) {
		return;
	}
	if (k->sk != NULL) {
		OPENSSL_clear_free(k->sk, k->sk_len);
	}
	OPENSSL_free(k);
}

/* The public key of sk (recomputed), into k->pk. */
static int key_derive_pub(fap_key *k)
{
	unsigned logn = alg_logn(k->alg);
	size_t tl = alg_fndsa(k->alg) ? FA_TMPSIZE_FNDSA_SIGN(logn)
		: FA_TMPSIZE_MAKEPUB(logn);
	uint8_t *tmp = OPENSSL_malloc(tl);
	int r;

	if (tmp == NULL) {
		return 0;
	}
	k->pk_len = fa_pki_alg_pk_len(k->alg);
	r = alg_fndsa(k->alg)
		? fa_fndsa_make_public(k->pk, k->pk_len, k->sk, k->sk_len, tmp, tl)
		: fa_make_public(k->pk, k->pk_len, k->sk, k->sk_len, tmp, tl);
	OPENSSL_clear_free(tmp, tl);
	if (r != FA_OK) {
		fap_err("key_derive_pub", FAP_R_KEY, "%s private key: %s",
			fa_pki_alg_name(k->alg), fa_fndsa_strerror(r));
		return 0;
	}
	k->has_pub = 1;
	k->pp_ready = !alg_fndsa(k->alg)
		&& fa_pubkey_prepare(k->pc->be, &k->pp, k->pk, k->pk_len) == FA_OK;
	return 1;
}

/* Set the private key (and its public key: given, checked against the
   recomputed one, or recomputed). */
static int key_set(fap_key *k, const uint8_t *sk, size_t sk_len,
	const uint8_t *pk, size_t pk_len)
{
	if (sk != NULL) {
		if (sk_len != fa_pki_alg_sk_len(k->alg)
			|| sk[0] != 0x50 + alg_logn(k->alg))
		{
			fap_err("key_set", FAP_R_KEY, "%s private key: wrong length "
				"%zu or header", fa_pki_alg_name(k->alg), sk_len);
			return 0;
		}
		k->sk = OPENSSL_malloc(sk_len);
		if (k->sk == NULL) {
			return 0;
		}
		memcpy(k->sk, sk, sk_len);
		k->sk_len = sk_len;
		k->has_priv = 1;
		if (!key_derive_pub(k)) {
			return 0;
		}
		if (pk != NULL && (pk_len != k->pk_len
			|| memcmp(pk, k->pk, pk_len) != 0))
		{
			fap_err("key_set", FAP_R_KEY, "%s: the public key given "
				"with the private key is not its public key",
				fa_pki_alg_name(k->alg));
			return 0;
		}
		return 1;
	}
	if (pk != NULL) {
		fa_prepared_pubkey pp;
		uint8_t mu[64];

		if (pk_len != fa_pki_alg_pk_len(k->alg)
			|| pk[0] != alg_logn(k->alg))
		{
			fap_err("key_set", FAP_R_KEY, "%s public key: wrong length "
				"%zu or header", fa_pki_alg_name(k->alg), pk_len);
			return 0;
		}
		/* h must decode (coefficients < q) */
		if (alg_fndsa(k->alg)
			? fa_fndsa_compute_mu(mu, pk, pk_len, NULL, 0,
				FA_FNDSA_PH_NONE, NULL, 0) != FA_OK
			: fa_pubkey_prepare(k->pc->be, &pp, pk, pk_len) != FA_OK)
		{
			fap_err("key_set", FAP_R_KEY, "%s public key does not "
				"decode", fa_pki_alg_name(k->alg));
			return 0;
		}
		memcpy(k->pk, pk, pk_len);
		k->pk_len = pk_len;
		k->has_pub = 1;
		if (!alg_fndsa(k->alg)) {
			k->pp = pp;
			k->pp_ready = 1;
		}
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Key management */

static OSSL_FUNC_keymgmt_free_fn km_free;
static OSSL_FUNC_keymgmt_has_fn km_has;
static OSSL_FUNC_keymgmt_match_fn km_match;
static OSSL_FUNC_keymgmt_import_fn km_import;
static OSSL_FUNC_keymgmt_export_fn km_export;
static OSSL_FUNC_keymgmt_import_types_fn km_imexport_types;
static OSSL_FUNC_keymgmt_get_params_fn km_get_params;
static OSSL_FUNC_keymgmt_gettable_params_fn km_gettable_params;
static OSSL_FUNC_keymgmt_gen_set_params_fn km_gen_set_params;
static OSSL_FUNC_keymgmt_gen_settable_params_fn km_gen_settable_params;
static OSSL_FUNC_keymgmt_gen_fn km_gen;
static OSSL_FUNC_keymgmt_gen_cleanup_fn km_gen_cleanup;
static OSSL_FUNC_keymgmt_load_fn km_load;
static OSSL_FUNC_keymgmt_dup_fn km_dup;

static void km_free(void *k)
{
	key_free(k);
}

static int km_has(const void *vk, int selection)
{
	const fap_key *k = vk;

	if (k == NULL) {
		return 0;
	}
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && !k->has_pub) {
		return 0;
	}
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && !k->has_priv) {
		return 0;
	}
	return 1;
}

static int km_match(const void *va, const void *vb, int selection)
{
	const fap_key *a = va, *b = vb;

	if (a->alg != b->alg) {
		return 0;
	}
	if (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) {
		if (a->has_pub && b->has_pub) {
			return a->pk_len == b->pk_len
				&& CRYPTO_memcmp(a->pk, b->pk, a->pk_len) == 0;
		}
		if (a->has_priv && b->has_priv) {
			return a->sk_len == b->sk_len
				&& CRYPTO_memcmp(a->sk, b->sk, a->sk_len) == 0;
		}
		return 0;
	}
	return 1;
}

static int km_import(void *vk, int selection, const OSSL_PARAM params[])
{
	fap_key *k = vk;
	const OSSL_PARAM *ppub, *ppriv;
	const void *pub = NULL, *priv = NULL;
	size_t pub_len = 0, priv_len = 0;

	if (k == NULL || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) {
		return 0;
	}
	ppub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
	ppriv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
	if (ppub != NULL && !OSSL_PARAM_get_octet_string_ptr(ppub, &pub,
		&pub_len))
	{
		return 0;
	}
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && ppriv != NULL
		&& !OSSL_PARAM_get_octet_string_ptr(ppriv, &priv, &priv_len))
	{
		return 0;
	}
	if (priv == NULL && pub == NULL) {
		return 0;
	}
	return key_set(k, priv, priv_len, pub, pub_len);
}

static int km_export(void *vk, int selection, OSSL_CALLBACK *cb,
	void *cbarg)
{
	fap_key *k = vk;
	OSSL_PARAM p[3];
	int n = 0;

	if (k == NULL) {
		return 0;
	}
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && k->has_pub) {
		p[n ++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
			k->pk, k->pk_len);
	}
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->has_priv) {
		p[n ++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY,
			k->sk, k->sk_len);
	}
	p[n] = OSSL_PARAM_construct_end();
	return cb(p, cbarg);
}

static const OSSL_PARAM km_key_types[] = {
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *km_imexport_types(int selection)
{
	return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) ? km_key_types : NULL;
}

static int km_get_params(void *vk, OSSL_PARAM params[])
{
	fap_key *k = vk;
	OSSL_PARAM *p;
	int lvl = alg_logn(k->alg) == 9 ? 128 : 256;

	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL
		&& !OSSL_PARAM_set_int(p, (int)(8 * fa_pki_alg_pk_len(k->alg))))
	{
		return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS))
		!= NULL && !OSSL_PARAM_set_int(p, lvl))
	{
		return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL
		&& !OSSL_PARAM_set_int(p, (int)alg_sig_max(k->alg)))
	{
		return 0;
	}
	/* pure signing: no digest ("" = none, as EdDSA) */
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST))
		!= NULL && !OSSL_PARAM_set_utf8_string(p, ""))
	{
		return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) != NULL
		&& (!k->has_pub
			|| !OSSL_PARAM_set_octet_string(p, k->pk, k->pk_len)))
	{
		return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY))
		!= NULL && (!k->has_pub
			|| !OSSL_PARAM_set_octet_string(p, k->pk, k->pk_len)))
	{
		return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL
		&& (!k->has_priv
			|| !OSSL_PARAM_set_octet_string(p, k->sk, k->sk_len)))
	{
		return 0;
	}
	return 1;
}

static const OSSL_PARAM km_gettable[] = {
	OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
	OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
	OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *km_gettable_params(void *provctx)
{
	(void)provctx;
	return km_gettable;
}

typedef struct {
	fap_ctx *pc;
	int alg;
	int selection;
} fap_genctx;

static int km_gen_set_params(void *g, const OSSL_PARAM params[])
{
	(void)g;
	(void)params;
	return 1;
}

static const OSSL_PARAM km_gen_settable[] = { OSSL_PARAM_END };

static const OSSL_PARAM *km_gen_settable_params(void *g, void *provctx)
{
	(void)g;
	(void)provctx;
	return km_gen_settable;
}

static void *km_gen(void *vg, OSSL_CALLBACK *cb, void *cbarg)
{
	fap_genctx *g = vg;
	fap_key *k;
	fa_shake256_ctx rng;
	unsigned logn = alg_logn(g->alg);
	size_t tl, sk_len = fa_pki_alg_sk_len(g->alg);
	uint8_t *tmp;
	int r;

	(void)cb;
	(void)cbarg;
	k = key_new(g->pc, g->alg);
	if (k == NULL) {
		return NULL;
	}
	if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) {
		return k;
	}
	k->sk = OPENSSL_malloc(sk_len);
	tl = alg_fndsa(g->alg) ? FA_TMPSIZE_FNDSA_KEYGEN(logn)
		: FA_TMPSIZE_KEYGEN(logn);
	tmp = OPENSSL_malloc(tl);
	if (k->sk == NULL || tmp == NULL
		|| fa_shake256_init_prng_from_system(&rng) != FA_OK)
	{
		OPENSSL_free(tmp);
		key_free(k);
		return NULL;
	}
	k->sk_len = sk_len;
	k->pk_len = fa_pki_alg_pk_len(g->alg);
	r = alg_fndsa(g->alg)
		? fa_fndsa_keygen(g->pc->be, &rng, logn, k->sk, sk_len, k->pk,
			k->pk_len, tmp, tl)
		: fa_keygen(g->pc->be, &rng, logn, k->sk, sk_len, k->pk,
			k->pk_len, tmp, tl);
	OPENSSL_cleanse(&rng, sizeof rng);
	OPENSSL_clear_free(tmp, tl);
	if (r != FA_OK) {
		fap_err("km_gen", FAP_R_KEY, "key generation: %s",
			fa_fndsa_strerror(r));
		key_free(k);
		return NULL;
	}
	k->has_priv = k->has_pub = 1;
	k->pp_ready = !alg_fndsa(g->alg)
		&& fa_pubkey_prepare(g->pc->be, &k->pp, k->pk, k->pk_len) == FA_OK;
	return k;
}

static void km_gen_cleanup(void *g)
{
	OPENSSL_free(g);
}

/* The decoders hand keys over by reference (a fap_key *). */
static void *km_load(const void *reference, size_t reference_sz)
{
	fap_key *k;

	if (reference == NULL || reference_sz != sizeof k) {
		return NULL;
	}
	k = *(fap_key *const *)reference;
	*(fap_key **)reference = NULL;
	return k;
}

static void *km_dup(const void *vk, int selection)
{
	const fap_key *k = vk;
	fap_key *d = key_new(k->pc, k->alg);

	if (d == NULL) {
		return NULL;
	}
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && k->has_pub) {
		memcpy(d->pk, k->pk, k->pk_len);
		d->pk_len = k->pk_len;
		d->has_pub = 1;
		d->pp = k->pp;
		d->pp_ready = k->pp_ready;
	}
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->has_priv) {
		d->sk = OPENSSL_malloc(k->sk_len);
		if (d->sk == NULL) {
			key_free(d);
			return NULL;
		}
		memcpy(d->sk, k->sk, k->sk_len);
		d->sk_len = k->sk_len;
		d->has_priv = 1;
	}
	return d;
}

#define KM_ALG(N, IDX)                                                      \
static void *km_new_##N(void *provctx)                                     \
{                                                                           \
	return key_new(provctx, IDX);                                       \
}                                                                           \
static void *km_gen_init_##N(void *provctx, int selection,                 \
	const OSSL_PARAM params[])                                          \
{                                                                           \
	fap_genctx *g = OPENSSL_zalloc(sizeof *g);                          \
	(void)params;                                                       \
	if (g != NULL) {                                                    \
		g->pc = provctx;                                            \
		g->alg = IDX;                                               \
		g->selection = selection;                                   \
	}                                                                   \
	return g;                                                           \
}                                                                           \
static const char *km_query_##N(int op)                                   \
{                                                                           \
	(void)op;                                                           \
	return FA_OID_##N##_SN;                                             \
}                                                                           \
static const OSSL_DISPATCH km_fns_##N[] = {                                \
	{ OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))km_new_##N },              \
	{ OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))km_free },                \
	{ OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))km_has },                  \
	{ OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))km_match },              \
	{ OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))km_import },            \
	{ OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))km_imexport_types }, \
	{ OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))km_export },            \
	{ OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))km_imexport_types }, \
	{ OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))km_get_params },    \
	{ OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS,                                \
		(void (*)(void))km_gettable_params },                       \
	{ OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))km_gen_init_##N },    \
	{ OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))km_gen_set_params }, \
	{ OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS,                            \
		(void (*)(void))km_gen_settable_params },                   \
	{ OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))km_gen },                  \
	{ OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))km_gen_cleanup },  \
	{ OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))km_load },                \
	{ OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))km_dup },                  \
	{ OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME,                           \
		(void (*)(void))km_query_##N },                             \
	{ 0, NULL }                                                         \
};

KM_ALG(FALCON512, FA_PKI_FALCON512)
KM_ALG(FALCON1024, FA_PKI_FALCON1024)
KM_ALG(FNDSA512, FA_PKI_FNDSA512)
KM_ALG(FNDSA1024, FA_PKI_FNDSA1024)

/* ------------------------------------------------------------------ */
/* Signature */

typedef struct {
	fap_ctx *pc;
	fap_key *key;
	int op;             /* 1 sign, 2 verify */
	uint8_t *buf;       /* DigestSign/Verify data, collected */
	size_t len, cap;
	uint8_t *tmp;
	size_t tmp_len;
} fap_sigctx;

static void *sig_newctx(void *provctx, const char *propq)
{
	fap_sigctx *s = OPENSSL_zalloc(sizeof *s);

	(void)propq;
	if (s != NULL) {
		s->pc = provctx;
	}
	return s;
}

static void sig_freectx(void *vs)
{
	fap_sigctx *s = vs;

	if (s == NULL) {
		return;
	}
	OPENSSL_clear_free(s->buf, s->cap);
	OPENSSL_clear_free(s->tmp, s->tmp_len);
	OPENSSL_free(s);
}

static void *sig_dupctx(void *vs)
{
	fap_sigctx *s = vs, *d = OPENSSL_zalloc(sizeof *d);

	if (d == NULL) {
		return NULL;
	}
	d->pc = s->pc;
	d->key = s->key;
	d->op = s->op;
	if (s->cap > 0) {
		d->buf = OPENSSL_malloc(s->cap);
		if (d->buf == NULL) {
			OPENSSL_free(d);
			return NULL;
		}
		memcpy(d->buf, s->buf, s->len);
		d->cap = s->cap;
		d->len = s->len;
	}
	return d;
}

/* Scratch for the operation s->op on s->key (allocated on first use, so
   that a duplicated context gets its own). */
static int sig_tmp(fap_sigctx *s)
{
	unsigned logn = alg_logn(s->key->alg);
	int op = s->op;
	size_t tl = alg_fndsa(s->key->alg)
		? (op == 1 ? FA_TMPSIZE_FNDSA_SIGN(logn) : FA_TMPSIZE_FNDSA_VERIFY(logn))
		: (op == 1 ? FA_TMPSIZE_SIGN_DYN(logn) : FA_TMPSIZE_VERIFY(logn));

	if (s->tmp_len < tl) {
		OPENSSL_clear_free(s->tmp, s->tmp_len);
		s->tmp_len = 0;
		s->tmp = OPENSSL_malloc(tl);
		if (s->tmp == NULL) {
			return 0;
		}
		s->tmp_len = tl;
	}
	return 1;
}

static int sig_init(fap_sigctx *s, void *vk, int op)
{
	fap_key *k = vk;

	if (k == NULL && s->key == NULL) {
		fap_err("sig_init", FAP_R_KEY, "no key");
		return 0;
	}
	if (k != NULL) {
		s->key = k;
	}
	k = s->key;
	if ((op == 1 && !k->has_priv) || (op == 2 && !k->has_pub)) {
		fap_err("sig_init", FAP_R_KEY, "%s: %s key needed",
			fa_pki_alg_name(k->alg), op == 1 ? "a private" : "a public");
		return 0;
	}
	s->op = op;
	s->len = 0;
	return 1;
}

static int sig_sign_init(void *vs, void *vk, const OSSL_PARAM params[])
{
	(void)params;
	return sig_init(vs, vk, 1);
}

static int sig_verify_init(void *vs, void *vk, const OSSL_PARAM params[])
{
	(void)params;
	return sig_init(vs, vk, 2);
}

/* One signature of msg. sig NULL: the maximum size in *siglen. */
static int sig_sign(void *vs, unsigned char *sig, size_t *siglen,
	size_t sigsize, const unsigned char *msg, size_t msg_len)
{
	fap_sigctx *s = vs;
	fap_key *k = s->key;
	fa_shake256_ctx rng;
	size_t max = alg_sig_max(k->alg), out = sigsize;
	int r;

	if (sig == NULL) {
		*siglen = max;
		return 1;
	}
	if (sigsize < max) {
		fap_err("sig_sign", FAP_R_ARG, "signature buffer %zu bytes, "
			"%zu needed", sigsize, max);
		return 0;
	}
	if (!sig_tmp(s)) {
		return 0;
	}
	if (fa_shake256_init_prng_from_system(&rng) != FA_OK) {
		fap_err("sig_sign", FAP_R_SIGN, "the OS random source failed");
		return 0;
	}
	if (alg_fndsa(k->alg)) {
		out = max;
		r = fa_fndsa_sign(s->pc->be, &rng, sig, out, k->sk, k->sk_len,
			NULL, 0, FA_FNDSA_PH_NONE, msg, msg_len, s->tmp, s->tmp_len);
	} else {
		r = fa_sign_dyn(s->pc->be, &rng, sig, &out, FA_SIG_COMPRESSED,
			k->sk, k->sk_len, msg, msg_len, s->tmp, s->tmp_len);
	}
	OPENSSL_cleanse(&rng, sizeof rng);
	if (r != FA_OK) {
		fap_err("sig_sign", FAP_R_SIGN, "%s: %s", fa_pki_alg_name(k->alg),
			fa_fndsa_strerror(r));
		return 0;
	}
	*siglen = out;
	return 1;
}

static int sig_verify(void *vs, const unsigned char *sig, size_t siglen,
	const unsigned char *msg, size_t msg_len)
{
	fap_sigctx *s = vs;
	fap_key *k = s->key;
	/* verification scratch on the stack (10n + 16 bytes, n <= 1024): no
	   allocation per call */
	uint64_t tmp[(FA_TMPSIZE_VERIFY(10) + 7) / 8];
	int r;

	if (alg_fndsa(k->alg)) {
		r = fa_fndsa_verify(s->pc->be, sig, siglen, k->pk, k->pk_len, NULL,
			0, FA_FNDSA_PH_NONE, msg, msg_len, tmp, sizeof tmp);
	} else if (k->pp_ready) {
		r = fa_verify_prepared(s->pc->be, sig, siglen, 0, &k->pp, msg,
			msg_len, tmp, sizeof tmp);
	} else {
		r = fa_verify(s->pc->be, sig, siglen, 0, k->pk, k->pk_len, msg,
			msg_len, tmp, sizeof tmp);
	}
	return r == FA_OK;
}

static int sig_dinit(void *vs, const char *mdname, void *vk,
	const OSSL_PARAM params[], int op)
{
	(void)mdname;   /* pure signing: a digest name is not used */
	(void)params;
	return sig_init(vs, vk, op);
}

static int sig_dsign_init(void *vs, const char *mdname, void *vk,
	const OSSL_PARAM params[])
{
	return sig_dinit(vs, mdname, vk, params, 1);
}

static int sig_dverify_init(void *vs, const char *mdname, void *vk,
	const OSSL_PARAM params[])
{
	return sig_dinit(vs, mdname, vk, params, 2);
}

static int sig_dupdate(void *vs, const unsigned char *data, size_t len)
{
	fap_sigctx *s = vs;

	if (len > s->cap - s->len) {
		size_t cap = s->cap ? s->cap : 1024;
		uint8_t *nb;

		while (cap - s->len < len) {
			cap *= 2;
		}
		nb = OPENSSL_malloc(cap);
		if (nb == NULL) {
			return 0;
		}
		if (s->len > 0) {
			memcpy(nb, s->buf, s->len);
		}
		OPENSSL_clear_free(s->buf, s->cap);
		s->buf = nb;
		s->cap = cap;
	}
	if (len > 0) {
		memcpy(s->buf + s->len, data, len);
		s->len += len;
	}
	return 1;
}

static int sig_dsign_final(void *vs, unsigned char *sig, size_t *siglen,
	size_t sigsize)
{
	fap_sigctx *s = vs;

	return sig_sign(s, sig, siglen, sigsize, s->buf, s->len);
}

static int sig_dverify_final(void *vs, const unsigned char *sig,
	size_t siglen)
{
	fap_sigctx *s = vs;

	return sig_verify(s, sig, siglen, s->buf, s->len);
}

static int sig_get_ctx_params(void *vs, OSSL_PARAM params[])
{
	fap_sigctx *s = vs;
	OSSL_PARAM *p = OSSL_PARAM_locate(params,
		OSSL_SIGNATURE_PARAM_ALGORITHM_ID);

	if (p != NULL) {
		uint8_t aid[64];
		size_t n;

		if (s->key == NULL
			|| fa_pki_encode_algid(aid, sizeof aid, &n, s->key->alg) != 0
			|| !OSSL_PARAM_set_octet_string(p, aid, n))
		{
			return 0;
		}
	}
	return 1;
}

static const OSSL_PARAM sig_gettable[] = {
	OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *sig_gettable_ctx_params(void *vs, void *provctx)
{
	(void)vs;
	(void)provctx;
	return sig_gettable;
}

static int sig_set_ctx_params(void *vs, const OSSL_PARAM params[])
{
	(void)vs;
	(void)params;
	return 1;
}

static const OSSL_PARAM sig_settable[] = { OSSL_PARAM_END };

static const OSSL_PARAM *sig_settable_ctx_params(void *vs, void *provctx)
{
	(void)vs;
	(void)provctx;
	return sig_settable;
}

static const OSSL_DISPATCH sig_fns[] = {
	{ OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))sig_newctx },
	{ OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx },
	{ OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx },
	{ OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init },
	{ OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign },
	{ OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init },
	{ OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sig_dsign_init },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))sig_dupdate },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))sig_dsign_final },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))sig_sign },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT,
		(void (*)(void))sig_dverify_init },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))sig_dupdate },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL,
		(void (*)(void))sig_dverify_final },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))sig_verify },
	{ OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))sig_get_ctx_params },
	{ OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS,
		(void (*)(void))sig_gettable_ctx_params },
	{ OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))sig_set_ctx_params },
	{ OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS,
		(void (*)(void))sig_settable_ctx_params },
	{ 0, NULL }
};

/* ------------------------------------------------------------------ */
/* Encoders: key -> PrivateKeyInfo / SubjectPublicKeyInfo, DER / PEM */

static void *enc_newctx(void *provctx)
{
	return provctx;
}

static void enc_freectx(void *ctx)
{
	(void)ctx;
}

/* Selections are levels (private > public > parameters), as OpenSSL's
   own encoders read them. */
static int selection_level(int selection, int mask)
{
	static const int levels[] = { OSSL_KEYMGMT_SELECT_PRIVATE_KEY,
		OSSL_KEYMGMT_SELECT_PUBLIC_KEY, OSSL_KEYMGMT_SELECT_ALL_PARAMETERS };
	size_t i;

	if (selection == 0) {
		return 1;
	}
	for (i = 0; i < sizeof levels / sizeof levels[0]; i ++) {
		if (selection & levels[i]) {
			return (mask & levels[i]) != 0;
		}
	}
	return 0;
}

static int write_all(OSSL_CORE_BIO *out, const uint8_t *d, size_t len)
{
	size_t w = 0;

	while (len > 0) {
		if (!c_bio_write_ex(out, d, len, &w) || w == 0) {
			return 0;
		}
		d += w;
		len -= w;
	}
	return 1;
}

static int encode_key(const fap_key *k, OSSL_CORE_BIO *out, int priv,
	int pem)
{
	size_t der_len = priv ? fa_pki_pkcs8_size(k->alg)
		: fa_pki_spki_size(k->alg), pem_len;
	uint8_t *der = OPENSSL_malloc(der_len), *p = NULL;
	int r, ok = 0;

	if (der == NULL) {
		return 0;
	}
	r = priv ? fa_pki_encode_pkcs8(der, der_len, &der_len, k->alg, k->sk,
			k->sk_len, alg_fndsa(k->alg) ? NULL : k->pk, k->pk_len)
		: fa_pki_encode_spki(der, der_len, &der_len, k->alg, k->pk,
			k->pk_len);
	if (r != 0) {
		fap_err("encode_key", FAP_R_ENCODING, "%s", fa_pki_strerror(r));
		goto done;
	}
	if (!pem) {
		ok = write_all(out, der, der_len);
		goto done;
	}
	pem_len = fa_pki_pem_size(priv ? FA_PKI_PEM_PRIVATE : FA_PKI_PEM_PUBLIC,
		der_len);
	p = OPENSSL_malloc(pem_len);
	if (p == NULL || fa_pki_pem_encode(p, pem_len, &pem_len, priv
		? FA_PKI_PEM_PRIVATE : FA_PKI_PEM_PUBLIC, der, der_len) != 0)
	{
		goto done;
	}
	ok = write_all(out, p, pem_len);
done:
	if (p != NULL) {
		OPENSSL_clear_free(p, pem_len);
	}
	OPENSSL_clear_free(der, der_len);
	return ok;
}

static int enc_common(const void *obj, OSSL_CORE_BIO *out, int selection,
	int priv, int pem, int alg)
{
	const fap_key *k = obj;

	if (k == NULL || k->alg != alg) {
		fap_err("encode", FAP_R_ARG, "no %s key to encode",
			fa_pki_alg_name(alg));
		return 0;
	}
	if (priv && !(selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)) {
		return 0;
	}
	if (priv ? !k->has_priv : !k->has_pub) {
		fap_err("encode", FAP_R_KEY, "%s: no %s key to encode",
			fa_pki_alg_name(alg), priv ? "private" : "public");
		return 0;
	}
	return encode_key(k, out, priv, pem);
}

#define ENC(N, IDX, KIND, PRIV, FORM, PEM)                                  \
static int enc_sel_##N##_##KIND##_##FORM(void *ctx, int selection)          \
{                                                                           \
	(void)ctx;                                                          \
	return selection_level(selection, PRIV                              \
		? OSSL_KEYMGMT_SELECT_KEYPAIR | OSSL_KEYMGMT_SELECT_ALL_PARAMETERS \
		: OSSL_KEYMGMT_SELECT_PUBLIC_KEY                            \
			| OSSL_KEYMGMT_SELECT_ALL_PARAMETERS);              \
}                                                                           \
static int enc_##N##_##KIND##_##FORM(void *ctx, OSSL_CORE_BIO *out,        \
	const void *obj, const OSSL_PARAM abstract[], int selection,        \
	OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)                          \
{                                                                           \
	(void)ctx;                                                          \
	(void)abstract;                                                     \
	(void)cb;                                                           \
	(void)cbarg;                                                        \
	return enc_common(obj, out, selection, PRIV, PEM, IDX);             \
}                                                                           \
static const OSSL_DISPATCH enc_fns_##N##_##KIND##_##FORM[] = {             \
	{ OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enc_newctx },           \
	{ OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))enc_freectx },         \
	{ OSSL_FUNC_ENCODER_DOES_SELECTION,                                 \
		(void (*)(void))enc_sel_##N##_##KIND##_##FORM },            \
	{ OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))enc_##N##_##KIND##_##FORM }, \
	{ 0, NULL }                                                         \
};

#define ENC_ALG(N, IDX)                                                     \
	ENC(N, IDX, PrivateKeyInfo, 1, der, 0)                              \
	ENC(N, IDX, PrivateKeyInfo, 1, pem, 1)                              \
	ENC(N, IDX, SubjectPublicKeyInfo, 0, der, 0)                        \
	ENC(N, IDX, SubjectPublicKeyInfo, 0, pem, 1)

ENC_ALG(FALCON512, FA_PKI_FALCON512)
ENC_ALG(FALCON1024, FA_PKI_FALCON1024)
ENC_ALG(FNDSA512, FA_PKI_FNDSA512)
ENC_ALG(FNDSA1024, FA_PKI_FNDSA1024)

/* ------------------------------------------------------------------ */
/* Decoders: DER PrivateKeyInfo / SubjectPublicKeyInfo -> key (PEM is
   taken off by OpenSSL's own PEM-to-DER decoder) */

static void *dec_newctx(void *provctx)
{
	return provctx;
}

static void dec_freectx(void *ctx)
{
	(void)ctx;
}

#define DEC_MAX_IN 16384

/* Whole input (up to DEC_MAX_IN bytes) into a fresh buffer. */
static uint8_t *read_all(OSSL_CORE_BIO *in, size_t *len)
{
	size_t cap = 4096, n = 0, r;
	uint8_t *b = OPENSSL_malloc(cap);

	while (b != NULL) {
		if (n == cap) {
			uint8_t *nb;

			if (cap >= DEC_MAX_IN) {
				OPENSSL_free(b);
				return NULL;
			}
			nb = OPENSSL_realloc(b, cap * 2);
			if (nb == NULL) {
				OPENSSL_free(b);
				return NULL;
			}
			b = nb;
			cap *= 2;
		}
		r = 0;
		if (!c_bio_read_ex(in, b + n, cap - n, &r) || r == 0) {
			break;
		}
		n += r;
	}
	*len = n;
	return b;
}

/* Does the DER carry alg's OID TLV in its first bytes (its
   AlgorithmIdentifier)? Decides whether this decoder speaks up. */
static int der_names_alg(const uint8_t *d, size_t len, int alg)
{
	static const uint8_t oids[FA_PKI_ALG_COUNT][32] = {
		FA_OID_FALCON512_DER, FA_OID_FALCON1024_DER,
		FA_OID_FNDSA512_DER, FA_OID_FNDSA1024_DER
	};
	static const size_t oid_len[FA_PKI_ALG_COUNT] = {
		FA_OID_FALCON512_DER_LEN, FA_OID_FALCON1024_DER_LEN,
		FA_OID_FNDSA512_DER_LEN, FA_OID_FNDSA1024_DER_LEN
	};
	size_t i, lim = len < 48 ? len : 48;

	for (i = 0; i + oid_len[alg] <= lim; i ++) {
		if (memcmp(d + i, oids[alg], oid_len[alg]) == 0) {
			return 1;
		}
	}
	return 0;
}

static int dec_common(void *vctx, OSSL_CORE_BIO *in, int selection,
	OSSL_CALLBACK *data_cb, void *data_cbarg, int priv, int alg)
{
	fap_ctx *pc = vctx;
	size_t len = 0, klen, plen;
	uint8_t *der = read_all(in, &len);
	const uint8_t *kp, *pp;
	fap_key *k = NULL;
	fa_pki_error e = { 0, 0, "" };
	int a, r, ok = 1;

	if (der == NULL) {
		return 1;
	}
	if (priv && selection != 0
		&& !(selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY))
	{
		goto done;
	}
	if (!der_names_alg(der, len, alg)) {
		goto done;   /* not ours: let the other decoders try */
	}
	r = priv ? fa_pki_decode_pkcs8(der, len, &a, &kp, &klen, &pp, &plen, &e)
		: fa_pki_decode_spki(der, len, &a, &kp, &klen, &e);
	if (r != 0) {
		if (e.code == FA_PKI_ERR_OID || e.code == FA_PKI_ERR_TAG) {
			goto done;   /* another structure */
		}
		fap_err("decode", FAP_R_ENCODING, "%s %s: DER byte %zu (%s): %s",
			fa_pki_alg_name(alg), priv ? "PrivateKeyInfo"
			: "SubjectPublicKeyInfo", e.offset, e.what,
			fa_pki_strerror(r));
		ok = 0;
		goto done;
	}
	if (a != alg) {
		goto done;
	}
	k = key_new(pc, alg);
	if (k == NULL
		|| !(priv ? key_set(k, kp, klen, pp, plen)
			: key_set(k, NULL, 0, kp, klen)))
	{
		ok = 0;
		goto done;
	}
	{
		OSSL_PARAM p[4];
		int type = OSSL_OBJECT_PKEY;

		p[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &type);
		p[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE,
			(char *)fa_pki_alg_name(alg), 0);
		p[2] = OSSL_PARAM_construct_octet_string(
			OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof k);
		p[3] = OSSL_PARAM_construct_end();
		ok = data_cb(p, data_cbarg);
	}
done:
	key_free(k);   /* NULL when km_load took it */
	OPENSSL_clear_free(der, len);
	return ok;
}

#define DEC(N, IDX, KIND, PRIV)                                             \
static int dec_sel_##N##_##KIND(void *ctx, int selection)                 \
{                                                                           \
	(void)ctx;                                                          \
	return selection_level(selection, PRIV                              \
		? OSSL_KEYMGMT_SELECT_KEYPAIR | OSSL_KEYMGMT_SELECT_ALL_PARAMETERS \
		: OSSL_KEYMGMT_SELECT_PUBLIC_KEY                            \
			| OSSL_KEYMGMT_SELECT_ALL_PARAMETERS);              \
}                                                                           \
static int dec_##N##_##KIND(void *ctx, OSSL_CORE_BIO *in, int selection,  \
	OSSL_CALLBACK *data_cb, void *data_cbarg,                           \
	OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)                    \
{                                                                           \
	(void)pw_cb;                                                        \
	(void)pw_cbarg;                                                     \
	return dec_common(ctx, in, selection, data_cb, data_cbarg, PRIV, IDX); \
}                                                                           \
static const OSSL_DISPATCH dec_fns_##N##_##KIND[] = {                      \
	{ OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dec_newctx },           \
	{ OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx },         \
	{ OSSL_FUNC_DECODER_DOES_SELECTION,                                 \
		(void (*)(void))dec_sel_##N##_##KIND },                     \
	{ OSSL_FUNC_DECODER_DECODE, (void (*)(void))dec_##N##_##KIND },     \
	{ 0, NULL }                                                         \
};

#define DEC_ALG(N, IDX)                                                     \
	DEC(N, IDX, PrivateKeyInfo, 1)                                      \
	DEC(N, IDX, SubjectPublicKeyInfo, 0)

DEC_ALG(FALCON512, FA_PKI_FALCON512)
DEC_ALG(FALCON1024, FA_PKI_FALCON1024)
DEC_ALG(FNDSA512, FA_PKI_FNDSA512)
DEC_ALG(FNDSA1024, FA_PKI_FNDSA1024)

/* ------------------------------------------------------------------ */
/* Algorithm tables */

#define ALGNAMES(N) FA_OID_##N##_SN ":" FA_OID_##N##_TXT
#define PROPS "provider=" FAP_NAME

static const OSSL_ALGORITHM fap_keymgmt[] = {
	{ ALGNAMES(FALCON512), PROPS, km_fns_FALCON512, FA_OID_FALCON512_LN },
	{ ALGNAMES(FALCON1024), PROPS, km_fns_FALCON1024, FA_OID_FALCON1024_LN },
	{ ALGNAMES(FNDSA512), PROPS, km_fns_FNDSA512, FA_OID_FNDSA512_LN },
	{ ALGNAMES(FNDSA1024), PROPS, km_fns_FNDSA1024, FA_OID_FNDSA1024_LN },
	{ NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM fap_signature[] = {
	{ ALGNAMES(FALCON512), PROPS, sig_fns, FA_OID_FALCON512_LN },
	{ ALGNAMES(FALCON1024), PROPS, sig_fns, FA_OID_FALCON1024_LN },
	{ ALGNAMES(FNDSA512), PROPS, sig_fns, FA_OID_FNDSA512_LN },
	{ ALGNAMES(FNDSA1024), PROPS, sig_fns, FA_OID_FNDSA1024_LN },
	{ NULL, NULL, NULL, NULL }
};

#define ENC_ROWS(N)                                                          \
	{ ALGNAMES(N), PROPS ",output=der,structure=PrivateKeyInfo",          \
		enc_fns_##N##_PrivateKeyInfo_der, NULL },                     \
	{ ALGNAMES(N), PROPS ",output=pem,structure=PrivateKeyInfo",          \
		enc_fns_##N##_PrivateKeyInfo_pem, NULL },                     \
	{ ALGNAMES(N), PROPS ",output=der,structure=SubjectPublicKeyInfo",    \
		enc_fns_##N##_SubjectPublicKeyInfo_der, NULL },               \
	{ ALGNAMES(N), PROPS ",output=pem,structure=SubjectPublicKeyInfo",    \
		enc_fns_##N##_SubjectPublicKeyInfo_pem, NULL },

static const OSSL_ALGORITHM fap_encoder[] = {
	ENC_ROWS(FALCON512) ENC_ROWS(FALCON1024)
	ENC_ROWS(FNDSA512) ENC_ROWS(FNDSA1024)
	{ NULL, NULL, NULL, NULL }
};

#define DEC_ROWS(N)                                                          \
	{ ALGNAMES(N), PROPS ",input=der,structure=PrivateKeyInfo",           \
		dec_fns_##N##_PrivateKeyInfo, NULL },                         \
	{ ALGNAMES(N), PROPS ",input=der,structure=SubjectPublicKeyInfo",     \
		dec_fns_##N##_SubjectPublicKeyInfo, NULL },

static const OSSL_ALGORITHM fap_decoder[] = {
	DEC_ROWS(FALCON512) DEC_ROWS(FALCON1024)
	DEC_ROWS(FNDSA512) DEC_ROWS(FNDSA1024)
	{ NULL, NULL, NULL, NULL }
};

/* ------------------------------------------------------------------ */
/* Provider */

static const OSSL_ALGORITHM *fap_query(void *provctx, int op, int *no_cache)
{
	(void)provctx;
	*no_cache = 0;
	switch (op) {
	case OSSL_OP_KEYMGMT:   return fap_keymgmt;
	case OSSL_OP_SIGNATURE: return fap_signature;
	case OSSL_OP_ENCODER:   return fap_encoder;
	case OSSL_OP_DECODER:   return fap_decoder;
	default:                return NULL;
	}
}

static const OSSL_PARAM fap_gettable[] = {
	OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
	OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
	OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
	OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
	OSSL_PARAM_utf8_ptr("backend", NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *fap_gettable_params(void *provctx)
{
	(void)provctx;
	return fap_gettable;
}

static int fap_get_params(void *provctx, OSSL_PARAM params[])
{
	fap_ctx *pc = provctx;
	OSSL_PARAM *p;

	if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != NULL
		&& !OSSL_PARAM_set_utf8_ptr(p, "falcon-accel provider "
			"(Falcon round 3, FN-DSA fn-dsa 0.4.0)"))
	{
		return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL
		&& !OSSL_PARAM_set_utf8_ptr(p, FAP_VERSION))
	{
		return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL
		&& !OSSL_PARAM_set_utf8_ptr(p, "libfalcon_accel"))
	{
		return 0;
	}
	if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL
		&& !OSSL_PARAM_set_int(p, 1))
	{
		return 0;
	}
	if ((p = OSSL_PARAM_locate(params, "backend")) != NULL
		&& !OSSL_PARAM_set_utf8_ptr(p, pc->be_name))
	{
		return 0;
	}
	return 1;
}

static const OSSL_ITEM *fap_reason_strings(void *provctx)
{
	(void)provctx;
	return fap_reasons;
}

static void fap_teardown(void *provctx)
{
	OPENSSL_free(provctx);
}

static const OSSL_DISPATCH fap_dispatch[] = {
	{ OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))fap_teardown },
	{ OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))fap_query },
	{ OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))fap_gettable_params },
	{ OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))fap_get_params },
	{ OSSL_FUNC_PROVIDER_GET_REASON_STRINGS,
		(void (*)(void))fap_reason_strings },
	{ 0, NULL }
};

/* The backend named by the configuration or the environment. */
static int fap_pick_backend(fap_ctx *pc)
{
	const char *name = NULL, *from = "";
	char *cfg = NULL;
	OSSL_PARAM p[2];

	if (c_get_params != NULL) {
		p[0] = OSSL_PARAM_construct_utf8_ptr("backend", &cfg, 0);
		p[1] = OSSL_PARAM_construct_end();
		if (c_get_params(pc->handle, p) && cfg != NULL && cfg[0] != 0) {
			name = cfg;
			from = "provider parameter backend=";
		}
	}
	if (name == NULL) {
		name = getenv("FALCON_ACCEL_BACKEND");
		from = "FALCON_ACCEL_BACKEND=";
		if (name != NULL && name[0] == 0) {
			name = NULL;
		}
	}
	if (name == NULL) {
		pc->be = fa_backend_default();
	} else if (strcmp(name, "soc") == 0) {
		fap_err("OSSL_provider_init", FAP_R_BACKEND, "%ssoc: the simulated "
			"SoC runs whole CLI commands (falcon-accel bench, kat) only; "
			"this provider runs on portable, avx2 or rtl", from);
		return 0;
	} else {
		pc->be = fa_backend_find(name);
		if (pc->be == NULL || !fa_backend_available(pc->be)) {
			fap_err("OSSL_provider_init", FAP_R_BACKEND, "%s%s: %s", from,
				name, pc->be == NULL ? "unknown backend (portable, avx2, "
				"rtl)" : "backend not available on this machine");
			return 0;
		}
	}
	snprintf(pc->be_name, sizeof pc->be_name, "%s",
		fa_backend_name(pc->be));
	return 1;
}

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
	const OSSL_DISPATCH *in, const OSSL_DISPATCH **out, void **provctx)
{
	fap_ctx *pc;
	int i;
	static const struct { const char *oid, *sn; } objs[] = {
		{ FA_OID_FALCON512_TXT, FA_OID_FALCON512_SN },
		{ FA_OID_FALCON1024_TXT, FA_OID_FALCON1024_SN },
		{ FA_OID_FNDSA512_TXT, FA_OID_FNDSA512_SN },
		{ FA_OID_FNDSA1024_TXT, FA_OID_FNDSA1024_SN },
	};

	c_handle = handle;
	for (; in->function_id != 0; in ++) {
		switch (in->function_id) {
		case OSSL_FUNC_CORE_NEW_ERROR:
			c_new_error = OSSL_FUNC_core_new_error(in);
			break;
		case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
			c_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
			break;
		case OSSL_FUNC_CORE_VSET_ERROR:
			c_vset_error = OSSL_FUNC_core_vset_error(in);
			break;
		case OSSL_FUNC_CORE_GET_PARAMS:
			c_get_params = OSSL_FUNC_core_get_params(in);
			break;
		case OSSL_FUNC_CORE_OBJ_CREATE:
			c_obj_create = OSSL_FUNC_core_obj_create(in);
			break;
		case OSSL_FUNC_CORE_OBJ_ADD_SIGID:
			c_obj_add_sigid = OSSL_FUNC_core_obj_add_sigid(in);
			break;
		case OSSL_FUNC_BIO_READ_EX:
			c_bio_read_ex = OSSL_FUNC_BIO_read_ex(in);
			break;
		case OSSL_FUNC_BIO_WRITE_EX:
			c_bio_write_ex = OSSL_FUNC_BIO_write_ex(in);
			break;
		default:
			break;
		}
	}
	if (c_obj_create == NULL || c_obj_add_sigid == NULL
		|| c_bio_read_ex == NULL || c_bio_write_ex == NULL)
	{
		return 0;
	}
	pc = OPENSSL_zalloc(sizeof *pc);
	if (pc == NULL) {
		return 0;
	}
	pc->handle = handle;
	if (!fap_pick_backend(pc)) {
		OPENSSL_free(pc);
		return 0;
	}
	/* OIDs and signature ids: X.509 / CMS find the key type and the
	   absence of a digest from the signature algorithm's OID */
	for (i = 0; i < FA_PKI_ALG_COUNT; i ++) {
		/* long name = short name: OpenSSL looks decoders up by the
		   text of the OID, which is the long name */
		if (!c_obj_create(handle, objs[i].oid, objs[i].sn, objs[i].sn)
			|| !c_obj_add_sigid(handle, objs[i].sn, "", objs[i].sn))
		{
			fap_err("OSSL_provider_init", FAP_R_ARG, "cannot register "
				"OID %s (%s)", objs[i].oid, objs[i].sn);
			OPENSSL_free(pc);
			return 0;
		}
	}
	*out = fap_dispatch;
	*provctx = pc;
	return 1;
}
