/*
 * Host latency of the authenticator core: makeCredential and getAssertion
 * through fido2_ctap2_handle (request parsing, key generation or key load,
 * signing, response encoding) with the durable file store in a temporary
 * directory (fsync included where the command writes) and the default
 * Falcon backend. FN-DSA-512 / -1024 (-54 / -55), and round-3 Falcon-512
 * under its private-use identifier for comparison. Prints medians,
 * 10th/90th percentiles and maxima in ms.
 *   bench_fido2 [--runs N]        (default 200; makeCredential N/4)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "fido2_ctap2.h"
#include "fido2_cbor.h"
#include "fido2_cose.h"
#include "fido2_store_file.h"

static fido2_file_store FS;
static fido2_auth A;
static uint8_t TMP[FIDO2_TMP_SIZE];
static uint8_t REQ[4096], RESP[8192];

static int b_rng(void *u, void *p, size_t n)
{
	(void)u;
	return getrandom(p, n, 0) == (ssize_t)n ? 0 : -1;
}
static uint32_t b_now(void *u) { (void)u; return 0; }
static int b_up(void *u, const char *w, const uint8_t *rp, size_t n)
{
	(void)u; (void)w; (void)rp; (void)n;
	return FIDO2_UP_APPROVED;
}
static const fido2_platform plat = { b_rng, b_now, b_up };

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void report(const char *what, double *t, int n)
{
	qsort(t, (size_t)n, sizeof *t, cmpd);
	printf("%-46s n=%4d  median %7.3f ms  p10 %7.3f  p90 %7.3f  max %7.3f\n",
		what, n, t[n / 2], t[n / 10], t[(n * 9) / 10], t[n - 1]);
}

static size_t mc_req(int64_t alg, int rk, int i)
{
	fido2_cbor_enc e;
	uint8_t cdh[32], uid[8];
	memset(cdh, 7, 32);
	memcpy(uid, &i, sizeof i);
	memset(uid + sizeof i, 'u', sizeof uid - sizeof i);
	REQ[0] = CTAP2_CMD_MAKE_CREDENTIAL;
	fido2_cbor_enc_init(&e, REQ + 1, sizeof REQ - 1);
	fido2_cbor_put_map(&e, 5);
	fido2_cbor_put_uint(&e, 1); fido2_cbor_put_bytes(&e, cdh, 32);
	fido2_cbor_put_uint(&e, 2); fido2_cbor_put_map(&e, 1);
	fido2_cbor_put_textz(&e, "id"); fido2_cbor_put_textz(&e, "example.com");
	fido2_cbor_put_uint(&e, 3); fido2_cbor_put_map(&e, 1);
	fido2_cbor_put_textz(&e, "id"); fido2_cbor_put_bytes(&e, uid, sizeof uid);
	fido2_cbor_put_uint(&e, 4); fido2_cbor_put_array(&e, 1);
	fido2_cbor_put_map(&e, 2);
	fido2_cbor_put_textz(&e, "alg"); fido2_cbor_put_int(&e, alg);
	fido2_cbor_put_textz(&e, "type"); fido2_cbor_put_textz(&e, "public-key");
	fido2_cbor_put_uint(&e, 7); fido2_cbor_put_map(&e, 1);
	fido2_cbor_put_textz(&e, "rk"); fido2_cbor_put_bool(&e, rk);
	return 1 + e.len;
}

static size_t ga_req(const uint8_t *id)
{
	fido2_cbor_enc e;
	uint8_t cdh[32];
	memset(cdh, 9, 32);
	REQ[0] = CTAP2_CMD_GET_ASSERTION;
	fido2_cbor_enc_init(&e, REQ + 1, sizeof REQ - 1);
	fido2_cbor_put_map(&e, id ? 3 : 2);
	fido2_cbor_put_uint(&e, 1); fido2_cbor_put_textz(&e, "example.com");
	fido2_cbor_put_uint(&e, 2); fido2_cbor_put_bytes(&e, cdh, 32);
	if (id) {
		fido2_cbor_put_uint(&e, 3); fido2_cbor_put_array(&e, 1);
		fido2_cbor_put_map(&e, 2);
		fido2_cbor_put_textz(&e, "id"); fido2_cbor_put_bytes(&e, id, FIDO2_CRED_ID_LEN);
		fido2_cbor_put_textz(&e, "type"); fido2_cbor_put_textz(&e, "public-key");
	}
	return 1 + e.len;
}

static double timed(size_t n)
{
	double t0 = now_ms(), t1;
	size_t m = fido2_ctap2_handle(&A, REQ, n, RESP, sizeof RESP);
	t1 = now_ms();
	if (m < 1 || RESP[0] != 0) {
		fprintf(stderr, "bench_fido2: request failed with status 0x%02x\n", RESP[0]);
		exit(1);
	}
	return t1 - t0;
}

/* Credential ID of the last makeCredential response. */
static void last_id(uint8_t id[FIDO2_CRED_ID_LEN])
{
	fido2_cbor_item top, ad;
	fido2_cbor_item_at(RESP + 1, sizeof RESP - 1, &top);
	fido2_cbor_map_int(&top, 2, &ad);
	memcpy(id, ad.data + 55, FIDO2_CRED_ID_LEN);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/bench_fido2_XXXXXX";
	int runs = 200, i, nmc;
	double *t;
	uint8_t id512[FIDO2_CRED_ID_LEN], id1024[FIDO2_CRED_ID_LEN], idr3[FIDO2_CRED_ID_LEN];
	char cmd[128];

	if (argc == 3 && strcmp(argv[1], "--runs") == 0) runs = atoi(argv[2]);
	if (runs < 10) runs = 10;
	nmc = runs / 4 < 10 ? 10 : runs / 4;
	t = malloc(sizeof *t * (size_t)runs);
	if (mkdtemp(dir) == NULL || fido2_file_store_open(&FS, dir) != 0
		|| fido2_auth_init(&A, &fido2_file_store_ops, &FS, &plat, NULL,
			fa_backend_default(), TMP, sizeof TMP) != 0) {
		fprintf(stderr, "bench_fido2: set-up failed\n");
		return 1;
	}
	printf("backend %s, state in %s (file store, fsync)\n",
		fa_backend_name(fa_backend_default()), dir);

	for (i = 0; i < nmc; i++) t[i] = timed(mc_req(FIDO2_COSE_ALG_FNDSA512, 0, i));
	last_id(id512);
	report("makeCredential FN-DSA-512 (non-discoverable)", t, nmc);
	for (i = 0; i < nmc; i++) t[i] = timed(mc_req(FIDO2_COSE_ALG_FNDSA512, 1, 1000 + i));
	report("makeCredential FN-DSA-512 (discoverable)", t, nmc);
	for (i = 0; i < nmc; i++) t[i] = timed(mc_req(FIDO2_COSE_ALG_FNDSA1024, 0, 2000 + i));
	last_id(id1024);
	report("makeCredential FN-DSA-1024 (non-discoverable)", t, nmc);
	for (i = 0; i < nmc; i++) t[i] = timed(mc_req(FIDO2_COSE_ALG_FALCON512_R3, 0, 3000 + i));
	last_id(idr3);
	report("makeCredential Falcon-512 round 3 (non-discoverable)", t, nmc);

	for (i = 0; i < runs; i++) t[i] = timed(ga_req(id512));
	report("getAssertion FN-DSA-512 allow list, key cached", t, runs);
	for (i = 0; i < runs; i++) {
		memset(A.cache, 0, sizeof A.cache);
		t[i] = timed(ga_req(id512));
	}
	report("getAssertion FN-DSA-512 allow list, cold (keygen)", t, runs);
	/* Discoverable: one account per rpId so that no GNA list builds up. */
	for (i = 0; i < runs; i++) t[i] = timed(ga_req(NULL));
	report("getAssertion FN-DSA-512 discoverable (stored key)", t, runs);
	for (i = 0; i < runs; i++) t[i] = timed(ga_req(id1024));
	report("getAssertion FN-DSA-1024 allow list, key cached", t, runs);
	for (i = 0; i < runs; i++) t[i] = timed(ga_req(idr3));
	report("getAssertion Falcon-512 round 3 allow list, key cached", t, runs);

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0) return 1;
	free(t);
	return 0;
}
