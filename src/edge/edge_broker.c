/*
 * edge_broker.c -- the request broker (see falcon_accel_edge.h).
 *
 * Structure:
 *  - A job is one allocation: the fa_job header, n job_item records, then
 *    the copied payload (keys, messages, signatures) and, for signing,
 *    one FA_SIG_MAXSIZE(logn) output buffer per item. It is reference
 *    counted: the broker holds one reference until the job is done (then
 *    the completion queue may hold it), the submitter one per handle.
 *  - The queue is a doubly linked FIFO of jobs that still have unstarted
 *    items. queue_items counts those items; `bytes` counts the memory of
 *    every job not yet done. Both are checked at submission: over either
 *    bound, the submission fails with FA_ERR_BUSY and nothing is kept.
 *  - Worker threads form a batch from the queue: the oldest job fixes the
 *    group (operation, backend, signature format), and unstarted items of
 *    that job and of later jobs of the same group are taken, up to
 *    `take` items (an even share of the queued items per worker, at most
 *    max_batch; a backend with an executor always gets up to max_batch).
 *    The batch runs without the lock: keys come from the key cache
 *    (pinned while in use), then either the backend's executor gets the
 *    whole batch or the worker runs the items one by one.
 *  - A reaper thread sleeps until the earliest deadline of a queued job
 *    and cuts overdue jobs: their unstarted items get FA_ERR_DEADLINE.
 *    Cancellation cuts the same way with FA_ERR_CANCELLED. A cut also
 *    sets the job's cut_code, which workers check before each item of an
 *    already formed batch (and the deadline too), so items that wait in a
 *    batch are skipped as well. Items already running are never
 *    interrupted.
 *  - A job whose items are all finished or cut is done: its waiters are
 *    woken, then its callback runs or it is pushed to the completion
 *    queue (whose pipe is written when the queue goes from empty to
 *    non-empty).
 *
 * Locking: one broker mutex (queue, counters, job progress); the key
 * cache has its own mutex, the completion queue another one, each job a
 * mutex for waiters. Order: broker lock, then cache or job or done lock;
 * callbacks run with no lock held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edge_internal.h"

#define DEFAULT_QUEUE_CAPACITY  4096u
#define DEFAULT_QUEUE_MAX_BYTES ((size_t)64 << 20)
#define DEFAULT_MAX_BATCH       64u
#define DEFAULT_CACHE_BYTES     ((size_t)32 << 20)
#define LATENCY_RING            8192u
/* Jobs looked at past the head when filling a batch. */
#define BATCH_SCAN_JOBS         64u
#define MAX_EXECUTORS           8u

typedef struct {
	const uint8_t *key;
	size_t key_len;
	const uint8_t *msg;
	size_t msg_len;
	const uint8_t *sig;       /* verify: the signature */
	size_t sig_len;
	uint8_t *sig_out;         /* sign: output buffer */
	size_t sig_out_len;       /* capacity, then signature length */
	uint8_t digest[FA_KEY_DIGEST_SIZE];
	int err;
} job_item;

struct fa_job {
	atomic_int refs;
	atomic_int done;          /* 1 once results are final */
	atomic_int settled;       /* 1 once the callback has returned */
	atomic_int cut_code;      /* 0, or why remaining items are skipped */
	fa_broker *broker;
	int op;
	int sig_format;
	const fa_backend *be;
	size_t n;
	size_t alloc_len;         /* whole allocation, for the wipe */
	/* Under the broker lock. */
	size_t next;              /* first unstarted item */
	size_t finished;          /* items run or cut */
	int cut_status;           /* FA_OK, or how items were cut */
	int in_queue;
	int complete;             /* done as far as the broker is concerned */
	fa_job *qprev, *qnext;
	fa_job *fnext;            /* finish list, then completion queue */
	int64_t submit_us;
	int64_t deadline_us;      /* 0: none */
	int64_t done_us;
	/* Completion. */
	fa_job_callback cb;
	void *user;
	uint64_t tag;
	int notify;
	int status;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	job_item items[];
};

typedef struct {
	const fa_backend *be;
	fa_batch_executor fn;
	void *ctx;
} executor_slot;

/* One worker thread's batch arrays (max_batch entries each). */
typedef struct {
	fa_broker *b;
	fa_edge_worker w;
	fa_job **jobs;
	size_t *idx;
	int *cut;                 /* per entry: 0 ran, else skipped with */
	fa_cache_entry **pins;
	size_t *map;              /* batch entry of each executed item */
	fa_sign_item *sitems;
	fa_verify_item *vitems;
} worker_state;

struct fa_broker {
	pthread_mutex_t lock;
	pthread_cond_t work_cond;     /* queue not empty, or stop */
	pthread_cond_t timer_cond;    /* reaper: new deadline, or stop */
	fa_broker_config cfg;
	int stop;

	fa_job *qhead, *qtail;
	size_t queue_items;
	size_t bytes;
	size_t in_flight;
	int64_t reaper_wake_us;       /* deadline the reaper waits for */

	unsigned nthreads;
	unsigned started;
	int reaper_started;
	pthread_t *threads;
	pthread_t reaper;
	worker_state *ws;

	executor_slot executors[MAX_EXECUTORS];

	pthread_mutex_t done_lock;
	fa_job *done_head, *done_tail;
	int pipe_r, pipe_w;

	fa_key_cache cache;

	/* Counters, under the lock. */
	int64_t start_us;
	uint64_t jobs_submitted, items_submitted;
	uint64_t jobs_completed, items_completed, items_failed;
	uint64_t items_cancelled, items_expired, rejected_busy;
	uint64_t batches;
	uint64_t batch_hist[FA_BROKER_HIST_BUCKETS];
	uint32_t *lat;                /* LATENCY_RING samples */
	size_t lat_pos, lat_count;
	size_t backend_count;
	fa_broker_backend_stats backend[FA_BROKER_MAX_BACKENDS];
};

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
/* Queue and completion, under the broker lock unless said otherwise. */

static void
queue_remove(fa_broker *b, fa_job *j)
{
	if (!j->in_queue) {
		return;
	}
	if (j->qprev != NULL) {
		j->qprev->qnext = j->qnext;
	} else {
		b->qhead = j->qnext;
	}
	if (j->qnext != NULL) {
		j->qnext->qprev = j->qprev;
	} else {
		b->qtail = j->qprev;
	}
	j->qprev = j->qnext = NULL;
	j->in_queue = 0;
}

static void
queue_append(fa_broker *b, fa_job *j)
{
	j->qnext = NULL;
	j->qprev = b->qtail;
	if (b->qtail != NULL) {
		b->qtail->qnext = j;
	} else {
		b->qhead = j;
	}
	b->qtail = j;
	j->in_queue = 1;
}

static void
record_latency(fa_broker *b, int64_t us)
{
	if (us < 0) {
		us = 0;
	}
	if (us > (int64_t)UINT32_MAX) {
		us = UINT32_MAX;
	}
	b->lat[b->lat_pos] = (uint32_t)us;
	b->lat_pos = (b->lat_pos + 1) % LATENCY_RING;
	if (b->lat_count < LATENCY_RING) {
		b->lat_count ++;
	}
}

/* If every item of j is finished, mark it complete and push it on the
   finish list *fl (completed after the lock is released). */
static void
maybe_complete(fa_broker *b, fa_job *j, fa_job **fl)
{
	if (j->complete || j->finished < j->n) {
		return;
	}
	j->complete = 1;
	j->done_us = fa_now_us();
	j->status = j->cut_status;
	b->jobs_completed ++;
	b->bytes -= j->alloc_len;
	record_latency(b, j->done_us - j->submit_us);
	j->fnext = *fl;
	*fl = j;
}

/* Give the unstarted items of j the error `code` and take j out of the
   queue. */
static void
cut_job(fa_broker *b, fa_job *j, int code, fa_job **fl)
{
	size_t i, count = j->n - j->next;
	int none = 0;

	/* Items already in a worker's batch are skipped there. */
	atomic_compare_exchange_strong(&j->cut_code, &none, code);
	if (count == 0) {
		return;
	}
	for (i = j->next; i < j->n; i ++) {
		j->items[i].err = code;
	}
	j->next = j->n;
	j->finished += count;
	if (j->cut_status == FA_OK) {
		j->cut_status = code;
	}
	b->queue_items -= count;
	if (code == FA_ERR_DEADLINE) {
		b->items_expired += count;
	} else {
		b->items_cancelled += count;
	}
	queue_remove(b, j);
	maybe_complete(b, j, fl);
}

/* Complete the jobs of a finish list; no broker lock held. */
static void
finish_jobs(fa_broker *b, fa_job *fl)
{
	while (fl != NULL) {
		fa_job *j = fl;

		fl = j->fnext;
		j->fnext = NULL;
		/* Results readable, then the callback, then the waiters. */
		atomic_store_explicit(&j->done, 1, memory_order_release);
		if (j->cb != NULL) {
			j->cb(j, j->user);
		}
		pthread_mutex_lock(&j->mu);
		atomic_store_explicit(&j->settled, 1, memory_order_release);
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
		if (j->notify) {
			/* The broker's reference moves to the completion
			   queue. */
			int was_empty;

			pthread_mutex_lock(&b->done_lock);
			was_empty = b->done_head == NULL;
			if (b->done_tail != NULL) {
				b->done_tail->fnext = j;
			} else {
				b->done_head = j;
			}
			b->done_tail = j;
			pthread_mutex_unlock(&b->done_lock);
			if (was_empty) {
				ssize_t r = write(b->pipe_w, "j", 1);
				(void)r;   /* full pipe: a wake-up is pending */
			}
		} else {
			fa_job_release(j);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Batches. */

static const executor_slot *
find_executor(const fa_broker *b, const fa_backend *be)
{
	size_t i;

	for (i = 0; i < MAX_EXECUTORS; i ++) {
		if (b->executors[i].fn != NULL && b->executors[i].be == be) {
			return &b->executors[i];
		}
	}
	return NULL;
}

static fa_broker_backend_stats *
backend_stats(fa_broker *b, const fa_backend *be)
{
	const char *name = fa_backend_name(be);
	size_t i;

	for (i = 0; i < b->backend_count; i ++) {
		if (b->backend[i].name == name) {
			return &b->backend[i];
		}
	}
	if (b->backend_count == FA_BROKER_MAX_BACKENDS) {
		return NULL;
	}
	b->backend[b->backend_count].name = name;
	return &b->backend[b->backend_count ++];
}

static unsigned
hist_bucket(size_t k)
{
	unsigned bucket = 0;
	size_t top = 1;

	while (top < k && bucket < FA_BROKER_HIST_BUCKETS - 1) {
		top <<= 1;
		bucket ++;
	}
	return bucket;
}

/* Fill ws->jobs/idx with a batch; returns its size (0 if the queue only
   held overdue jobs). Sets *exec to the backend's executor (or NULL).
   Overdue jobs met on the way are cut onto *fl. */
static size_t
form_batch(fa_broker *b, worker_state *ws, executor_slot *exec,
	fa_job **fl)
{
	int64_t now = fa_now_us();
	fa_job *j, *next, *first = NULL;
	size_t k = 0, take = 0, scanned = 0;
	const executor_slot *es = NULL;

	for (j = b->qhead; j != NULL && scanned < BATCH_SCAN_JOBS;
		j = next)
	{
		next = j->qnext;
		if (j->deadline_us != 0 && j->deadline_us <= now) {
			cut_job(b, j, FA_ERR_DEADLINE, fl);
			continue;
		}
		if (first == NULL) {
			first = j;
			es = find_executor(b, j->be);
			if (es != NULL) {
				take = b->cfg.max_batch;
			} else {
				/* An even share for each worker. */
				take = (b->queue_items + b->nthreads - 1)
					/ b->nthreads;
				if (take > b->cfg.max_batch) {
					take = b->cfg.max_batch;
				}
				if (take < 1) {
					take = 1;
				}
			}
		} else if (j->op != first->op || j->be != first->be
			|| j->sig_format != first->sig_format)
		{
			scanned ++;
			continue;
		}
		scanned ++;
		while (j->next < j->n && k < take) {
			ws->jobs[k] = j;
			ws->idx[k] = j->next ++;
			k ++;
		}
		if (j->next == j->n) {
			queue_remove(b, j);
		}
		if (k == take) {
			break;
		}
	}
	b->queue_items -= k;
	b->in_flight += k;
	if (es != NULL) {
		*exec = *es;
	} else {
		memset(exec, 0, sizeof *exec);
	}
	return k;
}

/* Why item entries of job j must be skipped now: its cut code, or
   FA_ERR_DEADLINE once its deadline has passed; 0 to run them. */
static int
skip_code(const fa_job *j)
{
	int c = atomic_load_explicit(&((fa_job *)j)->cut_code,
		memory_order_relaxed);

	if (c == 0 && j->deadline_us != 0 && fa_now_us() >= j->deadline_us) {
		c = FA_ERR_DEADLINE;
	}
	return c;
}

/* Run a formed batch of k items (no broker lock held). */
static void
run_batch(fa_broker *b, worker_state *ws, size_t k,
	const executor_slot *exec)
{
	const fa_job *first = ws->jobs[0];
	int op = first->op;
	const fa_backend *be = first->be;
	int fmt = first->sig_format;
	size_t i, m = 0;

	/* Keys from the cache; items whose key fails get that error. */
	for (i = 0; i < k; i ++) {
		job_item *it = &ws->jobs[i]->items[ws->idx[i]];
		const void *data;
		int err;

		ws->pins[i] = NULL;
		ws->cut[i] = skip_code(ws->jobs[i]);
		if (ws->cut[i] != 0) {
			it->err = ws->cut[i];
			continue;
		}
		err = fa_key_cache_acquire(&b->cache, &ws->w, be, op,
			it->digest, it->key, it->key_len, 1, &data,
			&ws->pins[i]);
		if (err != FA_OK) {
			it->err = err;
			continue;
		}
		if (op == FA_OP_SIGN) {
			fa_sign_item *s = &ws->sitems[m];

			memset(s, 0, sizeof *s);
			s->expanded_key = data;
			s->msg = it->msg;
			s->msg_len = it->msg_len;
			s->sig = it->sig_out;
			s->sig_len = it->sig_out_len;
		} else {
			fa_verify_item *v = &ws->vitems[m];

			memset(v, 0, sizeof *v);
			v->pp = data;
			v->sig = it->sig;
			v->sig_len = it->sig_len;
			v->msg = it->msg;
			v->msg_len = it->msg_len;
		}
		ws->map[m ++] = i;
	}

	if (exec->fn != NULL && m > 0) {
		void *items = op == FA_OP_SIGN ? (void *)ws->sitems
			: (void *)ws->vitems;
		int r = exec->fn(exec->ctx, op, be, fmt, items, m);

		if (r < 0) {
			for (i = 0; i < m; i ++) {
				if (op == FA_OP_SIGN) {
					ws->sitems[i].err = r;
				} else {
					ws->vitems[i].err = r;
				}
			}
		}
	} else {
		for (i = 0; i < m; i ++) {
			size_t e = ws->map[i];
			int c = skip_code(ws->jobs[e]);

			if (c != 0) {
				ws->cut[e] = c;
				if (op == FA_OP_SIGN) {
					ws->sitems[i].err = c;
				} else {
					ws->vitems[i].err = c;
				}
			} else if (op == FA_OP_SIGN) {
				fa_edge_sign_one(&ws->w, be, fmt,
					&ws->sitems[i]);
			} else {
				fa_edge_verify_one(&ws->w, be, fmt,
					&ws->vitems[i]);
			}
		}
	}

	for (i = 0; i < m; i ++) {
		job_item *it = &ws->jobs[ws->map[i]]->items[ws->idx[ws->map[i]]];

		if (op == FA_OP_SIGN) {
			it->err = ws->sitems[i].err;
			it->sig_out_len = it->err == FA_OK
				? ws->sitems[i].sig_len : 0;
			fa_edge_wipe(&ws->sitems[i], sizeof ws->sitems[i]);
		} else {
			it->err = ws->vitems[i].err;
		}
	}
	for (i = 0; i < k; i ++) {
		if (ws->pins[i] != NULL) {
			fa_key_cache_unpin(&b->cache, ws->pins[i]);
		}
	}
}

/* Count a finished batch; under the lock. */
static void
account_batch(fa_broker *b, worker_state *ws, size_t k, int64_t busy_us,
	fa_job **fl)
{
	fa_broker_backend_stats *st;
	size_t i, ran = 0;

	for (i = 0; i < k; i ++) {
		fa_job *j = ws->jobs[i];

		if (ws->cut[i] != 0) {
			/* Skipped in the batch: cancelled or expired. */
			if (ws->cut[i] == FA_ERR_DEADLINE) {
				b->items_expired ++;
			} else {
				b->items_cancelled ++;
			}
			if (j->cut_status == FA_OK) {
				j->cut_status = ws->cut[i];
			}
		} else {
			ran ++;
			b->items_completed ++;
			if (j->items[ws->idx[i]].err != FA_OK) {
				b->items_failed ++;
			}
		}
		j->finished ++;
		maybe_complete(b, j, fl);
	}
	b->in_flight -= k;
	b->batches ++;
	b->batch_hist[hist_bucket(k)] ++;
	st = backend_stats(b, ws->jobs[0]->be);
	if (st != NULL) {
		if (ws->jobs[0]->op == FA_OP_SIGN) {
			st->sign_items += ran;
		} else {
			st->verify_items += ran;
		}
		st->batches ++;
		st->busy_us += (uint64_t)busy_us;
	}
}

static void *
worker_main(void *arg)
{
	worker_state *ws = arg;
	fa_broker *b = ws->b;
	executor_slot exec;

	pthread_mutex_lock(&b->lock);
	for (;;) {
		fa_job *fl = NULL;
		size_t k;
		int64_t t0;

		while (!b->stop && b->qhead == NULL) {
			pthread_cond_wait(&b->work_cond, &b->lock);
		}
		if (b->qhead == NULL) {
			break;
		}
		k = form_batch(b, ws, &exec, &fl);
		pthread_mutex_unlock(&b->lock);
		finish_jobs(b, fl);
		fl = NULL;
		if (k > 0) {
			t0 = fa_now_us();
			run_batch(b, ws, k, &exec);
			t0 = fa_now_us() - t0;
			pthread_mutex_lock(&b->lock);
			account_batch(b, ws, k, t0, &fl);
			pthread_mutex_unlock(&b->lock);
			finish_jobs(b, fl);
		}
		pthread_mutex_lock(&b->lock);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

/* Deadline thread: cut overdue queued jobs, sleep until the next
   deadline (or a new one). */
static void *
reaper_main(void *arg)
{
	fa_broker *b = arg;

	pthread_mutex_lock(&b->lock);
	while (!b->stop) {
		fa_job *j, *next, *fl = NULL;
		int64_t now = fa_now_us(), earliest = INT64_MAX;

		for (j = b->qhead; j != NULL; j = next) {
			next = j->qnext;
			if (j->deadline_us == 0) {
				continue;
			}
			if (j->deadline_us <= now) {
				cut_job(b, j, FA_ERR_DEADLINE, &fl);
			} else if (j->deadline_us < earliest) {
				earliest = j->deadline_us;
			}
		}
		if (fl != NULL) {
			pthread_mutex_unlock(&b->lock);
			finish_jobs(b, fl);
			pthread_mutex_lock(&b->lock);
			continue;
		}
		b->reaper_wake_us = earliest;
		if (earliest == INT64_MAX) {
			pthread_cond_wait(&b->timer_cond, &b->lock);
		} else {
			fa_edge_cond_wait_until(&b->timer_cond, &b->lock,
				earliest);
		}
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

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
	fa_edge_worker_clear(&ws->w);
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
	return fa_edge_worker_init(&ws->w, NULL, 0);
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
		cut_job(b, j, FA_ERR_CANCELLED, &fl);
	}
	pthread_cond_broadcast(&b->work_cond);
	pthread_cond_broadcast(&b->timer_cond);
	pthread_mutex_unlock(&b->lock);
	finish_jobs(b, fl);

	for (i = 0; i < b->started; i ++) {
		pthread_join(b->threads[i], NULL);
	}
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
	free(b->threads);
	free(b->lat);
	pthread_cond_destroy(&b->work_cond);
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
	pthread_cond_init(&b->work_cond, NULL);
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
	b->lat = calloc(LATENCY_RING, sizeof *b->lat);
	b->threads = calloc(b->nthreads, sizeof *b->threads);
	b->ws = calloc(b->nthreads, sizeof *b->ws);
	if (b->lat == NULL || b->threads == NULL || b->ws == NULL
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
	for (i = 0; i < b->nthreads; i ++) {
		if (pthread_create(&b->threads[i], NULL, worker_main,
			&b->ws[i]) != 0)
		{
			return broker_fail(b, err, FA_ERR_INTERNAL);
		}
		b->started ++;
	}
	if (pthread_create(&b->reaper, NULL, reaper_main, b) != 0) {
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

static int
check_items(const fa_job_options *opt, const fa_broker_item *items,
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

/* Build a job (outside the lock): copies and key digests. */
static int
build_job(fa_broker *b, const fa_job_options *opt,
	const fa_broker_item *items, size_t n, fa_job **out)
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
		len = add_sat(len, items[i].key_len);
		len = add_sat(len, items[i].msg_len);
		if (opt->op == FA_OP_VERIFY) {
			len = add_sat(len, items[i].sig_len);
		} else {
			len = add_sat(len, sig_out_size(&items[i]));
		}
	}
	if (len > b->cfg.queue_max_bytes) {
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
	j->broker = b;
	j->op = opt->op;
	j->sig_format = opt->sig_format;
	j->be = opt->be != NULL ? opt->be : b->cfg.backend;
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

		it->key = copy_in(&pos, src->key, src->key_len);
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
		   key is the same, the common case of a batch. */
		if (i > 0 && src->key_len == items[i - 1].key_len
			&& (src->key == items[i - 1].key
			|| memcmp(src->key, items[i - 1].key, src->key_len) == 0))
		{
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
	err = check_items(opt, items, n);
	if (err != FA_OK) {
		return err;
	}

	/* Cheap early refusal under overload, before copying anything. */
	pthread_mutex_lock(&b->lock);
	if (b->queue_items + n > b->cfg.queue_capacity) {
		b->rejected_busy ++;
		pthread_mutex_unlock(&b->lock);
		return FA_ERR_BUSY;
	}
	pthread_mutex_unlock(&b->lock);

	err = build_job(b, opt, items, n, &j);
	if (err != FA_OK) {
		return err;
	}

	pthread_mutex_lock(&b->lock);
	if (b->stop) {
		err = FA_ERR_INTERNAL;
	} else if (b->queue_items + n > b->cfg.queue_capacity
		|| b->bytes + j->alloc_len > b->cfg.queue_max_bytes)
	{
		b->rejected_busy ++;
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
	queue_append(b, j);
	b->queue_items += n;
	b->bytes += j->alloc_len;
	b->jobs_submitted ++;
	b->items_submitted += n;
	if (n > 1) {
		pthread_cond_broadcast(&b->work_cond);
	} else {
		pthread_cond_signal(&b->work_cond);
	}
	pthread_mutex_unlock(&b->lock);
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

int
fa_job_cancel(fa_job *job)
{
	fa_broker *b = job->broker;
	fa_job *fl = NULL;
	int cancelled = 0;

	pthread_mutex_lock(&b->lock);
	if (!job->complete && atomic_load(&job->cut_code) == 0) {
		cut_job(b, job, FA_ERR_CANCELLED, &fl);
		cancelled = 1;
	}
	pthread_mutex_unlock(&b->lock);
	finish_jobs(b, fl);
	return cancelled;
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

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted s[0..n-1], p in [0, 100]. */
static uint64_t
percentile(const uint32_t *s, size_t n, unsigned p)
{
	size_t rank;

	if (n == 0) {
		return 0;
	}
	rank = (n * p + 99) / 100;
	if (rank < 1) {
		rank = 1;
	}
	return s[rank - 1];
}

void
fa_broker_get_metrics(fa_broker *b, fa_broker_metrics *m)
{
	uint32_t *s;
	size_t n;

	memset(m, 0, sizeof *m);
	s = malloc(LATENCY_RING * sizeof *s);
	pthread_mutex_lock(&b->lock);
	m->uptime_us = (uint64_t)(fa_now_us() - b->start_us);
	m->threads = b->nthreads;
	m->queue_depth = b->queue_items;
	m->queue_bytes = b->bytes;
	m->in_flight = b->in_flight;
	m->queue_capacity = b->cfg.queue_capacity;
	m->queue_max_bytes = b->cfg.queue_max_bytes;
	m->jobs_submitted = b->jobs_submitted;
	m->items_submitted = b->items_submitted;
	m->jobs_completed = b->jobs_completed;
	m->items_completed = b->items_completed;
	m->items_failed = b->items_failed;
	m->items_cancelled = b->items_cancelled;
	m->items_expired = b->items_expired;
	m->rejected_busy = b->rejected_busy;
	m->batches = b->batches;
	memcpy(m->batch_hist, b->batch_hist, sizeof m->batch_hist);
	m->backend_count = b->backend_count;
	memcpy(m->backend, b->backend, sizeof m->backend);
	n = b->lat_count;
	if (s != NULL) {
		memcpy(s, b->lat, n * sizeof *s);
	}
	pthread_mutex_unlock(&b->lock);

	if (s != NULL) {
		qsort(s, n, sizeof *s, cmp_u32);
		m->latency_samples = n;
		m->latency_p50_us = percentile(s, n, 50);
		m->latency_p90_us = percentile(s, n, 90);
		m->latency_p99_us = percentile(s, n, 99);
		m->latency_max_us = n > 0 ? s[n - 1] : 0;
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
