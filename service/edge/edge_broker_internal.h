/*
 * edge_broker_internal.h -- the broker's objects and the functions its
 * source files share (edge_broker.c: life cycle, submission, keys and the
 * completion queue; edge_job.c: job lifetime; edge_sched.c: queue,
 * batching and the batches run on the pool's workers; edge_metrics.c:
 * counters). Not installed.
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
#ifndef FA_EDGE_BROKER_INTERNAL_H
#define FA_EDGE_BROKER_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

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

/* One pool worker's batch arrays (max_batch entries each); w: that
   worker's scratch and PRNG, set by each call. */
typedef struct {
	fa_broker *b;
	fa_edge_worker *w;
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
	pthread_cond_t timer_cond;    /* reaper: new deadline, or stop */
	fa_broker_config cfg;
	int stop;

	fa_job *qhead, *qtail;
	size_t queue_items;
	size_t bytes;
	size_t in_flight;
	int64_t reaper_wake_us;       /* deadline the reaper waits for */

	unsigned nthreads;
	fa_pool *pool;                /* the workers (edge_pool.c) */
	int attached;
	int reaper_started;
	pthread_t reaper;
	worker_state *ws;             /* one per pool worker */

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

/* ---- edge_job.c */

/* FA_ERR_BADARG if an item has a NULL pointer with a non-zero length. */
int fa_edge_check_items(const fa_job_options *opt,
	const fa_broker_item *items, size_t n);

/* Build a job (outside the lock): copies and key digests. FA_OK, or
   FA_ERR_BADARG (a job that could never fit), FA_ERR_INTERNAL. */
int fa_edge_build_job(fa_broker *b, const fa_job_options *opt,
	const fa_broker_item *items, size_t n, fa_job **out);

/* ---- edge_sched.c (under the broker lock unless said otherwise) */

void fa_edge_queue_remove(fa_broker *b, fa_job *j);
void fa_edge_queue_append(fa_broker *b, fa_job *j);
/* If every item of j is finished, mark it complete and push it on the
   finish list *fl (completed after the lock is released). */
void fa_edge_maybe_complete(fa_broker *b, fa_job *j, fa_job **fl);
/* Give the unstarted items of j the error `code`, take j out of the
   queue. */
void fa_edge_cut_job(fa_broker *b, fa_job *j, int code, fa_job **fl);
/* Complete the jobs of a finish list; no broker lock held. */
void fa_edge_finish_jobs(fa_broker *b, fa_job *fl);
/* The broker as its pool's work source: form one batch from the queue
   and run it on pool worker idx (worker state w); 0 if the queue was
   empty. Asks the pool for one more worker while work remains. */
int fa_edge_broker_run(void *ctx, unsigned idx, fa_edge_worker *w);
/* Deadline thread body (arg: the broker). */
void *fa_edge_broker_reaper_main(void *arg);

/* ---- edge_metrics.c (under the broker lock) */

void fa_edge_record_latency(fa_broker *b, int64_t us);
fa_broker_backend_stats *fa_edge_backend_stats(fa_broker *b,
	const fa_backend *be);
unsigned fa_edge_hist_bucket(size_t k);
/* Count a finished batch of k items of ws (busy_us: its run time). */
void fa_edge_account_batch(fa_broker *b, worker_state *ws, size_t k,
	int64_t busy_us, fa_job **fl);

#endif
