/*
 * edge_metrics.h -- the broker's counters (edge_metrics.c): totals, the
 * batch-size histogram, per-backend statistics and the latency ring.
 * Not installed.
 *
 * The counters know nothing of jobs or of the queue: the scheduler
 * reports events to them (a job completed, items cut, a batch ran), and
 * the broker copies them into an fa_broker_metrics snapshot. The caller
 * serializes every call (the broker lock).
 */
#ifndef FA_EDGE_METRICS_H
#define FA_EDGE_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "falcon_accel_edge.h"

/* Latency samples kept (the last completed jobs). */
#define FA_EDGE_LATENCY_RING 8192u

typedef struct {
	uint64_t jobs_submitted, items_submitted;
	uint64_t jobs_completed, items_completed, items_failed;
	uint64_t items_cancelled, items_expired, rejected_busy;
	uint64_t batches;
	uint64_t batch_hist[FA_BROKER_HIST_BUCKETS];
	uint32_t *lat;                /* FA_EDGE_LATENCY_RING samples */
	size_t lat_pos, lat_count;
	size_t backend_count;
	fa_broker_backend_stats backend[FA_BROKER_MAX_BACKENDS];
} fa_edge_metrics;

/* FA_OK or FA_ERR_INTERNAL (memory). */
int fa_edge_metrics_init(fa_edge_metrics *m);
void fa_edge_metrics_clear(fa_edge_metrics *m);

/* A job completed after latency_us. */
void fa_edge_metrics_job_done(fa_edge_metrics *m, int64_t latency_us);
/* count items were cut with `code` (FA_ERR_DEADLINE: expired, else
   cancelled). */
void fa_edge_metrics_cut(fa_edge_metrics *m, int code, size_t count);
/* A batch of k items of operation op ran on backend be in busy_us:
   `ran` items ran, `failed` of them with a result other than FA_OK (the
   others were skipped and counted by fa_edge_metrics_cut). */
void fa_edge_metrics_batch(fa_edge_metrics *m, const fa_backend *be,
	int op, size_t k, size_t ran, size_t failed, int64_t busy_us);
/* Bucket of a batch of k items in batch_hist. */
unsigned fa_edge_hist_bucket(size_t k);

/* Copy the counters into out (the queue and cache fields are the
   broker's) and the latency samples into lat (FA_EDGE_LATENCY_RING
   entries; may be NULL); returns the number of samples. */
size_t fa_edge_metrics_copy(const fa_edge_metrics *m, fa_broker_metrics *out,
	uint32_t *lat);
/* Fill out's latency fields from n samples (sorted here). No lock
   needed. */
void fa_edge_metrics_latency(fa_broker_metrics *out, uint32_t *lat,
	size_t n);

#endif
