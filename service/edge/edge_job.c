/*
 * edge_job.c -- jobs and their life cycle (edge_job.h): building a job
 * (one allocation holding the copied items), the transitions queued ->
 * complete -> done -> settled, references, waiting, results.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "edge_job.h"

/* ------------------------------------------------------------------ */
/* Jobs. */

void
fa_job_retain(fa_job *job)
{
	atomic_fetch_add_explicit(&job->refs, 1, memory_order_relaxed);
}

void
fa_job_release(fa_job *job)
{
	if (job == NULL) {
		return;
	}
	if (atomic_fetch_sub_explicit(&job->refs, 1, memory_order_acq_rel)
		== 1)
	{
		pthread_cond_destroy(&job->cv);
		pthread_mutex_destroy(&job->mu);
		/* Sign jobs hold private keys. */
		fa_free_secret(job, job->alloc_len);
	}
}

int
fa_job_is_done(const fa_job *job)
{
	return atomic_load_explicit(&((fa_job *)job)->done,
		memory_order_acquire);
}

int
fa_job_wait(fa_job *job, int64_t timeout_us)
{
	int64_t until = timeout_us >= 0 ? fa_now_us() + timeout_us : 0;
	int done;

	if (atomic_load_explicit(&job->settled, memory_order_acquire)) {
		return 1;
	}
	pthread_mutex_lock(&job->mu);
	while (!(done = atomic_load(&job->settled))) {
		if (timeout_us < 0) {
			pthread_cond_wait(&job->cv, &job->mu);
		} else {
			if (fa_now_us() >= until) {
				break;
			}
			fa_edge_cond_wait_until(&job->cv, &job->mu, until);
		}
	}
	pthread_mutex_unlock(&job->mu);
	return done;
}

int
fa_job_status(const fa_job *job)
{
	return fa_job_is_done(job) ? job->status : FA_JOB_PENDING;
}

int
fa_job_op(const fa_job *job)
{
	return job->op;
}

size_t
fa_job_count(const fa_job *job)
{
	return job->n;
}

int
fa_job_item_status(const fa_job *job, size_t i)
{
	if (i >= job->n) {
		return FA_ERR_BADARG;
	}
	if (!fa_job_is_done(job)) {
		return FA_JOB_PENDING;
	}
	return job->items[i].err;
}

size_t
fa_job_item_statuses(const fa_job *job, int *out, size_t n)
{
	size_t i;
	int done = fa_job_is_done(job);

	if (n > job->n) {
		n = job->n;
	}
	for (i = 0; i < n; i ++) {
		out[i] = done ? job->items[i].err : FA_JOB_PENDING;
	}
	return n;
}

int
fa_job_signature(const fa_job *job, size_t i, const uint8_t **sig,
	size_t *sig_len)
{
	const job_item *it;

	if (i >= job->n || job->op != FA_OP_SIGN || sig == NULL
		|| sig_len == NULL)
	{
		return FA_ERR_BADARG;
	}
	if (!fa_job_is_done(job)) {
		return FA_JOB_PENDING;
	}
	it = &job->items[i];
	if (it->err != FA_OK) {
		return it->err;
	}
	*sig = it->sig_out;
	*sig_len = it->sig_out_len;
	return FA_OK;
}

uint64_t
fa_job_tag(const fa_job *job)
{
	return job->tag;
}

void *
fa_job_user(const fa_job *job)
{
	return job->user;
}

int64_t
fa_job_latency_us(const fa_job *job)
{
	return fa_job_is_done(job) ? job->done_us - job->submit_us : -1;
}

/* ------------------------------------------------------------------ */
/* Building a job. */


/* Bytes of the output buffer of a signing item (0: invalid key, the
   item will fail with the decoding error). */
static size_t
sig_out_size(const fa_broker_item *it)
{
	int logn = fa_get_logn(it->key, it->key_len);

	if (logn < FA_LOGN_MIN || logn > FA_LOGN_MAX) {
		return 0;
	}
	return FA_SIG_MAXSIZE((unsigned)logn);
}

/* Add a + b, saturating (sizes from the caller). */
static size_t
add_sat(size_t a, size_t b)
{
	return a + b < a ? (size_t)-1 : a + b;
}

int
fa_edge_check_items(const fa_job_options *opt, const fa_broker_item *items,
	size_t n)
{
	size_t i;

	for (i = 0; i < n; i ++) {
		const fa_broker_item *it = &items[i];

		if ((it->key == NULL && it->key_len > 0)
			|| (it->msg == NULL && it->msg_len > 0)
			|| (opt->op == FA_OP_VERIFY && it->sig == NULL
				&& it->sig_len > 0))
		{
			return FA_ERR_BADARG;
		}
	}
	return FA_OK;
}

static uint8_t *
copy_in(uint8_t **pos, const void *src, size_t len)
{
	uint8_t *dst = *pos;

	if (len > 0) {
		memcpy(dst, src, len);
	}
	*pos += len;
	return dst;
}

/* Item i has the same key as item i - 1 (a batch usually has one key):
   the job then holds one copy and one digest for the run. */
static int
same_key_as_previous(const fa_broker_item *items, size_t i)
{
	return i > 0 && items[i].key_len == items[i - 1].key_len
		&& (items[i].key == items[i - 1].key
		|| memcmp(items[i].key, items[i - 1].key, items[i].key_len)
		== 0);
}

int
fa_edge_job_new(fa_broker *owner, const fa_backend *be, size_t max_bytes,
	const fa_job_options *opt, const fa_broker_item *items, size_t n,
	fa_job **out)
{
	size_t i, head, len;
	uint8_t *pos;
	fa_job *j;

	if (n > ((size_t)-1 - sizeof *j) / sizeof(job_item)) {
		return FA_ERR_BADARG;
	}
	head = sizeof *j + n * sizeof(job_item);
	len = head;
	for (i = 0; i < n; i ++) {
		if (!same_key_as_previous(items, i)) {
			len = add_sat(len, items[i].key_len);
		}
		len = add_sat(len, items[i].msg_len);
		if (opt->op == FA_OP_VERIFY) {
			len = add_sat(len, items[i].sig_len);
		} else {
			len = add_sat(len, sig_out_size(&items[i]));
		}
	}
	if (len > max_bytes) {
		return FA_ERR_BADARG;   /* could never fit */
	}
	j = malloc(len);
	if (j == NULL) {
		return FA_ERR_INTERNAL;
	}
	memset(j, 0, head);
	atomic_init(&j->refs, 1);
	atomic_init(&j->done, 0);
	atomic_init(&j->settled, 0);
	atomic_init(&j->cut_code, 0);
	j->broker = owner;
	j->op = opt->op;
	j->sig_format = opt->sig_format;
	j->be = opt->be != NULL ? opt->be : be;
	j->n = n;
	j->alloc_len = len;
	j->cut_status = FA_OK;
	j->cb = opt->cb;
	j->user = opt->user;
	j->tag = opt->tag;
	j->notify = opt->notify;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
	pos = (uint8_t *)j + head;
	for (i = 0; i < n; i ++) {
		const fa_broker_item *src = &items[i];
		job_item *it = &j->items[i];
		int same = same_key_as_previous(items, i);

		it->key = same ? j->items[i - 1].key
			: copy_in(&pos, src->key, src->key_len);
		it->key_len = src->key_len;
		it->msg = copy_in(&pos, src->msg, src->msg_len);
		it->msg_len = src->msg_len;
		if (opt->op == FA_OP_VERIFY) {
			it->sig = copy_in(&pos, src->sig, src->sig_len);
			it->sig_len = src->sig_len;
		} else {
			it->sig_out_len = sig_out_size(src);
			it->sig_out = pos;
			pos += it->sig_out_len;
		}
		/* The digest costs a SHAKE256 pass over the key (about as
		   much as a verification): reuse the previous item's when the
		   key is the same. */
		if (same) {
			memcpy(it->digest, j->items[i - 1].digest,
				FA_KEY_DIGEST_SIZE);
		} else {
			fa_key_digest(it->digest, opt->op, it->key,
				it->key_len);
		}
		it->err = FA_JOB_PENDING;
	}
	*out = j;
	return FA_OK;
}

/* ------------------------------------------------------------------ */
/* Transitions (edge_job.h). */

int
fa_edge_job_has_unstarted(const fa_job *j)
{
	return j->next < j->n;
}

size_t
fa_edge_job_take(fa_job *j)
{
	return j->next ++;
}

int
fa_edge_job_skip_code(const fa_job *j, int64_t now)
{
	int c = atomic_load_explicit(&((fa_job *)j)->cut_code,
		memory_order_relaxed);

	if (c == 0 && j->deadline_us != 0 && now >= j->deadline_us) {
		c = FA_ERR_DEADLINE;
	}
	return c;
}

size_t
fa_edge_job_cut(fa_job *j, int code)
{
	size_t i, count = j->n - j->next;
	int none = 0;

	/* Items already in a worker's batch are skipped there. */
	atomic_compare_exchange_strong(&j->cut_code, &none, code);
	for (i = j->next; i < j->n; i ++) {
		j->items[i].err = code;
	}
	j->next = j->n;
	j->finished += count;
	if (count > 0 && j->cut_status == FA_OK) {
		j->cut_status = code;
	}
	return count;
}

void
fa_edge_job_item_done(fa_job *j, int cut)
{
	if (cut != 0 && j->cut_status == FA_OK) {
		j->cut_status = cut;
	}
	j->finished ++;
}

int
fa_edge_job_try_complete(fa_job *j, int64_t now)
{
	if (j->complete || j->finished < j->n) {
		return 0;
	}
	j->complete = 1;
	j->done_us = now;
	j->status = j->cut_status;
	return 1;
}

int
fa_edge_job_settle(fa_job *j)
{
	/* Results readable, then the callback, then the waiters. */
	atomic_store_explicit(&j->done, 1, memory_order_release);
	if (j->cb != NULL) {
		j->cb(j, j->user);
	}
	pthread_mutex_lock(&j->mu);
	atomic_store_explicit(&j->settled, 1, memory_order_release);
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
	return j->notify;
}
