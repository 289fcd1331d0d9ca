/*
 * edge_worker.c -- per-thread worker state (scratch buffer, OS-seeded
 * PRNG) and the single-item sign/verify that the pool and the broker
 * run.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"


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

void
fa_edge_seed_rng(fa_shake256_ctx *rng, int *rng_err, const void *seed,
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
	fa_edge_seed_rng(&w->rng, &w->rng_err, seed, seed_len);
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
