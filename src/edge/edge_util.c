/*
 * edge_util.c -- allocating wrappers, per-thread worker state, the
 * single-item sign/verify used by the pool and the broker, clock and CPU
 * count.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "edge_internal.h"

/* ------------------------------------------------------------------ */
/* Small utilities. */

void
fa_edge_wipe(void *p, size_t len)
{
	/* A volatile function pointer keeps the compiler from proving the
	   memset dead before free(). */
	static void *(*const volatile wipe)(void *, int, size_t) = memset;

	if (p != NULL && len > 0) {
		wipe(p, 0, len);
	}
}

void
fa_free_secret(void *p, size_t len)
{
	if (p != NULL) {
		fa_edge_wipe(p, len);
		free(p);
	}
}

int64_t
fa_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

unsigned
fa_cpu_count(void)
{
	cpu_set_t set;
	long n;

	/* CPUs in this process's affinity mask (containers, taskset), else
	   the online CPUs. */
	if (sched_getaffinity(0, sizeof set, &set) == 0) {
		n = CPU_COUNT(&set);
		if (n > 0) {
			return (unsigned)n;
		}
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1u;
}

int
fa_edge_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t attr;
	int r;

	if (pthread_condattr_init(&attr) != 0) {
		return -1;
	}
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	r = pthread_cond_init(c, &attr);
	pthread_condattr_destroy(&attr);
	return r == 0 ? 0 : -1;
}

void
fa_edge_cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m,
	int64_t until_us)
{
	struct timespec ts;

	if (until_us < 0) {
		until_us = 0;
	}
	ts.tv_sec = (time_t)(until_us / 1000000);
	ts.tv_nsec = (long)(until_us % 1000000) * 1000;
	pthread_cond_timedwait(c, m, &ts);
}

int
fa_edge_sign_format_ok(int sig_format)
{
	return sig_format == FA_SIG_COMPRESSED || sig_format == FA_SIG_PADDED
		|| sig_format == FA_SIG_CT;
}

int
fa_edge_verify_format_ok(int sig_format)
{
	return sig_format == 0 || fa_edge_sign_format_ok(sig_format);
}

/* ------------------------------------------------------------------ */
/* Worker state. */

static void
seed_rng(fa_shake256_ctx *rng, int *rng_err, const void *seed,
	size_t seed_len)
{
	if (seed != NULL) {
		fa_shake256_init_prng_from_seed(rng, seed, seed_len);
		*rng_err = FA_OK;
	} else {
		*rng_err = fa_shake256_init_prng_from_system(rng);
	}
}

int
fa_edge_worker_init(fa_edge_worker *w, const void *seed, size_t seed_len)
{
	memset(w, 0, sizeof *w);
	w->tmp = malloc(FA_EDGE_TMP_BYTES);
	if (w->tmp == NULL) {
		return FA_ERR_INTERNAL;
	}
	seed_rng(&w->rng, &w->rng_err, seed, seed_len);
	return FA_OK;
}

void
fa_edge_worker_clear(fa_edge_worker *w)
{
	fa_free_secret(w->tmp, FA_EDGE_TMP_BYTES);
	fa_edge_wipe(&w->rng, sizeof w->rng);
	w->tmp = NULL;
}

void
fa_edge_sign_one(fa_edge_worker *w, const fa_backend *be, int sig_format,
	fa_sign_item *it)
{
	fa_shake256_ctx item_rng, *rng = &w->rng;

	if (it->sig == NULL || (it->expanded_key == NULL && it->sk == NULL)
		|| (it->msg == NULL && it->msg_len > 0)
		|| (it->seed == NULL && it->seed_len > 0))
	{
		it->err = FA_ERR_BADARG;
		return;
	}
	if (it->seed != NULL) {
		fa_shake256_init_prng_from_seed(&item_rng, it->seed,
			it->seed_len);
		rng = &item_rng;
	} else if (w->rng_err != FA_OK) {
		it->err = w->rng_err;
		return;
	}
	if (it->expanded_key != NULL) {
		it->err = fa_sign_tree(be, rng, it->sig, &it->sig_len,
			sig_format, it->expanded_key, it->msg, it->msg_len,
			w->tmp, FA_EDGE_TMP_BYTES);
	} else {
		it->err = fa_sign_dyn(be, rng, it->sig, &it->sig_len,
			sig_format, it->sk, it->sk_len, it->msg, it->msg_len,
			w->tmp, FA_EDGE_TMP_BYTES);
	}
	if (rng == &item_rng) {
		fa_edge_wipe(&item_rng, sizeof item_rng);
	}
}

void
fa_edge_verify_one(fa_edge_worker *w, const fa_backend *be, int sig_format,
	fa_verify_item *it)
{
	if (it->sig == NULL || (it->pp == NULL && it->pk == NULL)
		|| (it->msg == NULL && it->msg_len > 0))
	{
		it->err = FA_ERR_BADARG;
		return;
	}
	if (it->pp != NULL) {
		it->err = fa_verify_prepared(be, it->sig, it->sig_len,
			sig_format, it->pp, it->msg, it->msg_len,
			w->tmp, FA_EDGE_TMP_BYTES);
	} else {
		it->err = fa_verify(be, it->sig, it->sig_len, sig_format,
			it->pk, it->pk_len, it->msg, it->msg_len,
			w->tmp, FA_EDGE_TMP_BYTES);
	}
}

/* ------------------------------------------------------------------ */
/* Allocating wrappers. Scratch is wiped before it is freed (it held
   secret intermediate values). */

static uint8_t *
alloc_tmp(size_t len)
{
	return malloc(len);
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
	seed_rng(&rng, &err, seed, seed_len);
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
	int logn = fa_get_logn(sk, sk_len);
	uint8_t *tmp;
	size_t tmp_len;
	int err;

	if (logn < 0) {
		return logn;
	}
	tmp_len = FA_TMPSIZE_MAKEPUB((unsigned)logn);
	tmp = alloc_tmp(tmp_len);
	if (tmp == NULL) {
		return FA_ERR_INTERNAL;
	}
	err = fa_make_public(pk, pk_len, sk, sk_len, tmp, tmp_len);
	fa_free_secret(tmp, tmp_len);
	return err;
}

int
fa_expand_privkey_alloc(const fa_backend *be, void **expanded_key,
	size_t *expanded_key_len, const void *sk, size_t sk_len)
{
	int logn;
	uint8_t *tmp, *ek;
	size_t tmp_len, ek_len;
	int err;

	if (expanded_key == NULL || expanded_key_len == NULL) {
		return FA_ERR_BADARG;
	}
	*expanded_key = NULL;
	*expanded_key_len = 0;
	logn = fa_get_logn(sk, sk_len);
	if (logn < 0) {
		return logn;
	}
	tmp_len = FA_TMPSIZE_EXPAND((unsigned)logn);
	ek_len = FA_EXPANDED_KEY_SIZE((unsigned)logn);
	tmp = alloc_tmp(tmp_len);
	ek = malloc(ek_len);
	if (tmp == NULL || ek == NULL) {
		free(tmp);
		free(ek);
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
	int logn = fa_get_logn(sk, sk_len);
	uint8_t *tmp;
	size_t tmp_len;
	int err;

	if (logn < 0) {
		return logn;
	}
	tmp_len = FA_TMPSIZE_SIGN_DYN((unsigned)logn);
	tmp = alloc_tmp(tmp_len);
	if (tmp == NULL) {
		return FA_ERR_INTERNAL;
	}
	seed_rng(&rng, &err, seed, seed_len);
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
	seed_rng(&rng, &err, seed, seed_len);
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
	int logn = fa_get_logn(pk, pk_len);
	uint8_t *tmp;
	size_t tmp_len;
	int err;

	if (logn < 0) {
		return logn;
	}
	tmp_len = FA_TMPSIZE_VERIFY((unsigned)logn);
	tmp = alloc_tmp(tmp_len);
	if (tmp == NULL) {
		return FA_ERR_INTERNAL;
	}
	err = fa_verify(be, sig, sig_len, sig_format, pk, pk_len,
		msg, msg_len, tmp, tmp_len);
	free(tmp);
	return err;
}
