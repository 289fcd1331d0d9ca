/*
 * edge_alloc.c -- the allocating wrappers of falcon_accel_edge.h (part 1):
 * the core calls with their scratch buffer allocated and wiped here and
 * randomness from a seed or the OS.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"

/* ------------------------------------------------------------------ */
/* Allocating wrappers. Scratch is wiped before it is freed (it held
   secret intermediate values). */

static uint8_t *
alloc_tmp(size_t len)
{
	return malloc(len);
}

/* What a scratch buffer is for (its size depends on the call). */
enum scratch_use { FOR_MAKEPUB, FOR_EXPAND, FOR_SIGN_DYN, FOR_VERIFY };

/*
 * Scratch for a call on the key key[0 .. key_len), sized for the key's
 * degree (read from its header byte): FA_OK with *tmp, *tmp_len set;
 * else the decoder's error for a bad header, or FA_ERR_INTERNAL when
 * memory is short.
 */
static int
scratch_for_key(uint8_t **tmp, size_t *tmp_len, const void *key,
	size_t key_len, enum scratch_use use)
{
	int logn = fa_get_logn(key, key_len);
	unsigned u;

	if (logn < 0) {
		return logn;
	}
	u = (unsigned)logn;
	switch (use) {
	case FOR_MAKEPUB:  *tmp_len = FA_TMPSIZE_MAKEPUB(u); break;
	case FOR_EXPAND:   *tmp_len = FA_TMPSIZE_EXPAND(u); break;
	case FOR_SIGN_DYN: *tmp_len = FA_TMPSIZE_SIGN_DYN(u); break;
	default:           *tmp_len = FA_TMPSIZE_VERIFY(u); break;
	}
	*tmp = alloc_tmp(*tmp_len);
	return *tmp == NULL ? FA_ERR_INTERNAL : FA_OK;
}

int
fa_keygen_alloc(const fa_backend *be, unsigned logn,
	const void *seed, size_t seed_len,
	void *sk, size_t sk_len, void *pk, size_t pk_len)
{
	fa_shake256_ctx rng;
	uint8_t *tmp;
	size_t tmp_len;
	int err;

	if (logn < FA_LOGN_MIN || logn > FA_LOGN_MAX) {
		return FA_ERR_BADARG;
	}
	tmp_len = FA_TMPSIZE_KEYGEN(logn);
	tmp = alloc_tmp(tmp_len);
	if (tmp == NULL) {
		return FA_ERR_INTERNAL;
	}
	fa_edge_seed_rng(&rng, &err, seed, seed_len);
	if (err == FA_OK) {
		err = fa_keygen(be, &rng, logn, sk, sk_len, pk, pk_len,
			tmp, tmp_len);
	}
	fa_edge_wipe(&rng, sizeof rng);
	fa_free_secret(tmp, tmp_len);
	return err;
}

int
fa_make_public_alloc(void *pk, size_t pk_len, const void *sk, size_t sk_len)
{
	uint8_t *tmp;
	size_t tmp_len;
	int err = scratch_for_key(&tmp, &tmp_len, sk, sk_len, FOR_MAKEPUB);

	if (err != FA_OK) {
		return err;
	}
	err = fa_make_public(pk, pk_len, sk, sk_len, tmp, tmp_len);
	fa_free_secret(tmp, tmp_len);
	return err;
}

int
fa_expand_privkey_alloc(const fa_backend *be, void **expanded_key,
	size_t *expanded_key_len, const void *sk, size_t sk_len)
{
	uint8_t *tmp, *ek;
	size_t tmp_len, ek_len;
	int err;

	if (expanded_key == NULL || expanded_key_len == NULL) {
		return FA_ERR_BADARG;
	}
	*expanded_key = NULL;
	*expanded_key_len = 0;
	err = scratch_for_key(&tmp, &tmp_len, sk, sk_len, FOR_EXPAND);
	if (err != FA_OK) {
		return err;
	}
	/* the header was just read: logn is valid */
	ek_len = FA_EXPANDED_KEY_SIZE((unsigned)fa_get_logn(sk, sk_len));
	ek = malloc(ek_len);
	if (ek == NULL) {
		free(tmp);
		return FA_ERR_INTERNAL;
	}
	err = fa_expand_privkey(be, ek, ek_len, sk, sk_len, tmp, tmp_len);
	fa_free_secret(tmp, tmp_len);
	if (err != FA_OK) {
		fa_free_secret(ek, ek_len);
		return err;
	}
	*expanded_key = ek;
	*expanded_key_len = ek_len;
	return FA_OK;
}

int
fa_sign_alloc(const fa_backend *be, const void *seed, size_t seed_len,
	void *sig, size_t *sig_len, int sig_format,
	const void *sk, size_t sk_len, const void *msg, size_t msg_len)
{
	fa_shake256_ctx rng;
	uint8_t *tmp;
	size_t tmp_len;
	int err = scratch_for_key(&tmp, &tmp_len, sk, sk_len, FOR_SIGN_DYN);

	if (err != FA_OK) {
		return err;
	}
	fa_edge_seed_rng(&rng, &err, seed, seed_len);
	if (err == FA_OK) {
		err = fa_sign_dyn(be, &rng, sig, sig_len, sig_format,
			sk, sk_len, msg, msg_len, tmp, tmp_len);
	}
	fa_edge_wipe(&rng, sizeof rng);
	fa_free_secret(tmp, tmp_len);
	return err;
}

int
fa_sign_tree_alloc(const fa_backend *be, const void *seed, size_t seed_len,
	void *sig, size_t *sig_len, int sig_format,
	const void *expanded_key, const void *msg, size_t msg_len)
{
	fa_shake256_ctx rng;
	uint8_t *tmp;
	/* The degree is in the expanded key's header, which only the core
	   reads: size the scratch for the largest degree. */
	size_t tmp_len = FA_TMPSIZE_SIGN_TREE(FA_LOGN_MAX);
	int err;

	tmp = alloc_tmp(tmp_len);
	if (tmp == NULL) {
		return FA_ERR_INTERNAL;
	}
	fa_edge_seed_rng(&rng, &err, seed, seed_len);
	if (err == FA_OK) {
		err = fa_sign_tree(be, &rng, sig, sig_len, sig_format,
			expanded_key, msg, msg_len, tmp, tmp_len);
	}
	fa_edge_wipe(&rng, sizeof rng);
	fa_free_secret(tmp, tmp_len);
	return err;
}

int
fa_verify_alloc(const fa_backend *be, const void *sig, size_t sig_len,
	int sig_format, const void *pk, size_t pk_len,
	const void *msg, size_t msg_len)
{
	uint8_t *tmp;
	size_t tmp_len;
	int err = scratch_for_key(&tmp, &tmp_len, pk, pk_len, FOR_VERIFY);

	if (err != FA_OK) {
		return err;
	}
	err = fa_verify(be, sig, sig_len, sig_format, pk, pk_len,
		msg, msg_len, tmp, tmp_len);
	free(tmp);
	return err;
}
