/*
 * edge_broker.c -- the request broker (see falcon_accel_edge.h): life
 * cycle, submission, the key cache entry points, the completion queue and
 * the metrics snapshot.
 * The broker's structure, modules and locking are described in
 * edge_broker_internal.h; jobs are in edge_job.c, scheduling in
 * edge_sched.c, counters in edge_metrics.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edge_broker_internal.h"
#include "edge_sched.h"

/* ------------------------------------------------------------------ */
/* Broker life cycle. */

void
fa_broker_config_init(fa_broker_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->queue_capacity = DEFAULT_QUEUE_CAPACITY;
	cfg->queue_max_bytes = DEFAULT_QUEUE_MAX_BYTES;
	cfg->max_batch = DEFAULT_MAX_BATCH;
	cfg->key_cache_bytes = DEFAULT_CACHE_BYTES;
}

static void
worker_state_clear(worker_state *ws)
{
	free(ws->jobs);
	free(ws->idx);
	free(ws->cut);
	free(ws->pins);
	free(ws->map);
	free(ws->sitems);
	free(ws->vitems);
}

static int
worker_state_init(worker_state *ws, fa_broker *b)
{
	size_t mb = b->cfg.max_batch;

	ws->b = b;
	ws->jobs = calloc(mb, sizeof *ws->jobs);
	ws->idx = calloc(mb, sizeof *ws->idx);
	ws->cut = calloc(mb, sizeof *ws->cut);
	ws->pins = calloc(mb, sizeof *ws->pins);
	ws->map = calloc(mb, sizeof *ws->map);
	ws->sitems = calloc(mb, sizeof *ws->sitems);
	ws->vitems = calloc(mb, sizeof *ws->vitems);
	if (ws->jobs == NULL || ws->idx == NULL || ws->cut == NULL
		|| ws->pins == NULL
		|| ws->map == NULL || ws->sitems == NULL
		|| ws->vitems == NULL)
	{
		return FA_ERR_INTERNAL;
	}
	return FA_OK;
}

void
fa_broker_free(fa_broker *b)
{
	fa_job *j, *next, *fl = NULL;
	unsigned i;

	if (b == NULL) {
		return;
	}
	pthread_mutex_lock(&b->lock);
	b->stop = 1;
	for (j = b->qhead; j != NULL; j = next) {
		next = j->qnext;
		fa_edge_cut_job(b, j, FA_ERR_CANCELLED, &fl);
	}
	pthread_cond_broadcast(&b->timer_cond);
	pthread_mutex_unlock(&b->lock);
	fa_edge_finish_jobs(b, fl);

	/* Running batches finish; then the pool's threads stop. */
	if (b->attached) {
		fa_pool_detach(b->pool);
	}
	fa_pool_free(b->pool);
	if (b->reaper_started) {
		pthread_join(b->reaper, NULL);
	}
	for (j = b->done_head; j != NULL; j = next) {
		next = j->fnext;
		fa_job_release(j);
	}
	if (b->ws != NULL) {
		for (i = 0; i < b->nthreads; i ++) {
			worker_state_clear(&b->ws[i]);
		}
	}
	fa_key_cache_clear(&b->cache);
	if (b->pipe_r >= 0) {
		close(b->pipe_r);
	}
	if (b->pipe_w >= 0) {
		close(b->pipe_w);
	}
	free(b->ws);
	fa_edge_metrics_clear(&b->m);
	pthread_cond_destroy(&b->timer_cond);
	pthread_mutex_destroy(&b->done_lock);
	pthread_mutex_destroy(&b->lock);
	free(b);
}

static fa_broker *
broker_fail(fa_broker *b, int *err, int code)
{
	fa_broker_free(b);
	if (err != NULL) {
		*err = code;
	}
	return NULL;
}

fa_broker *
fa_broker_new(const fa_broker_config *cfg, int *err)
{
	fa_broker *b;
	int fds[2];
	unsigned i;

	b = calloc(1, sizeof *b);
	if (b == NULL) {
		if (err != NULL) {
			*err = FA_ERR_INTERNAL;
		}
		return NULL;
	}
	b->pipe_r = b->pipe_w = -1;
	pthread_mutex_init(&b->lock, NULL);
	pthread_mutex_init(&b->done_lock, NULL);
	if (fa_edge_cond_init(&b->timer_cond) != 0) {
		/* fa_broker_free destroys it: make it valid first. */
		pthread_cond_init(&b->timer_cond, NULL);
		return broker_fail(b, err, FA_ERR_INTERNAL);
	}
	if (cfg != NULL) {
		b->cfg = *cfg;
	} else {
		fa_broker_config_init(&b->cfg);
	}
	if (b->cfg.queue_capacity == 0) {
		b->cfg.queue_capacity = DEFAULT_QUEUE_CAPACITY;
	}
	if (b->cfg.queue_max_bytes == 0) {
		b->cfg.queue_max_bytes = DEFAULT_QUEUE_MAX_BYTES;
	}
	if (b->cfg.max_batch == 0) {
		b->cfg.max_batch = DEFAULT_MAX_BATCH;
	}
	if (b->cfg.key_cache_bytes == 0) {
		b->cfg.key_cache_bytes = DEFAULT_CACHE_BYTES;
	}
	if (b->cfg.backend == NULL) {
		b->cfg.backend = fa_backend_default();
	}
	if (!fa_backend_available(b->cfg.backend)) {
		return broker_fail(b, err, FA_ERR_BACKEND);
	}
	b->nthreads = b->cfg.threads != 0 ? b->cfg.threads : fa_cpu_count();
	b->cfg.threads = b->nthreads;
	b->start_us = fa_now_us();
	b->reaper_wake_us = INT64_MAX;
	if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) {
		return broker_fail(b, err, FA_ERR_INTERNAL);
	}
	b->pipe_r = fds[0];
	b->pipe_w = fds[1];
	b->ws = calloc(b->nthreads, sizeof *b->ws);
	if (fa_edge_metrics_init(&b->m) != FA_OK || b->ws == NULL
		|| fa_key_cache_init(&b->cache, b->cfg.key_cache_bytes)
		!= FA_OK)
	{
		return broker_fail(b, err, FA_ERR_INTERNAL);
	}
	for (i = 0; i < b->nthreads; i ++) {
		if (worker_state_init(&b->ws[i], b) != FA_OK) {
			return broker_fail(b, err, FA_ERR_INTERNAL);
		}
	}
	b->pool = fa_pool_new(b->nthreads);
	if (b->pool == NULL) {
		return broker_fail(b, err, FA_ERR_INTERNAL);
	}
	fa_pool_attach(b->pool, fa_edge_broker_run, b);
	b->attached = 1;
	if (pthread_create(&b->reaper, NULL, fa_edge_broker_reaper_main, b) != 0) {
		return broker_fail(b, err, FA_ERR_INTERNAL);
	}
	b->reaper_started = 1;
	if (err != NULL) {
		*err = FA_OK;
	}
	return b;
}

int
fa_broker_set_executor(fa_broker *b, const fa_backend *be,
	fa_batch_executor fn, void *ctx)
{
	size_t i;
	int r = FA_ERR_BADARG;

	if (b == NULL || be == NULL) {
		return FA_ERR_BADARG;
	}
	pthread_mutex_lock(&b->lock);
	for (i = 0; i < MAX_EXECUTORS; i ++) {
		if (b->executors[i].fn != NULL && b->executors[i].be == be) {
			b->executors[i].fn = fn;
			b->executors[i].ctx = ctx;
			r = FA_OK;
			break;
		}
	}
	if (r != FA_OK && fn == NULL) {
		r = FA_OK;   /* nothing to remove */
	}
	for (i = 0; r != FA_OK && i < MAX_EXECUTORS; i ++) {
		if (b->executors[i].fn == NULL) {
			b->executors[i].be = be;
			b->executors[i].fn = fn;
			b->executors[i].ctx = ctx;
			r = FA_OK;
		}
	}
	pthread_mutex_unlock(&b->lock);
	return r;
}

/* ------------------------------------------------------------------ */
/* Submission. */

int
fa_broker_submit(fa_broker *b, const fa_job_options *opt,
	const fa_broker_item *items, size_t n, fa_job **job)
{
	fa_job *j;
	int err;

	if (job != NULL) {
		*job = NULL;
	}
	if (b == NULL || opt == NULL || items == NULL || n == 0
		|| opt->timeout_us < 0)
	{
		return FA_ERR_BADARG;
	}
	if (opt->op == FA_OP_SIGN ? !fa_edge_sign_format_ok(opt->sig_format)
		: opt->op == FA_OP_VERIFY
		? !fa_edge_verify_format_ok(opt->sig_format) : 1)
	{
		return FA_ERR_BADARG;
	}
	if (n > b->cfg.queue_capacity) {
		return FA_ERR_BADARG;   /* could never fit */
	}
	if (opt->be != NULL && !fa_backend_available(opt->be)) {
		return FA_ERR_BACKEND;
	}
	err = fa_edge_check_items(opt, items, n);
	if (err != FA_OK) {
		return err;
	}

	/* Cheap early refusal under overload, before copying anything. */
	pthread_mutex_lock(&b->lock);
	if (b->queue_items + n > b->cfg.queue_capacity) {
		b->m.rejected_busy ++;
		pthread_mutex_unlock(&b->lock);
		return FA_ERR_BUSY;
	}
	pthread_mutex_unlock(&b->lock);

	err = fa_edge_job_new(b, b->cfg.backend, b->cfg.queue_max_bytes, opt,
		items, n, &j);
	if (err != FA_OK) {
		return err;
	}

	pthread_mutex_lock(&b->lock);
	if (b->stop) {
		err = FA_ERR_INTERNAL;
	} else if (b->queue_items + n > b->cfg.queue_capacity
		|| b->bytes + j->alloc_len > b->cfg.queue_max_bytes)
	{
		b->m.rejected_busy ++;
		err = FA_ERR_BUSY;
	}
	if (err != FA_OK) {
		pthread_mutex_unlock(&b->lock);
		fa_job_release(j);
		return err;
	}
	j->submit_us = fa_now_us();
	if (opt->timeout_us > 0) {
		j->deadline_us = j->submit_us + opt->timeout_us;
		if (j->deadline_us < b->reaper_wake_us) {
			pthread_cond_signal(&b->timer_cond);
		}
	}
	if (job != NULL) {
		fa_job_retain(j);
		*job = j;
	}
	fa_edge_sched_enqueue(b, j);
	b->m.jobs_submitted ++;
	b->m.items_submitted += n;
	pthread_mutex_unlock(&b->lock);
	fa_pool_wake(b->pool, n > 1 ? b->nthreads : 1);
	return FA_OK;
}

int
fa_broker_submit_packed(fa_broker *b, const fa_job_options *opt,
	const void *data, size_t data_len, const size_t *lens, size_t n,
	fa_job **job)
{
	const uint8_t *pos = data;
	fa_broker_item *items;
	size_t i, used = 0, per;
	int err;

	if (job != NULL) {
		*job = NULL;
	}
	if (opt == NULL || lens == NULL || n == 0
		|| (data == NULL && data_len > 0)
		|| n > ((size_t)-1) / sizeof *items)
	{
		return FA_ERR_BADARG;
	}
	per = opt->op == FA_OP_VERIFY ? 3 : 2;
	items = calloc(n, sizeof *items);
	if (items == NULL) {
		return FA_ERR_INTERNAL;
	}
	for (i = 0; i < n; i ++) {
		const size_t *l = lens + per * i;
		size_t k;

		for (k = 0; k < per; k ++) {
			if (l[k] > data_len - used) {
				free(items);
				return FA_ERR_BADARG;
			}
			used += l[k];
		}
		items[i].key = pos;
		items[i].key_len = l[0];
		pos += l[0];
		items[i].msg = pos;
		items[i].msg_len = l[1];
		pos += l[1];
		if (per == 3) {
			items[i].sig = pos;
			items[i].sig_len = l[2];
			pos += l[2];
		}
	}
	err = used == data_len
		? fa_broker_submit(b, opt, items, n, job) : FA_ERR_BADARG;
	free(items);
	return err;
}

/* ------------------------------------------------------------------ */
/* Keys, completion queue, metrics. */

int
fa_broker_preload_key(fa_broker *b, int kind, const void *key,
	size_t key_len)
{
	uint8_t digest[FA_KEY_DIGEST_SIZE];
	fa_edge_worker w;
	fa_cache_entry *pin;
	const void *data;
	size_t len;
	int err;

	if (b == NULL || key == NULL
		|| (kind != FA_OP_SIGN && kind != FA_OP_VERIFY))
	{
		return FA_ERR_BADARG;
	}
	len = fa_key_material_size(kind, key, key_len);
	if (len > b->cfg.key_cache_bytes) {
		return FA_ERR_SIZE;
	}
	fa_key_digest(digest, kind, key, key_len);
	if (fa_edge_worker_init(&w, "", 0) != FA_OK) {
		return FA_ERR_INTERNAL;
	}
	err = fa_key_cache_acquire(&b->cache, &w, b->cfg.backend, kind,
		digest, key, key_len, 1, &data, &pin);
	fa_edge_worker_clear(&w);
	if (err == FA_OK) {
		fa_key_cache_unpin(&b->cache, pin);
	}
	return err;
}

int
fa_broker_forget_key(fa_broker *b, int kind, const void *key,
	size_t key_len)
{
	uint8_t digest[FA_KEY_DIGEST_SIZE];

	if (b == NULL || key == NULL) {
		return 0;
	}
	fa_key_digest(digest, kind, key, key_len);
	return fa_key_cache_forget(&b->cache, kind, digest);
}

int
fa_broker_completion_fd(const fa_broker *b)
{
	return b->pipe_r;
}

size_t
fa_broker_poll(fa_broker *b, fa_job **out, size_t max)
{
	size_t k = 0;

	pthread_mutex_lock(&b->done_lock);
	while (k < max && b->done_head != NULL) {
		fa_job *j = b->done_head;

		b->done_head = j->fnext;
		j->fnext = NULL;
		out[k ++] = j;
	}
	if (b->done_head == NULL) {
		b->done_tail = NULL;
	}
	pthread_mutex_unlock(&b->done_lock);
	return k;
}

void
fa_broker_get_metrics(fa_broker *b, fa_broker_metrics *m)
{
	uint32_t *s;
	size_t n;

	memset(m, 0, sizeof *m);
	s = malloc(FA_EDGE_LATENCY_RING * sizeof *s);
	pthread_mutex_lock(&b->lock);
	m->uptime_us = (uint64_t)(fa_now_us() - b->start_us);
	m->threads = b->nthreads;
	m->queue_depth = b->queue_items;
	m->queue_bytes = b->bytes;
	m->in_flight = b->in_flight;
	m->queue_capacity = b->cfg.queue_capacity;
	m->queue_max_bytes = b->cfg.queue_max_bytes;
	n = fa_edge_metrics_copy(&b->m, m, s);
	pthread_mutex_unlock(&b->lock);
	if (s != NULL) {
		fa_edge_metrics_latency(m, s, n);
		free(s);
	}

	pthread_mutex_lock(&b->cache.lock);
	m->cache_hits = b->cache.hits;
	m->cache_misses = b->cache.misses;
	m->cache_evictions = b->cache.evictions;
	m->cache_entries = b->cache.entries;
	m->cache_bytes = b->cache.bytes;
	m->cache_capacity_bytes = b->cache.capacity;
	pthread_mutex_unlock(&b->cache.lock);
}
