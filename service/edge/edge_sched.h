/*
 * edge_sched.h -- the broker's scheduler (edge_sched.c): the job queue,
 * batch formation per (operation, backend, format), batches run on the
 * pool's workers or handed to a backend's executor, deadlines (the reaper
 * thread), cuts and completion. It moves jobs through their life cycle
 * (edge_job.h) and reports events to the counters (edge_metrics.h); the
 * broker (edge_broker.c) calls it. Not installed.
 */
#ifndef FA_EDGE_SCHED_H
#define FA_EDGE_SCHED_H

#include "edge_internal.h"

/* Under the broker lock: put a new job at the end of the queue (its
   items counted as queued). */
void fa_edge_sched_enqueue(fa_broker *b, fa_job *j);
/* Under the broker lock: give the unstarted items of j the error `code`,
   take j out of the queue; a job this completes goes on the finish list
   *fl. */
void fa_edge_cut_job(fa_broker *b, fa_job *j, int code, fa_job **fl);
/* With no broker lock held: settle the jobs of a finish list (callback
   or completion queue, see edge_job.h). */
void fa_edge_finish_jobs(fa_broker *b, fa_job *fl);
/* The broker as its pool's work source: form one batch from the queue
   and run it on pool worker idx (worker state w); 0 if the queue was
   empty. Asks the pool for one more worker while work remains. */
int fa_edge_broker_run(void *ctx, unsigned idx, fa_edge_worker *w);
/* Deadline thread body (arg: the broker). */
void *fa_edge_broker_reaper_main(void *arg);

#endif
