/*
 * edge_pool.c -- the worker pool (the edge library's one set of worker
 * threads) and the batch API (fa_sign_batch, fa_verify_batch).
 *
 * Besides batch tasks, a pool runs an attached work source (the broker's
 * batches): fa_pool_wake hands out tokens, and an idle worker with a
 * token calls the source once with its own scratch and PRNG. Batch tasks
 * go first.
 *
 * A batch is a task of n independent items. Tasks wait in a FIFO; idle
 * workers claim chunks of consecutive items from the oldest task that has
 * unclaimed items, run them with their own scratch and PRNG, and count
 * them done; the submitting thread sleeps on the task's condition
 * variable until all n are done. Everything is under one mutex, which
 * is held only to claim and to count (never while computing).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "edge_internal.h"

typedef struct fa_pool_task fa_pool_task;

struct fa_pool_task {
	/* What to run. */
	int op;                  /* FA_OP_SIGN or FA_OP_VERIFY */
	const fa_backend *be;
	int sig_format;
	void *items;
	size_t n;
	/* Progress, under the pool lock. */
	size_t next;             /* first unclaimed item */
	size_t done;             /* items finished */
	pthread_cond_t done_cond;
	fa_pool_task *qnext;
};

struct fa_pool {
	pthread_mutex_t lock;
	pthread_cond_t work_cond;
	fa_pool_task *head, *tail;   /* tasks with unclaimed items */
	int stop;
	unsigned nthreads;
	unsigned started;
	pthread_t *threads;
	fa_edge_worker *workers;
	/* Attached source: run(ctx, worker index, worker) by a worker that
	   takes a token; `active` calls running now (idle_cond: none). */
	int (*source_run)(void *ctx, unsigned idx, fa_edge_worker *w);
	void *source_ctx;
	unsigned source_tokens;
	unsigned source_active;
	pthread_cond_t idle_cond;
};

/* Items claimed at once: a few per worker and pass, so that the last
   items of a batch are still spread over all workers. Range [1, 16]. */
static size_t
chunk_size(const fa_pool *pool, const fa_pool_task *t)
{
	size_t left = t->n - t->next;
	size_t k = left / (4u * (size_t)pool->nthreads);

	if (k < 1) {
		k = 1;
	}
	if (k > 16) {
		k = 16;
	}
	return k;
}

static void
run_items(fa_edge_worker *w, const fa_pool_task *t, size_t start, size_t end)
{
	size_t i;

	for (i = start; i < end; i ++) {
		if (t->op == FA_OP_SIGN) {
			fa_edge_sign_one(w, t->be, t->sig_format,
				(fa_sign_item *)t->items + i);
		} else {
			fa_edge_verify_one(w, t->be, t->sig_format,
				(fa_verify_item *)t->items + i);
		}
	}
}

typedef struct {
	fa_pool *pool;
	fa_edge_worker *w;
	unsigned idx;
} worker_arg;

static void *
worker_main(void *arg)
{
	fa_pool *pool = ((worker_arg *)arg)->pool;
	fa_edge_worker *w = ((worker_arg *)arg)->w;
	unsigned idx = ((worker_arg *)arg)->idx;
	fa_pool_task *t;
	size_t start, end;

	free(arg);
	pthread_mutex_lock(&pool->lock);
	for (;;) {
		while (!pool->stop && pool->head == NULL
			&& (pool->source_run == NULL
			|| pool->source_tokens == 0))
		{
			pthread_cond_wait(&pool->work_cond, &pool->lock);
		}
		if (pool->head == NULL) {
			int (*run)(void *, unsigned, fa_edge_worker *);
			void *ctx;

			if (pool->source_run == NULL
				|| pool->source_tokens == 0)
			{
				break;   /* stopping and nothing left */
			}
			run = pool->source_run;
			ctx = pool->source_ctx;
			pool->source_tokens --;
			pool->source_active ++;
			pthread_mutex_unlock(&pool->lock);
			run(ctx, idx, w);
			pthread_mutex_lock(&pool->lock);
			if (-- pool->source_active == 0) {
				pthread_cond_broadcast(&pool->idle_cond);
			}
			continue;
		}
		t = pool->head;
		start = t->next;
		end = start + chunk_size(pool, t);
		t->next = end;
		if (end == t->n) {
			pool->head = t->qnext;
			if (pool->head == NULL) {
				pool->tail = NULL;
			}
		}
		pthread_mutex_unlock(&pool->lock);

		run_items(w, t, start, end);

		pthread_mutex_lock(&pool->lock);
		t->done += end - start;
		if (t->done == t->n) {
			pthread_cond_signal(&t->done_cond);
		}
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

static void
pool_stop_and_join(fa_pool *pool)
{
	unsigned i;

	pthread_mutex_lock(&pool->lock);
	pool->stop = 1;
	pthread_cond_broadcast(&pool->work_cond);
	pthread_mutex_unlock(&pool->lock);
	for (i = 0; i < pool->started; i ++) {
		pthread_join(pool->threads[i], NULL);
	}
	pool->started = 0;
}

void
fa_pool_free(fa_pool *pool)
{
	unsigned i;

	if (pool == NULL) {
		return;
	}
	pool_stop_and_join(pool);
	for (i = 0; i < pool->nthreads; i ++) {
		fa_edge_worker_clear(&pool->workers[i]);
	}
	free(pool->workers);
	free(pool->threads);
	pthread_cond_destroy(&pool->idle_cond);
	pthread_cond_destroy(&pool->work_cond);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

fa_pool *
fa_pool_new(unsigned nthreads)
{
	fa_pool *pool;
	unsigned i;

	if (nthreads == 0) {
		nthreads = fa_cpu_count();
	}
	pool = calloc(1, sizeof *pool);
	if (pool == NULL) {
		return NULL;
	}
	pool->nthreads = nthreads;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->work_cond, NULL);
	pthread_cond_init(&pool->idle_cond, NULL);
	pool->threads = calloc(nthreads, sizeof *pool->threads);
	pool->workers = calloc(nthreads, sizeof *pool->workers);
	if (pool->threads == NULL || pool->workers == NULL) {
		fa_pool_free(pool);
		return NULL;
	}
	for (i = 0; i < nthreads; i ++) {
		worker_arg *arg;

		if (fa_edge_worker_init(&pool->workers[i], NULL, 0) != FA_OK) {
			fa_pool_free(pool);
			return NULL;
		}
		arg = malloc(sizeof *arg);
		if (arg == NULL) {
			fa_pool_free(pool);
			return NULL;
		}
		arg->pool = pool;
		arg->w = &pool->workers[i];
		arg->idx = i;
		if (pthread_create(&pool->threads[i], NULL, worker_main, arg)
			!= 0)
		{
			free(arg);
			fa_pool_free(pool);
			return NULL;
		}
		pool->started ++;
	}
	return pool;
}

unsigned
fa_pool_size(const fa_pool *pool)
{
	return pool == NULL ? 0 : pool->nthreads;
}

void
fa_pool_attach(fa_pool *pool,
	int (*run)(void *ctx, unsigned idx, fa_edge_worker *w), void *ctx)
{
	pthread_mutex_lock(&pool->lock);
	pool->source_run = run;
	pool->source_ctx = ctx;
	pool->source_tokens = 0;
	pthread_mutex_unlock(&pool->lock);
}

void
fa_pool_wake(fa_pool *pool, unsigned workers)
{
	if (workers > pool->nthreads) {
		workers = pool->nthreads;
	}
	pthread_mutex_lock(&pool->lock);
	if (pool->source_tokens < workers) {
		pool->source_tokens = workers;
	}
	if (workers > 1) {
		pthread_cond_broadcast(&pool->work_cond);
	} else {
		pthread_cond_signal(&pool->work_cond);
	}
	pthread_mutex_unlock(&pool->lock);
}

void
fa_pool_detach(fa_pool *pool)
{
	pthread_mutex_lock(&pool->lock);
	pool->source_run = NULL;
	pool->source_tokens = 0;
	while (pool->source_active > 0) {
		pthread_cond_wait(&pool->idle_cond, &pool->lock);
	}
	pthread_mutex_unlock(&pool->lock);
}

/* Run a task on the pool, or on the calling thread when pool is NULL. */
static int
run_task(fa_pool *pool, fa_pool_task *t)
{
	if (pool == NULL) {
		fa_edge_worker w;

		if (fa_edge_worker_init(&w, NULL, 0) != FA_OK) {
			return FA_ERR_INTERNAL;
		}
		run_items(&w, t, 0, t->n);
		fa_edge_worker_clear(&w);
		return FA_OK;
	}
	if (pthread_cond_init(&t->done_cond, NULL) != 0) {
		return FA_ERR_INTERNAL;
	}
	pthread_mutex_lock(&pool->lock);
	t->qnext = NULL;
	if (pool->tail != NULL) {
		pool->tail->qnext = t;
	} else {
		pool->head = t;
	}
	pool->tail = t;
	pthread_cond_broadcast(&pool->work_cond);
	while (t->done < t->n) {
		pthread_cond_wait(&t->done_cond, &pool->lock);
	}
	pthread_mutex_unlock(&pool->lock);
	pthread_cond_destroy(&t->done_cond);
	return FA_OK;
}

static int
batch(fa_pool *pool, const fa_backend *be, int op, int sig_format,
	void *items, size_t n)
{
	fa_pool_task t;
	size_t i, failed;
	int err;

	if (n == 0) {
		return 0;
	}
	if (items == NULL) {
		return FA_ERR_BADARG;
	}
	if (op == FA_OP_SIGN ? !fa_edge_sign_format_ok(sig_format)
		: !fa_edge_verify_format_ok(sig_format))
	{
		return FA_ERR_BADARG;
	}
	memset(&t, 0, sizeof t);
	t.op = op;
	t.be = be;
	t.sig_format = sig_format;
	t.items = items;
	t.n = n;
	err = run_task(pool, &t);
	if (err != FA_OK) {
		return err;
	}
	failed = 0;
	for (i = 0; i < n; i ++) {
		int e = op == FA_OP_SIGN ? ((fa_sign_item *)items)[i].err
			: ((fa_verify_item *)items)[i].err;
		failed += e != FA_OK;
	}
	return failed > (size_t)0x7FFFFFFF ? 0x7FFFFFFF : (int)failed;
}

int
fa_sign_batch(fa_pool *pool, const fa_backend *be, int sig_format,
	fa_sign_item *items, size_t n)
{
	return batch(pool, be, FA_OP_SIGN, sig_format, items, n);
}

int
fa_verify_batch(fa_pool *pool, const fa_backend *be, int sig_format,
	fa_verify_item *items, size_t n)
{
	return batch(pool, be, FA_OP_VERIFY, sig_format, items, n);
}
