/*
 * test_edge_broker.c -- the request broker.
 *
 * Results are checked against the single-call API (fa_verify_alloc on
 * every signature; verify results equal to fa_verify_alloc's). Queue
 * states are made deterministic with a batch executor that blocks on a
 * gate: while closed, every worker is stuck in it and jobs stay queued,
 * which lets the tests fill the queue (FA_ERR_BUSY), pass deadlines
 * (FA_ERR_DEADLINE) and cancel (FA_ERR_CANCELLED).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "falcon_accel_edge.h"
#include "test_util.h"

#ifndef LOGN
#define LOGN 9   /* -DLOGN=... to try other degrees */
#endif
#define NKEYS 3
#define THREADS 2

static uint8_t sks[NKEYS][FA_PRIVKEY_SIZE(LOGN)];
static uint8_t pks[NKEYS][FA_PUBKEY_SIZE(LOGN)];

static void
make_keys(void)
{
	int i;

	for (i = 0; i < NKEYS; i ++) {
		uint8_t seed[4] = { 'b', 'k', (uint8_t)i, 0 };

		CHECK(fa_keygen_alloc(NULL, LOGN, seed, sizeof seed, sks[i],
			sizeof sks[i], pks[i], sizeof pks[i]) == FA_OK,
			"keygen %d", i);
	}
}

static void
set_item(fa_broker_item *it, int op, int key, const void *msg,
	size_t msg_len, const void *sig, size_t sig_len)
{
	memset(it, 0, sizeof *it);
	if (op == FA_OP_SIGN) {
		it->key = sks[key];
		it->key_len = sizeof sks[key];
	} else {
		it->key = pks[key];
		it->key_len = sizeof pks[key];
		it->sig = sig;
		it->sig_len = sig_len;
	}
	it->msg = msg;
	it->msg_len = msg_len;
}

static void
set_opt(fa_job_options *o, int op, int fmt)
{
	memset(o, 0, sizeof *o);
	o->op = op;
	o->sig_format = fmt;
}

/* ---- the gate executor ---- */

typedef struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int open;
	int inside;           /* workers blocked in the executor */
	unsigned long calls;
	size_t max_n;
} gate_t;

static gate_t gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
	1, 0, 0, 0 };

static int
gate_executor(void *ctx, int op, const fa_backend *be, int fmt,
	void *items, size_t n)
{
	gate_t *g = ctx;
	int r;

	pthread_mutex_lock(&g->mu);
	g->calls ++;
	if (n > g->max_n) {
		g->max_n = n;
	}
	g->inside ++;
	pthread_cond_broadcast(&g->cv);
	while (!g->open) {
		pthread_cond_wait(&g->cv, &g->mu);
	}
	g->inside --;
	pthread_mutex_unlock(&g->mu);
	/* The executor runs the batch with the batch API (the broker gives
	   expanded keys and prepared public keys). */
	if (op == FA_OP_SIGN) {
		r = fa_sign_batch(NULL, be, fmt, items, n);
	} else {
		r = fa_verify_batch(NULL, be, fmt, items, n);
	}
	return r < 0 ? r : FA_OK;
}

static void
gate_set(int open)
{
	pthread_mutex_lock(&gate.mu);
	gate.open = open;
	pthread_cond_broadcast(&gate.cv);
	pthread_mutex_unlock(&gate.mu);
}

/* Wait until `k` workers are blocked in the closed gate. */
static int
gate_wait_inside(int k)
{
	int64_t until = fa_now_us() + 5000000;
	int ok;

	pthread_mutex_lock(&gate.mu);
	while (gate.inside < k && fa_now_us() < until) {
		pthread_mutex_unlock(&gate.mu);
		usleep(1000);
		pthread_mutex_lock(&gate.mu);
	}
	ok = gate.inside >= k;
	pthread_mutex_unlock(&gate.mu);
	return ok;
}

/* ---- tests ---- */

static void
test_sign_and_verify(fa_broker *b)
{
	enum { N = 24 };
	fa_broker_item it[N];
	uint8_t msgs[N][N];
	fa_job_options o;
	fa_job *sj, *vj;
	int fmt, i;

	for (fmt = FA_SIG_COMPRESSED; fmt <= FA_SIG_CT; fmt ++) {
		uint8_t sigs[N][FA_SIG_MAXSIZE(LOGN)];
		size_t lens[N];
		int st[N];

		for (i = 0; i < N; i ++) {
			memset(msgs[i], 'a' + i, sizeof msgs[i]);
			set_item(&it[i], FA_OP_SIGN, i % NKEYS, msgs[i],
				(size_t)i, NULL, 0);
		}
		set_opt(&o, FA_OP_SIGN, fmt);
		o.tag = 77;
		CHECK(fa_broker_submit(b, &o, it, N, &sj) == FA_OK, "submit");
		/* The caller's buffers may change after submission. */
		memset(msgs[0], 'z', sizeof msgs[0]);
		memset(msgs[0], 'a', sizeof msgs[0]);
		CHECK(fa_job_wait(sj, -1) == 1 && fa_job_is_done(sj), "wait");
		CHECK(fa_job_status(sj) == FA_OK, "sign job status %d",
			fa_job_status(sj));
		CHECK(fa_job_count(sj) == N && fa_job_op(sj) == FA_OP_SIGN
			&& fa_job_tag(sj) == 77, "job accessors");
		CHECK(fa_job_latency_us(sj) >= 0, "latency");
		for (i = 0; i < N; i ++) {
			const uint8_t *sig;
			size_t len;
			int r = fa_job_signature(sj, (size_t)i, &sig, &len);

			CHECK(r == FA_OK, "signature %d: %d", i, r);
			if (r != FA_OK) {
				lens[i] = 0;
				continue;
			}
			memcpy(sigs[i], sig, len);
			lens[i] = len;
			if (fmt == FA_SIG_PADDED) {
				CHECK(len == FA_SIG_PADDED_SIZE(LOGN), "padded len");
			} else if (fmt == FA_SIG_CT) {
				CHECK(len == FA_SIG_CT_SIZE(LOGN), "ct len");
			}
			CHECK(fa_verify_alloc(NULL, sig, len, fmt,
				pks[i % NKEYS], sizeof pks[0], msgs[i],
				(size_t)i) == FA_OK,
				"broker signature %d does not verify", i);
		}
		CHECK(fa_job_signature(sj, N, NULL, NULL) == FA_ERR_BADARG,
			"signature out of range");
		fa_job_release(sj);

		/* Verify job: good items, and damaged ones; results as the
		   single call. */
		for (i = 0; i < N; i ++) {
			int key = i % NKEYS;

			if (i % 4 == 1) {
				key = (key + 1) % NKEYS;   /* wrong key */
			}
			set_item(&it[i], FA_OP_VERIFY, key, msgs[i], (size_t)i,
				sigs[i], i % 4 == 2 ? lens[i] - 1 : lens[i]);
		}
		set_opt(&o, FA_OP_VERIFY, fmt == FA_SIG_CT ? 0 : fmt);
		CHECK(fa_broker_submit(b, &o, it, N, &vj) == FA_OK, "submit v");
		CHECK(fa_job_wait(vj, 10000000) == 1, "verify job wait");
		CHECK(fa_job_status(vj) == FA_OK, "verify job status");
		CHECK(fa_job_item_statuses(vj, st, N + 5) == N, "statuses");
		for (i = 0; i < N; i ++) {
			int ref = fa_verify_alloc(NULL, it[i].sig, it[i].sig_len,
				o.sig_format, it[i].key, it[i].key_len,
				it[i].msg, it[i].msg_len);

			CHECK(st[i] == ref && fa_job_item_status(vj, (size_t)i)
				== ref, "verify item %d: %d vs %d", i, st[i], ref);
			CHECK((st[i] == FA_OK) == (i % 4 == 0 || i % 4 == 3),
				"verify item %d: %d", i, st[i]);
		}
		CHECK(fa_job_signature(vj, 0, NULL, NULL) == FA_ERR_BADARG,
			"signature of a verify job");
		fa_job_release(vj);
	}
}

/* The packed form gives the same results as the structure form. */
static void
test_packed(fa_broker *b)
{
	uint8_t sig[FA_SIG_MAXSIZE(LOGN)];
	size_t sig_len = sizeof sig;
	uint8_t data[2 * (sizeof pks[0] + 3 + FA_SIG_MAXSIZE(LOGN))];
	uint8_t sdata[sizeof sks[0] + 2];
	size_t lens[6], slens[2], pos = 0;
	fa_job_options o;
	fa_job *j;
	const uint8_t *s;
	size_t sl;
	int i;

	CHECK(fa_sign_alloc(NULL, "p", 1, sig, &sig_len, FA_SIG_CT, sks[1],
		sizeof sks[1], "abc", 3) == FA_OK, "sign");
	for (i = 0; i < 2; i ++) {
		memcpy(data + pos, pks[1], sizeof pks[1]);
		pos += sizeof pks[1];
		memcpy(data + pos, i == 0 ? "abc" : "abd", 3);
		pos += 3;
		memcpy(data + pos, sig, sig_len);
		pos += sig_len;
		lens[3 * i] = sizeof pks[1];
		lens[3 * i + 1] = 3;
		lens[3 * i + 2] = sig_len;
	}
	set_opt(&o, FA_OP_VERIFY, 0);
	CHECK(fa_broker_submit_packed(b, &o, data, pos, lens, 2, &j) == FA_OK,
		"packed verify");
	fa_job_wait(j, -1);
	CHECK(fa_job_item_status(j, 0) == FA_OK
		&& fa_job_item_status(j, 1) == FA_ERR_BADSIG, "packed results");
	fa_job_release(j);
	CHECK(fa_broker_submit_packed(b, &o, data, pos - 1, lens, 2, &j)
		== FA_ERR_BADARG && j == NULL, "lengths over the data");
	CHECK(fa_broker_submit_packed(b, &o, data, pos + 1, lens, 2, NULL)
		== FA_ERR_BADARG, "lengths under the data");
	memcpy(sdata, sks[2], sizeof sks[2]);
	memcpy(sdata + sizeof sks[2], "hi", 2);
	slens[0] = sizeof sks[2];
	slens[1] = 2;
	set_opt(&o, FA_OP_SIGN, FA_SIG_PADDED);
	CHECK(fa_broker_submit_packed(b, &o, sdata, sizeof sdata, slens, 1, &j)
		== FA_OK, "packed sign");
	fa_job_wait(j, -1);
	CHECK(fa_job_signature(j, 0, &s, &sl) == FA_OK
		&& fa_verify_alloc(NULL, s, sl, FA_SIG_PADDED, pks[2],
		sizeof pks[2], "hi", 2) == FA_OK, "packed signature");
	fa_job_release(j);
}

static void
test_bad_submissions(fa_broker *b)
{
	fa_broker_item it;
	fa_job_options o;
	fa_job *j = (fa_job *)&o;
	uint8_t badsk[FA_PRIVKEY_SIZE(LOGN)];
	int st;

	set_item(&it, FA_OP_SIGN, 0, "m", 1, NULL, 0);
	set_opt(&o, FA_OP_SIGN, 0);
	CHECK(fa_broker_submit(b, &o, &it, 1, &j) == FA_ERR_BADARG
		&& j == NULL, "sign format 0");
	set_opt(&o, 7, FA_SIG_PADDED);
	CHECK(fa_broker_submit(b, &o, &it, 1, NULL) == FA_ERR_BADARG, "op 7");
	set_opt(&o, FA_OP_SIGN, FA_SIG_PADDED);
	CHECK(fa_broker_submit(b, &o, &it, 0, NULL) == FA_ERR_BADARG, "n 0");
	CHECK(fa_broker_submit(b, &o, NULL, 1, NULL) == FA_ERR_BADARG,
		"NULL items");
	o.timeout_us = -1;
	CHECK(fa_broker_submit(b, &o, &it, 1, NULL) == FA_ERR_BADARG,
		"negative timeout");
	o.timeout_us = 0;
	it.msg = NULL;
	CHECK(fa_broker_submit(b, &o, &it, 1, NULL) == FA_ERR_BADARG,
		"NULL message with length");
	/* A corrupt key is an item error, not a submission error. */
	memcpy(badsk, sks[0], sizeof badsk);
	badsk[0] = 0x5C;   /* degree 12 */
	set_item(&it, FA_OP_SIGN, 0, "m", 1, NULL, 0);
	it.key = badsk;
	CHECK(fa_broker_submit(b, &o, &it, 1, &j) == FA_OK, "submit bad key");
	fa_job_wait(j, -1);
	st = fa_job_item_status(j, 0);
	CHECK(fa_job_status(j) == FA_OK && st == FA_ERR_HEADER,
		"bad key item: %d", st);
	CHECK(fa_job_item_status(j, 1) == FA_ERR_BADARG, "item range");
	fa_job_release(j);
	/* A public key where a private key is expected. */
	it.key = pks[0];
	it.key_len = sizeof pks[0];
	CHECK(fa_broker_submit(b, &o, &it, 1, &j) == FA_OK, "submit pk");
	fa_job_wait(j, -1);
	CHECK(fa_job_item_status(j, 0) < 0, "pk as sk: %d",
		fa_job_item_status(j, 0));
	fa_job_release(j);
}

/* Fill the queue while the workers are blocked. */
static void
test_backpressure(void)
{
	fa_broker_config cfg;
	fa_broker_metrics m;
	fa_broker *b;
	fa_broker_item it;
	fa_job_options o;
	fa_job *jobs[64];
	size_t accepted = 0, i;
	int err, r = FA_OK;

	fa_broker_config_init(&cfg);
	cfg.threads = THREADS;
	cfg.queue_capacity = 16;
	cfg.max_batch = 4;
	b = fa_broker_new(&cfg, &err);
	CHECK(b != NULL && err == FA_OK, "broker_new %d", err);
	CHECK(fa_broker_set_executor(b, fa_backend_default(), gate_executor,
		&gate) == FA_OK, "set_executor");
	gate_set(0);
	set_item(&it, FA_OP_SIGN, 0, "bp", 2, NULL, 0);
	set_opt(&o, FA_OP_SIGN, FA_SIG_COMPRESSED);
	/* Single-item jobs: the first THREADS are taken by the blocked
	   workers, then 16 fit in the queue, then FA_ERR_BUSY. */
	for (i = 0; i < 64; i ++) {
		r = fa_broker_submit(b, &o, &it, 1, &jobs[i]);
		if (r != FA_OK) {
			break;
		}
		accepted ++;
		if (accepted <= THREADS) {
			/* One job per worker, each stuck in the gate. */
			CHECK(gate_wait_inside((int)accepted), "blocked");
		}
	}
	CHECK(r == FA_ERR_BUSY, "full queue gives %d", r);
	CHECK(accepted == 16 + THREADS, "accepted %zu", accepted);
	fa_broker_get_metrics(b, &m);
	CHECK(m.queue_depth == 16 && m.in_flight == THREADS
		&& m.queue_capacity == 16, "depth %llu in flight %llu",
		(unsigned long long)m.queue_depth,
		(unsigned long long)m.in_flight);
	CHECK(m.rejected_busy >= 1, "rejected counter");
	/* A job larger than the capacity can never fit. */
	{
		fa_broker_item many[17];

		for (i = 0; i < 17; i ++) {
			many[i] = it;
		}
		CHECK(fa_broker_submit(b, &o, many, 17, NULL) == FA_ERR_BADARG,
			"oversized job");
	}
	gate_set(1);
	for (i = 0; i < accepted; i ++) {
		const uint8_t *sig;
		size_t len;

		CHECK(fa_job_wait(jobs[i], 20000000) == 1, "job %zu done", i);
		CHECK(fa_job_signature(jobs[i], 0, &sig, &len) == FA_OK
			&& fa_verify_alloc(NULL, sig, len, 0, pks[0],
			sizeof pks[0], "bp", 2) == FA_OK, "bp sig %zu", i);
		fa_job_release(jobs[i]);
	}
	/* Room again. */
	CHECK(fa_broker_submit(b, &o, &it, 1, &jobs[0]) == FA_OK,
		"submit after drain");
	fa_job_wait(jobs[0], -1);
	fa_job_release(jobs[0]);
	fa_broker_get_metrics(b, &m);
	CHECK(m.queue_depth == 0 && m.in_flight == 0, "drained");
	CHECK(gate.max_n <= 4, "executor batch of %zu > max_batch",
		gate.max_n);
	fa_broker_free(b);

	/* The byte bound. */
	fa_broker_config_init(&cfg);
	cfg.threads = 1;
	cfg.queue_max_bytes = 40000;
	b = fa_broker_new(&cfg, &err);
	CHECK(b != NULL, "broker_new bytes");
	fa_broker_set_executor(b, fa_backend_default(), gate_executor, &gate);
	gate_set(0);
	{
		static uint8_t big[50000];
		size_t n = 0;

		set_item(&it, FA_OP_SIGN, 0, big, sizeof big, NULL, 0);
		CHECK(fa_broker_submit(b, &o, &it, 1, NULL) == FA_ERR_BADARG,
			"message over the byte bound");
		set_item(&it, FA_OP_SIGN, 0, big, 8000, NULL, 0);
		for (i = 0; i < 10; i ++) {
			r = fa_broker_submit(b, &o, &it, 1, &jobs[n]);
			if (r != FA_OK) {
				break;
			}
			n ++;
		}
		CHECK(r == FA_ERR_BUSY && n >= 3 && n <= 4,
			"byte bound: %d after %zu", r, n);
		fa_broker_get_metrics(b, &m);
		CHECK(m.queue_bytes <= 40000, "queue bytes %llu",
			(unsigned long long)m.queue_bytes);
		gate_set(1);
		for (i = 0; i < n; i ++) {
			fa_job_wait(jobs[i], -1);
			CHECK(fa_job_item_status(jobs[i], 0) == FA_OK,
				"byte-bound job %zu", i);
			fa_job_release(jobs[i]);
		}
	}
	fa_broker_free(b);
}

static void
test_deadline_and_cancel(void)
{
	fa_broker_config cfg;
	fa_broker_metrics m;
	fa_broker *b;
	fa_broker_item it[3];
	fa_job_options o;
	fa_job *blocker[THREADS], *dj, *cj, *kj;
	int64_t t0;
	int i, err;

	fa_broker_config_init(&cfg);
	cfg.threads = THREADS;
	b = fa_broker_new(&cfg, &err);
	CHECK(b != NULL, "broker_new");
	fa_broker_set_executor(b, fa_backend_default(), gate_executor, &gate);
	gate_set(0);
	for (i = 0; i < 3; i ++) {
		set_item(&it[i], FA_OP_SIGN, i, "dl", 2, NULL, 0);
	}
	set_opt(&o, FA_OP_SIGN, FA_SIG_PADDED);
	for (i = 0; i < THREADS; i ++) {
		CHECK(fa_broker_submit(b, &o, it, 1, &blocker[i]) == FA_OK,
			"blocker");
		CHECK(gate_wait_inside(i + 1), "blocked %d", i);
	}

	/* Deadline: expires in the queue, with every worker busy. */
	o.timeout_us = 30000;
	t0 = fa_now_us();
	CHECK(fa_broker_submit(b, &o, it, 3, &dj) == FA_OK, "submit dl");
	CHECK(fa_job_wait(dj, 5000000) == 1, "deadline job completed");
	CHECK(fa_now_us() - t0 >= 30000, "completed before its deadline");
	CHECK(fa_job_status(dj) == FA_ERR_DEADLINE, "deadline status %d",
		fa_job_status(dj));
	for (i = 0; i < 3; i ++) {
		CHECK(fa_job_item_status(dj, (size_t)i) == FA_ERR_DEADLINE,
			"deadline item");
	}
	CHECK(fa_job_cancel(dj) == 0, "cancel after deadline");

	/* Cancellation of a queued job. */
	o.timeout_us = 0;
	CHECK(fa_broker_submit(b, &o, it, 3, &cj) == FA_OK, "submit c");
	CHECK(fa_job_is_done(cj) == 0 && fa_job_status(cj) == FA_JOB_PENDING
		&& fa_job_item_status(cj, 0) == FA_JOB_PENDING
		&& fa_job_latency_us(cj) == -1, "pending job");
	CHECK(fa_job_wait(cj, 20000) == 0, "wait timeout on a pending job");
	CHECK(fa_job_cancel(cj) == 1, "cancel");
	CHECK(fa_job_is_done(cj) && fa_job_status(cj) == FA_ERR_CANCELLED,
		"cancelled status %d", fa_job_status(cj));
	CHECK(fa_job_item_status(cj, 2) == FA_ERR_CANCELLED, "item");
	CHECK(fa_job_cancel(cj) == 0, "second cancel");

	/* A running job cannot be cancelled; a long deadline is kept. */
	o.timeout_us = 60000000;
	CHECK(fa_broker_submit(b, &o, it, 1, &kj) == FA_OK, "submit k");
	fa_broker_get_metrics(b, &m);
	CHECK(m.items_expired == 3 && m.items_cancelled == 3,
		"counters %llu %llu", (unsigned long long)m.items_expired,
		(unsigned long long)m.items_cancelled);
	gate_set(1);
	CHECK(fa_job_wait(kj, 20000000) == 1 && fa_job_status(kj) == FA_OK
		&& fa_job_item_status(kj, 0) == FA_OK, "kept job");
	CHECK(fa_job_cancel(kj) == 0, "cancel done job");
	for (i = 0; i < THREADS; i ++) {
		fa_job_wait(blocker[i], -1);
		CHECK(fa_job_status(blocker[i]) == FA_OK, "blocker done");
		fa_job_release(blocker[i]);
	}
	fa_job_release(dj);
	fa_job_release(cj);
	fa_job_release(kj);
	fa_broker_free(b);
}

/* fa_broker_free with queued jobs: they complete with FA_ERR_CANCELLED,
   the running one finishes normally, handles stay valid. */
static void *
open_gate_later(void *arg)
{
	(void)arg;
	usleep(50000);
	gate_set(1);
	return NULL;
}

/* Callbacks run on broker threads: count under a mutex (CHECK's
   counters are not thread-safe). */
static int cb_count, cb_bad;
static pthread_mutex_t cb_mu = PTHREAD_MUTEX_INITIALIZER;

static void
count_cb(fa_job *job, void *user)
{
	pthread_mutex_lock(&cb_mu);
	cb_count ++;
	cb_bad += !(fa_job_is_done(job) && user == &cb_count);
	pthread_mutex_unlock(&cb_mu);
}

static int
cb_read(void)
{
	int n;

	pthread_mutex_lock(&cb_mu);
	n = cb_count;
	CHECK(cb_bad == 0, "callback arguments");
	pthread_mutex_unlock(&cb_mu);
	return n;
}

static void
cb_reset(void)
{
	pthread_mutex_lock(&cb_mu);
	cb_count = 0;
	pthread_mutex_unlock(&cb_mu);
}

static void
test_free_with_pending(void)
{
	fa_broker_config cfg;
	fa_broker *b;
	fa_broker_item it;
	fa_job_options o;
	fa_job *run, *q1, *q2;
	pthread_t th;

	fa_broker_config_init(&cfg);
	cfg.threads = 1;
	b = fa_broker_new(&cfg, NULL);
	CHECK(b != NULL, "broker_new");
	fa_broker_set_executor(b, fa_backend_default(), gate_executor, &gate);
	gate_set(0);
	set_item(&it, FA_OP_SIGN, 1, "fr", 2, NULL, 0);
	set_opt(&o, FA_OP_SIGN, FA_SIG_CT);
	o.cb = count_cb;
	o.user = &cb_count;
	cb_reset();
	CHECK(fa_broker_submit(b, &o, &it, 1, &run) == FA_OK, "run");
	CHECK(gate_wait_inside(1), "blocked");
	CHECK(fa_broker_submit(b, &o, &it, 1, &q1) == FA_OK, "q1");
	CHECK(fa_broker_submit(b, &o, &it, 1, &q2) == FA_OK, "q2");
	pthread_create(&th, NULL, open_gate_later, NULL);
	fa_broker_free(b);
	pthread_join(th, NULL);
	CHECK(fa_job_status(run) == FA_OK, "running job: %d",
		fa_job_status(run));
	CHECK(fa_job_status(q1) == FA_ERR_CANCELLED
		&& fa_job_status(q2) == FA_ERR_CANCELLED, "queued jobs");
	CHECK(cb_read() == 3, "callbacks");
	fa_job_release(run);
	fa_job_release(q1);
	fa_job_release(q2);
}

/* Many submitting threads; callback, wait and completion-queue modes. */
#define SUBMITTERS 4
#define PER_THREAD 40

typedef struct {
	fa_broker *b;
	int id;
	int bad;
} sub_arg;

static void *
submitter_main(void *p)
{
	sub_arg *a = p;
	int i;

	for (i = 0; i < PER_THREAD; i ++) {
		fa_broker_item it;
		fa_job_options o;
		fa_job *j;
		uint8_t msg[8] = { (uint8_t)a->id, (uint8_t)i };
		const uint8_t *sig;
		size_t len;
		int r, key = (a->id + i) % NKEYS;

		set_item(&it, FA_OP_SIGN, key, msg, sizeof msg, NULL, 0);
		set_opt(&o, FA_OP_SIGN, FA_SIG_COMPRESSED);
		if (i % 2) {
			o.cb = count_cb;
			o.user = &cb_count;
		}
		do {
			r = fa_broker_submit(a->b, &o, &it, 1, &j);
			if (r == FA_ERR_BUSY) {
				usleep(1000);
			}
		} while (r == FA_ERR_BUSY);
		if (r != FA_OK) {
			a->bad ++;
			continue;
		}
		fa_job_wait(j, -1);
		if (fa_job_signature(j, 0, &sig, &len) != FA_OK
			|| fa_verify_alloc(NULL, sig, len, 0, pks[key],
			sizeof pks[key], msg, sizeof msg) != FA_OK)
		{
			a->bad ++;
		}
		fa_job_release(j);
	}
	return NULL;
}

static void
test_concurrent_submitters(fa_broker *b)
{
	pthread_t th[SUBMITTERS];
	sub_arg args[SUBMITTERS];
	fa_broker_metrics m0, m;
	int i;

	fa_broker_get_metrics(b, &m0);
	cb_reset();
	for (i = 0; i < SUBMITTERS; i ++) {
		args[i].b = b;
		args[i].id = i;
		args[i].bad = 0;
		pthread_create(&th[i], NULL, submitter_main, &args[i]);
	}
	for (i = 0; i < SUBMITTERS; i ++) {
		pthread_join(th[i], NULL);
		CHECK(args[i].bad == 0, "submitter %d: %d bad", i, args[i].bad);
	}
	CHECK(cb_read() == SUBMITTERS * PER_THREAD / 2, "callbacks");
	fa_broker_get_metrics(b, &m);
	CHECK(m.jobs_completed - m0.jobs_completed
		== SUBMITTERS * PER_THREAD, "jobs completed");
	CHECK(m.items_completed - m0.items_completed
		== SUBMITTERS * PER_THREAD, "items completed");
}

static void
test_completion_queue(fa_broker *b)
{
	enum { N = 30 };
	fa_broker_item it[2];
	fa_job_options o;
	uint8_t sig[FA_SIG_MAXSIZE(LOGN)];
	size_t len = sizeof sig, got = 0;
	uint64_t tags = 0;
	int fd = fa_broker_completion_fd(b);
	int64_t until = fa_now_us() + 20000000;
	int i;

	CHECK(fa_sign_alloc(NULL, "cq", 2, sig, &len, FA_SIG_PADDED, sks[2],
		sizeof sks[2], "cq", 2) == FA_OK, "sign");
	set_item(&it[0], FA_OP_VERIFY, 2, "cq", 2, sig, len);
	set_item(&it[1], FA_OP_VERIFY, 2, "cQ", 2, sig, len);
	set_opt(&o, FA_OP_VERIFY, 0);
	o.notify = 1;
	for (i = 0; i < N; i ++) {
		o.tag = (uint64_t)i;
		CHECK(fa_broker_submit(b, &o, it, 2, NULL) == FA_OK, "submit");
	}
	while (got < N && fa_now_us() < until) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		char buf[64];
		fa_job *jobs[8];
		size_t k, x;

		poll(&pfd, 1, 1000);
		while (read(fd, buf, sizeof buf) > 0) {
		}
		while ((k = fa_broker_poll(b, jobs, 8)) > 0) {
			for (x = 0; x < k; x ++) {
				CHECK(fa_job_is_done(jobs[x])
					&& fa_job_item_status(jobs[x], 0) == FA_OK
					&& fa_job_item_status(jobs[x], 1)
					== FA_ERR_BADSIG, "cq results");
				tags |= (uint64_t)1 << fa_job_tag(jobs[x]);
				fa_job_release(jobs[x]);
			}
			got += k;
		}
	}
	CHECK(got == N && tags == ((uint64_t)1 << N) - 1,
		"completion queue got %zu", got);
}

static void
test_key_cache(void)
{
	fa_broker_config cfg;
	fa_broker_metrics m;
	fa_broker *b;
	fa_broker_item it[NKEYS * 4];
	fa_job_options o;
	fa_job *j;
	int i, err;

	/* Room for one expanded degree-512 key only. */
	fa_broker_config_init(&cfg);
	cfg.threads = THREADS;
	cfg.key_cache_bytes = FA_EXPANDED_KEY_SIZE(LOGN) + 4096;
	b = fa_broker_new(&cfg, &err);
	CHECK(b != NULL, "broker_new");
	for (i = 0; i < NKEYS * 4; i ++) {
		set_item(&it[i], FA_OP_SIGN, i % NKEYS, "kc", 2, NULL, 0);
	}
	set_opt(&o, FA_OP_SIGN, FA_SIG_PADDED);
	CHECK(fa_broker_submit(b, &o, it, NKEYS * 4, &j) == FA_OK, "submit");
	fa_job_wait(j, -1);
	for (i = 0; i < NKEYS * 4; i ++) {
		const uint8_t *sig;
		size_t len;

		CHECK(fa_job_signature(j, (size_t)i, &sig, &len) == FA_OK
			&& fa_verify_alloc(NULL, sig, len, 0, pks[i % NKEYS],
			sizeof pks[0], "kc", 2) == FA_OK, "kc item %d", i);
	}
	fa_job_release(j);
	fa_broker_get_metrics(b, &m);
	CHECK(m.cache_bytes <= m.cache_capacity_bytes && m.cache_entries <= 1,
		"cache over budget: %llu entries, %llu bytes",
		(unsigned long long)m.cache_entries,
		(unsigned long long)m.cache_bytes);
	CHECK(m.cache_misses >= NKEYS, "misses %llu",
		(unsigned long long)m.cache_misses);
	/* Preload and forget. */
	CHECK(fa_broker_preload_key(b, FA_OP_SIGN, sks[0], sizeof sks[0])
		== FA_OK, "preload");
	fa_broker_get_metrics(b, &m);
	CHECK(m.cache_entries == 1, "preloaded");
	CHECK(fa_broker_forget_key(b, FA_OP_SIGN, sks[0], sizeof sks[0]) == 1
		&& fa_broker_forget_key(b, FA_OP_SIGN, sks[0], sizeof sks[0])
		== 0, "forget");
	CHECK(fa_broker_preload_key(b, 5, sks[0], sizeof sks[0])
		== FA_ERR_BADARG, "preload kind");
	fa_broker_free(b);

	/* A budget big enough for all: hits after the first use. */
	cfg.key_cache_bytes = 0;
	b = fa_broker_new(&cfg, &err);
	for (i = 0; i < NKEYS; i ++) {
		CHECK(fa_broker_preload_key(b, FA_OP_SIGN, sks[i],
			sizeof sks[i]) == FA_OK, "preload %d", i);
		CHECK(fa_broker_preload_key(b, FA_OP_VERIFY, pks[i],
			sizeof pks[i]) == FA_OK, "preload pk %d", i);
	}
	CHECK(fa_broker_submit(b, &o, it, NKEYS * 4, &j) == FA_OK, "submit");
	fa_job_wait(j, -1);
	CHECK(fa_job_status(j) == FA_OK, "status");
	fa_job_release(j);
	fa_broker_get_metrics(b, &m);
	CHECK(m.cache_entries == 2 * NKEYS && m.cache_hits >= NKEYS * 4
		&& m.cache_evictions == 0, "hits %llu entries %llu",
		(unsigned long long)m.cache_hits,
		(unsigned long long)m.cache_entries);
	fa_broker_free(b);
}

static void
test_metrics(fa_broker *b)
{
	fa_broker_metrics m;
	uint64_t sum = 0, items = 0;
	unsigned k;

	fa_broker_get_metrics(b, &m);
	for (k = 0; k < FA_BROKER_HIST_BUCKETS; k ++) {
		sum += m.batch_hist[k];
	}
	CHECK(sum == m.batches && m.batches > 0, "histogram sum");
	CHECK(m.latency_samples > 0 && m.latency_p50_us <= m.latency_p90_us
		&& m.latency_p90_us <= m.latency_p99_us
		&& m.latency_p99_us <= m.latency_max_us, "percentiles");
	CHECK(m.backend_count >= 1 && m.backend[0].name != NULL
		&& strcmp(m.backend[0].name,
		fa_backend_name(fa_backend_default())) == 0, "backend name");
	for (k = 0; k < m.backend_count; k ++) {
		items += m.backend[k].sign_items + m.backend[k].verify_items;
	}
	CHECK(items == m.items_completed, "per-backend items %llu vs %llu",
		(unsigned long long)items,
		(unsigned long long)m.items_completed);
	CHECK(m.jobs_submitted == m.jobs_completed && m.queue_depth == 0
		&& m.threads == THREADS && m.uptime_us > 0, "totals");
}

int
main(void)
{
	fa_broker_config cfg;
	fa_broker *b;
	int err;

	make_keys();
	b = fa_broker_new(NULL, &err);
	CHECK(b != NULL && err == FA_OK, "default config");
	fa_broker_free(b);
	fa_broker_config_init(&cfg);
	cfg.threads = THREADS;
	b = fa_broker_new(&cfg, &err);
	CHECK(b != NULL && err == FA_OK, "broker_new");
	test_sign_and_verify(b);
	test_bad_submissions(b);
	test_packed(b);
	test_concurrent_submitters(b);
	test_completion_queue(b);
	test_metrics(b);
	fa_broker_free(b);

	test_backpressure();
	test_deadline_and_cancel();
	test_free_with_pending();
	test_key_cache();
	fa_broker_free(NULL);
	return tu_finish("test_edge_broker");
}
