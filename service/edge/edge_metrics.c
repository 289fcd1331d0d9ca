/*
 * edge_metrics.c -- the broker's counters: latency ring, batch-size
 * histogram, per-backend statistics, and the fa_broker_get_metrics
 * snapshot.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "edge_broker_internal.h"

void
fa_edge_record_latency(fa_broker *b, int64_t us)
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

fa_broker_backend_stats *
fa_edge_backend_stats(fa_broker *b, const fa_backend *be)
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

unsigned
fa_edge_hist_bucket(size_t k)
{
	unsigned bucket = 0;
	size_t top = 1;

	while (top < k && bucket < FA_BROKER_HIST_BUCKETS - 1) {
		top <<= 1;
		bucket ++;
	}
	return bucket;
}

/* Count a finished batch; under the lock. */
void
fa_edge_account_batch(fa_broker *b, worker_state *ws, size_t k,
	int64_t busy_us, fa_job **fl)
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
		fa_edge_maybe_complete(b, j, fl);
	}
	b->in_flight -= k;
	b->batches ++;
	b->batch_hist[fa_edge_hist_bucket(k)] ++;
	st = fa_edge_backend_stats(b, ws->jobs[0]->be);
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
