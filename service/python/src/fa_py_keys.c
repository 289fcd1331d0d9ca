/*
 * fa_py_keys.c -- the service's key registry (fa_py.h): key id ->
 * scheme, degree, encoded public key and encoded private key. The one
 * place that knows the keys: Python's KeyStore records every key it
 * loads or creates here (falcon_accel.keystore.KeyRegistry), and the
 * batch front (fa_py_batch_front.c) looks request key ids up here.
 *
 * Open addressing on an FNV-1a hash of the id, grown to keep the load
 * under one half; one mutex for every access (Python threads put keys
 * while the event loop's front reads them). Private keys are wiped when
 * replaced or freed.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "falcon_accel.h"
#include "falcon_accel_edge.h"
#include "fa_py.h"
#include "fa_py_internal.h"

struct fa_py_keys {
	pthread_mutex_t lock;
	fa_py_key *slots;       /* cap entries, cap a power of two */
	size_t cap;
	size_t n;
};

/* FNV-1a over the key id (ids are hex digests: any mix will do). */
static size_t
id_hash(const char *id, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u;
	size_t i;

	for (i = 0; i < len; i ++) {
		h = (h ^ (uint8_t)id[i]) * 0x100000001b3u;
	}
	return (size_t)(h ^ (h >> 32));
}

static fa_py_key *
find_slot(fa_py_key *slots, size_t cap, const char *id, size_t len)
{
	size_t i = id_hash(id, len) & (cap - 1);

	for (;;) {
		fa_py_key *k = &slots[i];

		if (k->id_len == 0 || (k->id_len == len
			&& memcmp(k->id, id, len) == 0))
		{
			return k;
		}
		i = (i + 1) & (cap - 1);
	}
}

static void
wipe_free(uint8_t *p, size_t len)
{
	if (p != NULL) {
		fa_free_secret(p, len);
	}
}

fa_py_keys *
fa_py_keys_new(void)
{
	fa_py_keys *r = calloc(1, sizeof *r);

	if (r == NULL) {
		return NULL;
	}
	r->cap = 16;
	r->slots = calloc(r->cap, sizeof *r->slots);
	if (r->slots == NULL) {
		free(r);
		return NULL;
	}
	pthread_mutex_init(&r->lock, NULL);
	return r;
}

void
fa_py_keys_free(fa_py_keys *r)
{
	size_t i;

	if (r == NULL) {
		return;
	}
	for (i = 0; i < r->cap; i ++) {
		free(r->slots[i].pk);
		wipe_free(r->slots[i].sk, r->slots[i].sk_len);
	}
	free(r->slots);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

void
fa_py_keys_lock(fa_py_keys *r)
{
	pthread_mutex_lock(&r->lock);
}

void
fa_py_keys_unlock(fa_py_keys *r)
{
	pthread_mutex_unlock(&r->lock);
}

const fa_py_key *
fa_py_keys_find(const fa_py_keys *r, const char *id, size_t id_len)
{
	const fa_py_key *k;

	if (id_len == 0 || id_len > FA_PY_KEY_ID_MAX) {
		return NULL;
	}
	k = find_slot(r->slots, r->cap, id, id_len);
	return k->id_len != 0 ? k : NULL;
}

static int
grow(fa_py_keys *r)
{
	size_t cap = 2 * r->cap, i;
	fa_py_key *ns = calloc(cap, sizeof *ns);

	if (ns == NULL) {
		return -1;
	}
	for (i = 0; i < r->cap; i ++) {
		fa_py_key *k = &r->slots[i];

		if (k->id_len != 0) {
			*find_slot(ns, cap, k->id, k->id_len) = *k;
		}
	}
	free(r->slots);
	r->slots = ns;
	r->cap = cap;
	return 0;
}

static uint8_t *
dup_bytes(const void *p, size_t len)
{
	uint8_t *d = malloc(len != 0 ? len : 1);

	if (d != NULL) {
		memcpy(d, p, len);
	}
	return d;
}

/* The degree of an encoded public key of `scheme`, or a negative code. */
static int
public_key_logn(int scheme, const uint8_t *pk, size_t pk_len)
{
	unsigned logn, low;

	if (pk_len < 1) {
		return FA_ERR_LENGTH;
	}
	logn = pk[0];
	low = scheme == FA_PY_SCHEME_FNDSA ? FA_FNDSA_LOGN_MIN : FA_LOGN_MIN;
	if (logn < low || logn > FA_LOGN_MAX) {
		return FA_ERR_HEADER;
	}
	if (pk_len != (scheme == FA_PY_SCHEME_FNDSA
		? FA_FNDSA_PUBKEY_SIZE(logn) : FA_PUBKEY_SIZE(logn)))
	{
		return FA_ERR_LENGTH;
	}
	return (int)logn;
}

int
fa_py_keys_put(fa_py_keys *r, const char *id, size_t id_len, int scheme,
	const void *pk, size_t pk_len, const void *sk, size_t sk_len)
{
	fa_py_key *k;
	uint8_t *npk, *nsk = NULL;
	int logn;

	if (r == NULL || id == NULL || id_len == 0
		|| id_len > FA_PY_KEY_ID_MAX || pk == NULL
		|| (scheme != FA_PY_SCHEME_FALCON
			&& scheme != FA_PY_SCHEME_FNDSA))
	{
		return FA_ERR_BADARG;
	}
	logn = public_key_logn(scheme, pk, pk_len);
	if (logn < 0) {
		return logn;
	}
	if (sk != NULL && sk_len != (scheme == FA_PY_SCHEME_FNDSA
		? FA_FNDSA_PRIVKEY_SIZE((unsigned)logn)
		: FA_PRIVKEY_SIZE((unsigned)logn)))
	{
		return FA_ERR_LENGTH;
	}
	npk = dup_bytes(pk, pk_len);
	if (sk != NULL) {
		nsk = dup_bytes(sk, sk_len);
	}
	if (npk == NULL || (sk != NULL && nsk == NULL)) {
		free(npk);
		wipe_free(nsk, sk_len);
		return FA_ERR_INTERNAL;
	}
	pthread_mutex_lock(&r->lock);
	if (2 * (r->n + 1) > r->cap && grow(r) != 0) {
		pthread_mutex_unlock(&r->lock);
		free(npk);
		wipe_free(nsk, sk_len);
		return FA_ERR_INTERNAL;
	}
	k = find_slot(r->slots, r->cap, id, id_len);
	if (k->id_len == 0) {
		r->n ++;
	}
	free(k->pk);
	wipe_free(k->sk, k->sk_len);
	memcpy(k->id, id, id_len);
	k->id_len = id_len;
	k->scheme = scheme;
	k->logn = (unsigned)logn;
	k->pk = npk;
	k->pk_len = pk_len;
	k->sk = nsk;
	k->sk_len = nsk != NULL ? sk_len : 0;
	pthread_mutex_unlock(&r->lock);
	return FA_OK;
}

int
fa_py_keys_get(fa_py_keys *r, const char *id, size_t id_len, int *scheme,
	unsigned *logn, uint8_t *pk, size_t *pk_len, uint8_t *sk,
	size_t *sk_len)
{
	const fa_py_key *k;
	int err = FA_OK;

	if (r == NULL || id == NULL) {
		return FA_ERR_BADARG;
	}
	pthread_mutex_lock(&r->lock);
	k = fa_py_keys_find(r, id, id_len);
	if (k == NULL) {
		err = FA_ERR_BADARG;
	} else if (k->pk_len > *pk_len || k->sk_len > *sk_len) {
		err = FA_ERR_SIZE;
	} else {
		*scheme = k->scheme;
		*logn = k->logn;
		memcpy(pk, k->pk, k->pk_len);
		*pk_len = k->pk_len;
		if (k->sk_len > 0) {
			memcpy(sk, k->sk, k->sk_len);
		}
		*sk_len = k->sk_len;
	}
	pthread_mutex_unlock(&r->lock);
	return err;
}

size_t
fa_py_keys_count(fa_py_keys *r, int scheme)
{
	size_t i, n = 0;

	if (r == NULL) {
		return 0;
	}
	pthread_mutex_lock(&r->lock);
	if (scheme < 0) {
		n = r->n;
	} else {
		for (i = 0; i < r->cap; i ++) {
			n += r->slots[i].id_len != 0
				&& r->slots[i].scheme == scheme;
		}
	}
	pthread_mutex_unlock(&r->lock);
	return n;
}
