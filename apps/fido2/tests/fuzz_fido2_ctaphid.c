/*
 * Fuzz target: CTAPHID framing with the CTAP2 authenticator behind it.
 * The first input byte selects the layer:
 *   even: the rest is a CTAP2 request (command byte + CBOR) handed to
 *         fido2_ctap2_handle directly;
 *   odd:  the rest is a sequence of 64-byte HID reports (the last one
 *         zero-padded), each preceded in time by a step taken from its
 *         first byte (so transaction timeouts are exercised).
 * Checks: every answer is a well-formed report on a known channel; every
 * CTAP2 response has a status byte, and a success carries canonical CBOR.
 * User presence is approved for the first 64 requests of a process, then
 * denied, which bounds the number of key generations.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fido2_ctaphid.h"
#include "fido2_ctap2.h"
#include "fido2_cbor.h"
#include "fido2_test_util.h"

static fido2_hid H;
static fido2_auth A;
static mem_store MS;
static test_plat TP;
static uint8_t TMP[FIDO2_TMP_SIZE];
static uint8_t RESP[FIDO2_HID_MAX_MSG];
static int ready, up_budget = 64;

static int
fuzz_up(void *u, const char *what, const uint8_t *rp, size_t rp_len)
{
	(void)u; (void)what; (void)rp; (void)rp_len;
	if (up_budget > 0) {
		up_budget--;
		return FIDO2_UP_APPROVED;
	}
	return FIDO2_UP_DENIED;
}
static const fido2_platform fuzz_platform = { tp_rng, tp_now, fuzz_up };

/* Channel IDs for the fuzzer: 1, 2, 3... (a fuzzer input must be able to
   name an allocated channel). */
static int
fuzz_cid_rng(void *u, void *buf, size_t len)
{
	static uint32_t next = 1;
	uint8_t *b = buf;
	(void)u;
	if (len != 4) abort();
	b[0] = (uint8_t)(next >> 24); b[1] = (uint8_t)(next >> 16);
	b[2] = (uint8_t)(next >> 8); b[3] = (uint8_t)next;
	next++;
	return 0;
}

static void
check_resp(const uint8_t *r, size_t n)
{
	if (n < 1 || n > FIDO2_HID_MAX_MSG) abort();
	if (r[0] == 0 && n > 1 && fido2_cbor_check(r + 1, n - 1) != 0) abort();
}

static void
sendr(void *u, const uint8_t r[64])
{
	uint32_t cid = ((uint32_t)r[0] << 24) | ((uint32_t)r[1] << 16)
		| ((uint32_t)r[2] << 8) | r[3];
	(void)u;
	/* Answers go to the broadcast channel (INIT), to an allocated one,
	   or (errors) to the channel the offending packet named. */
	if ((r[4] & 0x80) == 0 && cid == 0) abort();
	if (r[4] == FIDO2_HID_ERROR && r[6] != 1) abort();
}

static size_t
handle(void *u, fido2_hid *hid, uint8_t cmd, const uint8_t *req, size_t n,
	uint8_t *resp)
{
	size_t m;
	(void)u; (void)hid;
	if (cmd == FIDO2_HID_MSG) {
		resp[0] = 0x6d; resp[1] = 0;
		return 2;
	}
	m = fido2_ctap2_handle(&A, req, n, resp, FIDO2_HID_MAX_MSG);
	check_resp(resp, m);
	return m;
}

static void
setup(void)
{
	uint8_t r[64];
	test_plat_init(&TP, "fuzz");
	if (fido2_auth_init(&A, &mem_store_ops, &MS, &fuzz_platform, &TP,
		fa_backend_default(), TMP, sizeof TMP) != 0) abort();
	fido2_hid_init(&H, sendr, handle, NULL, fuzz_cid_rng, NULL);
	/* Allocate channel 1 (the RNG's first draw) so that inputs can
	   address it. */
	memset(r, 0, sizeof r);
	memset(r, 0xff, 4);
	r[4] = FIDO2_HID_INIT;
	r[6] = 8;
	fido2_hid_input(&H, r, 0);
	ready = 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!ready) setup();
	if (size < 1) return 0;
	if ((data[0] & 1) == 0) {
		size_t m = fido2_ctap2_handle(&A, data + 1, size - 1, RESP, sizeof RESP);
		check_resp(RESP, m);
		return 0;
	}
	data++;
	size--;
	while (size > 0) {
		uint8_t r[64];
		size_t n = size < 64 ? size : 64;
		memset(r, 0, sizeof r);
		memcpy(r, data, n);
		TP.now += (uint32_t)(r[63] & 0x0f) * 40u;
		fido2_hid_input(&H, r, TP.now);
		fido2_hid_tick(&H, TP.now);
		data += n;
		size -= n;
	}
	return 0;
}
