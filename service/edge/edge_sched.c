/*
 * edge_sched.c -- the broker's scheduler (edge_sched.h): the job queue,
 * batch formation per (operation, backend, format), running batches on
 * the worker threads (or handing them to a backend's executor), deadlines
 * (the reaper thread), cuts, completion and fa_job_cancel. Job state
 * changes go through edge_job.h, counting through edge_metrics.h.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edge_broker_internal.h"
#include "edge_sched.h"

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

void
fa_edge_sched_enqueue(fa_broker *b, fa_job *j)
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
	b->queue_items += j->n;
	b->bytes += j->alloc_len;
}

/* If j has just completed, count it and push it on the finish list *fl
   (settled after the lock is released). */
static void
maybe_complete(fa_broker *b, fa_job *j, fa_job **fl)
{
	if (!fa_edge_job_try_complete(j, fa_now_us())) {
		return;
	}
	b->bytes -= j->alloc_len;
	fa_edge_metrics_job_done(&b->m, j->done_us - j->submit_us);
	j->fnext = *fl;
	*fl = j;
}

void
fa_edge_cut_job(fa_broker *b, fa_job *j, int code, fa_job **fl)
{
	size_t count = fa_edge_job_cut(j, code);

	if (count == 0) {
		return;
	}
	b->queue_items -= count;
	fa_edge_metrics_cut(&b->m, code, count);
	queue_remove(b, j);
	maybe_complete(b, j, fl);
}

/* Complete the jobs of a finish list; no broker lock held. */
void
fa_edge_finish_jobs(fa_broker *b, fa_job *fl)
{
	while (fl != NULL) {
		fa_job *j = fl;

		fl = j->fnext;
		j->fnext = NULL;
		if (fa_edge_job_settle(j)) {
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
			fa_edge_cut_job(b, j, FA_ERR_DEADLINE, fl);
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
		while (fa_edge_job_has_unstarted(j) && k < take) {
			ws->jobs[k] = j;
			ws->idx[k] = fa_edge_job_take(j);
			k ++;
		}
		if (!fa_edge_job_has_unstarted(j)) {
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
		ws->cut[i] = fa_edge_job_skip_code(ws->jobs[i], fa_now_us());
		if (ws->cut[i] != 0) {
			it->err = ws->cut[i];
			continue;
		}
		err = fa_key_cache_acquire(&b->cache, ws->w, be, op,
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
			int c = fa_edge_job_skip_code(ws->jobs[e], fa_now_us());

			if (c != 0) {
				ws->cut[e] = c;
				if (op == FA_OP_SIGN) {
					ws->sitems[i].err = c;
				} else {
					ws->vitems[i].err = c;
				}
			} else if (op == FA_OP_SIGN) {
				fa_edge_sign_one(ws->w, be, fmt,
					&ws->sitems[i]);
			} else {
				fa_edge_verify_one(ws->w, be, fmt,
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

/* Account a finished batch of k items of ws (busy_us: its run time):
   its items finished, its jobs possibly complete, the counters. Under
   the lock. */
static void
end_batch(fa_broker *b, worker_state *ws, size_t k, int64_t busy_us,
	fa_job **fl)
{
	size_t i, ran = 0, failed = 0;

	for (i = 0; i < k; i ++) {
		fa_job *j = ws->jobs[i];

		if (ws->cut[i] != 0) {
			/* Skipped in the batch: cancelled or expired. */
			fa_edge_metrics_cut(&b->m, ws->cut[i], 1);
		} else {
			ran ++;
			failed += j->items[ws->idx[i]].err != FA_OK;
		}
		fa_edge_job_item_done(j, ws->cut[i]);
		maybe_complete(b, j, fl);
	}
	b->in_flight -= k;
	fa_edge_metrics_batch(&b->m, ws->jobs[0]->be, ws->jobs[0]->op, k, ran,
		failed, busy_us);
}

int
fa_edge_broker_run(void *ctx, unsigned idx, fa_edge_worker *w)
{
	fa_broker *b = ctx;
	worker_state *ws = &b->ws[idx];
	executor_slot exec;
	fa_job *fl = NULL;
	size_t k;
	int more;
	int64_t t0;

	ws->w = w;
	pthread_mutex_lock(&b->lock);
	if (b->qhead == NULL) {
		pthread_mutex_unlock(&b->lock);
		return 0;
	}
	k = form_batch(b, ws, &exec, &fl);
	more = b->qhead != NULL;
	pthread_mutex_unlock(&b->lock);
	if (more) {
		fa_pool_wake(b->pool, 1);
	}
	fa_edge_finish_jobs(b, fl);
	fl = NULL;
	if (k > 0) {
		t0 = fa_now_us();
		run_batch(b, ws, k, &exec);
		t0 = fa_now_us() - t0;
		pthread_mutex_lock(&b->lock);
		end_batch(b, ws, k, t0, &fl);
		pthread_mutex_unlock(&b->lock);
		fa_edge_finish_jobs(b, fl);
	}
	return 1;
}

/* Deadline thread: cut overdue queued jobs, sleep until the next
   deadline (or a new one). */
void *
fa_edge_broker_reaper_main(void *arg)
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
				fa_edge_cut_job(b, j, FA_ERR_DEADLINE, &fl);
			} else if (j->deadline_us < earliest) {
				earliest = j->deadline_us;
			}
		}
		if (fl != NULL) {
			pthread_mutex_unlock(&b->lock);
			fa_edge_finish_jobs(b, fl);
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

int
fa_job_cancel(fa_job *job)
{
	fa_broker *b = job->broker;
	fa_job *fl = NULL;
	int cancelled = 0;

	pthread_mutex_lock(&b->lock);
	if (!job->complete && atomic_load(&job->cut_code) == 0) {
		fa_edge_cut_job(b, job, FA_ERR_CANCELLED, &fl);
		cancelled = 1;
	}
	pthread_mutex_unlock(&b->lock);
	fa_edge_finish_jobs(b, fl);
	return cancelled;
}
