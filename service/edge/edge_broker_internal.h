/*
 * edge_broker_internal.h -- the broker's state (struct fa_broker), shared
 * by edge_broker.c (life cycle, submission, keys, the completion queue,
 * the metrics snapshot) and edge_sched.c (queue, batching, the batches
 * run on the pool's workers, deadlines, completion). Not installed.
 *
 * Modules and their dependencies (no cycle; service/tests/
 * check_edge_includes.py checks the #include graph of service/edge):
 *
 *   edge_job      jobs and their life cycle (edge_job.h): owns the job
 *                 states and every transition
 *   edge_metrics  the counters (edge_metrics.h): knows no job, no queue
 *   this header   the broker's state: jobs, counters, cache, pool
 *   edge_sched    the scheduler (edge_sched.h): moves jobs through their
 *                 life cycle, reports events to the counters
 *   edge_broker   the public broker API, on the scheduler
 *
 * Structure:
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
 *    sets the job's cut code, which workers check before each item of an
 *    already formed batch (and the deadline too), so items that wait in a
 *    batch are skipped as well. Items already running are never
 *    interrupted.
 *  - A job whose items are all finished or cut is complete, then settled
 *    (edge_job.h): its callback runs or it is pushed to the completion
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
#include "edge_job.h"
#include "edge_metrics.h"

#define DEFAULT_QUEUE_CAPACITY  4096u
#define DEFAULT_QUEUE_MAX_BYTES ((size_t)64 << 20)
#define DEFAULT_MAX_BATCH       64u
#define DEFAULT_CACHE_BYTES     ((size_t)32 << 20)
/* Jobs looked at past the head when filling a batch. */
#define BATCH_SCAN_JOBS         64u
#define MAX_EXECUTORS           8u

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
	fa_edge_metrics m;
};

#endif
