/*
 * edge_metrics.c -- the broker's counters (edge_metrics.h): latency ring,
 * batch-size histogram, per-backend statistics, and their copy into the
 * fa_broker_get_metrics snapshot.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "edge_metrics.h"

int
fa_edge_metrics_init(fa_edge_metrics *m)
{
	memset(m, 0, sizeof *m);
	m->lat = calloc(FA_EDGE_LATENCY_RING, sizeof *m->lat);
	return m->lat != NULL ? FA_OK : FA_ERR_INTERNAL;
}

void
fa_edge_metrics_clear(fa_edge_metrics *m)
{
	free(m->lat);
	m->lat = NULL;
}

void
fa_edge_metrics_job_done(fa_edge_metrics *m, int64_t us)
{
	m->jobs_completed ++;
	if (us < 0) {
		us = 0;
	}
	if (us > (int64_t)UINT32_MAX) {
		us = UINT32_MAX;
	}
	m->lat[m->lat_pos] = (uint32_t)us;
	m->lat_pos = (m->lat_pos + 1) % FA_EDGE_LATENCY_RING;
	if (m->lat_count < FA_EDGE_LATENCY_RING) {
		m->lat_count ++;
	}
}

void
fa_edge_metrics_cut(fa_edge_metrics *m, int code, size_t count)
{
	if (code == FA_ERR_DEADLINE) {
		m->items_expired += count;
	} else {
		m->items_cancelled += count;
	}
}

static fa_broker_backend_stats *
backend_stats(fa_edge_metrics *m, const fa_backend *be)
{
	const char *name = fa_backend_name(be);
	size_t i;

	for (i = 0; i < m->backend_count; i ++) {
		if (m->backend[i].name == name) {
			return &m->backend[i];
		}
	}
	if (m->backend_count == FA_BROKER_MAX_BACKENDS) {
		return NULL;
	}
	m->backend[m->backend_count].name = name;
	return &m->backend[m->backend_count ++];
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

void
fa_edge_metrics_batch(fa_edge_metrics *m, const fa_backend *be, int op,
	size_t k, size_t ran, size_t failed, int64_t busy_us)
{
	fa_broker_backend_stats *st;

	m->items_completed += ran;
	m->items_failed += failed;
	m->batches ++;
	m->batch_hist[fa_edge_hist_bucket(k)] ++;
	st = backend_stats(m, be);
	if (st != NULL) {
		if (op == FA_OP_SIGN) {
			st->sign_items += ran;
		} else {
			st->verify_items += ran;
		}
		st->batches ++;
		st->busy_us += (uint64_t)busy_us;
	}
}

size_t
fa_edge_metrics_copy(const fa_edge_metrics *m, fa_broker_metrics *out,
	uint32_t *lat)
{
	out->jobs_submitted = m->jobs_submitted;
	out->items_submitted = m->items_submitted;
	out->jobs_completed = m->jobs_completed;
	out->items_completed = m->items_completed;
	out->items_failed = m->items_failed;
	out->items_cancelled = m->items_cancelled;
	out->items_expired = m->items_expired;
	out->rejected_busy = m->rejected_busy;
	out->batches = m->batches;
	memcpy(out->batch_hist, m->batch_hist, sizeof out->batch_hist);
	out->backend_count = m->backend_count;
	memcpy(out->backend, m->backend, sizeof out->backend);
	if (lat != NULL) {
		memcpy(lat, m->lat, m->lat_count * sizeof *lat);
	}
	return m->lat_count;
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
fa_edge_metrics_latency(fa_broker_metrics *out, uint32_t *s, size_t n)
{
	qsort(s, n, sizeof *s, cmp_u32);
	out->latency_samples = n;
	out->latency_p50_us = percentile(s, n, 50);
	out->latency_p90_us = percentile(s, n, 90);
	out->latency_p99_us = percentile(s, n, 99);
	out->latency_max_us = n > 0 ? s[n - 1] : 0;
}
