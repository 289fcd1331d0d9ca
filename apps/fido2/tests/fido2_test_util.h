/*
 * Test helpers for the FIDO2 core: hex decoding, a check macro, an
 * in-memory credential store and a deterministic platform (SHAKE256 as
 * the random source, a settable clock, a scripted user-presence answer).
 */
#ifndef FIDO2_TEST_UTIL_H
#define FIDO2_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fido2_ctap2.h"

static int t_pass __attribute__((unused)), t_fail __attribute__((unused));
#define CHECK(cond, ...) do { \
		if (cond) { t_pass++; } else { t_fail++; \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
	} while (0)
#define T_DONE() (printf("%d passed, %d failed\n", t_pass, t_fail), t_fail != 0)

static size_t __attribute__((unused))
unhex(uint8_t *out, const char *hex)
{
	size_t n = 0;
	while (hex[0] && hex[1]) {
		unsigned v;
		sscanf(hex, "%2x", &v);
		out[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

/* ---- in-memory store ---- */
#define MEM_MAX 32
typedef struct {
	fido2_dev_state st;
	int have_state;
	int n;
	fido2_cred creds[MEM_MAX];
	int fail_writes;     /* make every write fail */
} mem_store;

static int ms_load(void *u, fido2_dev_state *st)
{
	mem_store *m = u;
	if (!m->have_state) return 1;
	*st = m->st;
	return 0;
}
static int ms_save(void *u, const fido2_dev_state *st)
{
	mem_store *m = u;
	if (m->fail_writes) return -1;
	m->st = *st;
	m->have_state = 1;
	return 0;
}
static int ms_count(void *u) { return ((mem_store *)u)->n; }
static int ms_get(void *u, int i, fido2_cred *c)
{
	mem_store *m = u;
	if (i < 0 || i >= m->n) return -1;
	*c = m->creds[i];
	return 0;
}
static int ms_put(void *u, const fido2_cred *c)
{
	mem_store *m = u;
	int i;
	if (m->fail_writes) return -1;
	for (i = 0; i < m->n; i++) {
		if (!memcmp(m->creds[i].rp_id_hash, c->rp_id_hash, 32)
			&& m->creds[i].user_id_len == c->user_id_len
			&& !memcmp(m->creds[i].user_id, c->user_id, c->user_id_len)) {
			m->creds[i] = *c;
			return 0;
		}
	}
	if (m->n >= MEM_MAX) return FIDO2_STORE_FULL;
	m->creds[m->n++] = *c;
	return 0;
}
static int ms_wipe(void *u) { ((mem_store *)u)->n = 0; return 0; }
static const fido2_store_ops mem_store_ops = {
	ms_load, ms_save, ms_count, ms_get, ms_put, ms_wipe
};

/* ---- deterministic platform ---- */
typedef struct {
	fa_shake256_ctx rng;
	uint32_t now;
	int up_answer;       /* FIDO2_UP_* returned by user_presence */
	int up_calls;
} test_plat;

static int tp_rng(void *u, void *buf, size_t len)
{
	fa_shake256_extract(&((test_plat *)u)->rng, buf, len);
	return 0;
}
static uint32_t tp_now(void *u) { return ((test_plat *)u)->now; }
static int tp_up(void *u, const char *what, const uint8_t *rp, size_t rp_len)
{
	test_plat *p = u;
	(void)what; (void)rp; (void)rp_len;
	p->up_calls++;
	return p->up_answer;
}
static const fido2_platform test_platform = { tp_rng, tp_now, tp_up };

static void __attribute__((unused))
test_plat_init(test_plat *p, const char *seed)
{
	memset(p, 0, sizeof *p);
	fa_shake256_init_prng_from_seed(&p->rng, seed, strlen(seed));
	p->up_answer = FIDO2_UP_APPROVED;
}

#endif
