/*
 * edge_job.h -- the broker's jobs and their life cycle (edge_job.c). Not
 * installed.
 *
 * This module owns a job's states and every transition between them; the
 * scheduler (edge_sched.c) and the broker (edge_broker.c) move jobs
 * through these functions, and the counters (edge_metrics.c) do not see
 * jobs at all. It depends on nothing of the broker but the opaque
 * fa_broker pointer a job keeps for fa_job_cancel.
 *
 * A job is one allocation: the fa_job header, n job_item records, then
 * the copied payload (keys, messages, signatures) and, for signing, one
 * FA_SIG_MAXSIZE(logn) output buffer per item. It is reference counted:
 * the broker holds one reference until the job is done (then the
 * completion queue may hold it), the submitter one per handle.
 *
 * Life cycle (each state implies the ones before it):
 *
 *   queued     fa_edge_job_new; items are taken one by one into batches
 *              (fa_edge_job_take) or cut (fa_edge_job_cut: cancellation,
 *              deadline) until none is unstarted
 *   complete   fa_edge_job_try_complete, once every item ran
 *              (fa_edge_job_item_done) or was cut: results final, status
 *              set (FA_OK, or how items were cut)
 *   done       fa_edge_job_settle: results readable (fa_job_is_done),
 *              then the callback runs
 *   settled    the callback has returned: waiters wake (fa_job_wait)
 *
 * Up to "complete" the transitions run under the owner's lock (the
 * broker lock); settling runs with no lock held.
 */
#ifndef FA_EDGE_JOB_H
#define FA_EDGE_JOB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "edge_internal.h"

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
	atomic_int done;          /* 1 once results are final and readable */
	atomic_int settled;       /* 1 once the callback has returned */
	atomic_int cut_code;      /* 0, or why remaining items are skipped */
	fa_broker *broker;        /* owner (fa_job_cancel) */
	int op;
	int sig_format;
	const fa_backend *be;
	size_t n;
	size_t alloc_len;         /* whole allocation, for the wipe */
	/* Under the owner's lock. */
	size_t next;              /* first unstarted item */
	size_t finished;          /* items run or cut */
	int cut_status;           /* FA_OK, or how items were cut */
	int complete;             /* every item finished or cut */
	/* Links kept for the scheduler (under the owner's lock). */
	int in_queue;
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

/* FA_ERR_BADARG if an item has a NULL pointer with a non-zero length. */
int fa_edge_check_items(const fa_job_options *opt,
	const fa_broker_item *items, size_t n);

/* A new queued job (outside any lock): copies and key digests, one
   reference. be: the backend when opt names none. FA_OK, or
   FA_ERR_BADARG (larger than max_bytes: it could never fit),
   FA_ERR_INTERNAL. */
int fa_edge_job_new(fa_broker *owner, const fa_backend *be,
	size_t max_bytes, const fa_job_options *opt,
	const fa_broker_item *items, size_t n, fa_job **out);

/* 1 if the job has unstarted items. */
int fa_edge_job_has_unstarted(const fa_job *j);
/* Take the next unstarted item into a batch; returns its index (the
   job must have one). */
size_t fa_edge_job_take(fa_job *j);
/* Why the taken items of j must be skipped at time now: its cut code,
   or FA_ERR_DEADLINE once its deadline has passed; 0 to run them.
   Reads only atomics and constants: no lock needed. */
int fa_edge_job_skip_code(const fa_job *j, int64_t now);
/* Give the unstarted items the error `code` (FA_ERR_CANCELLED,
   FA_ERR_DEADLINE) and mark the job cut (taken items are skipped by
   fa_edge_job_skip_code); returns the number of items cut. */
size_t fa_edge_job_cut(fa_job *j, int code);
/* A taken item is finished: ran (cut 0) or skipped with code `cut`. */
void fa_edge_job_item_done(fa_job *j, int cut);
/* If every item is finished: mark the job complete at time now and
   return 1 (once); else 0. */
int fa_edge_job_try_complete(fa_job *j, int64_t now);
/* Make a complete job done: results readable, the callback run, waiters
   woken. No lock held. Returns 1 if the job goes to the completion
   queue (notify; the owner's reference moves there), 0 if the owner's
   reference is to be released. */
int fa_edge_job_settle(fa_job *j);

#endif
