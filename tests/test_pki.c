/*
 * test_pki.c -- src/pki.c: PKCS#8 / SubjectPublicKeyInfo strict DER and
 * PEM for Falcon and FN-DSA keys.
 *
 *  - genuine keys of the four algorithms: encode, decode back, sizes,
 *    PEM round trips byte-exact;
 *  - named non-canonical encodings refused with their code: long-form
 *    length where short fits, leading zero length octet, indefinite
 *    length, trailing bytes (outer and inner), wrong tags, version 1 and
 *    a non-minimal version INTEGER, NULL parameters, unused bits,
 *    attributes, unknown OID, wrong key length / header, PEM with CRLF,
 *    short inner line, bad padding bits, text after END;
 *  - mutation fuzzing: FA_PKI_MUTATIONS (default 1,000,000) inputs made by
 *    flipping, inserting, deleting and truncating bytes of genuine
 *    encodings: every input either decodes to a key whose re-encoding is
 *    byte-identical to the input (DER is canonical) or returns a
 *    documented code with an offset inside the input.
 * Prints "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "falcon_accel.h"
#include "falcon_accel_pki.h"

static int passed, failed;

#define CHECK(cond, ...) do { \
	if (cond) { passed ++; } else { failed ++; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); \
		printf("\n"); } } while (0)

static uint8_t sks[4][2400], pks[4][1800];
static uint8_t p8[4][4300], spki[4][1900];
static size_t p8_len[4], spki_len[4];

static uint64_t rs = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (uint32_t)(rs >> 11);
}

static void make_keys(void)
{
	int a;

	for (a = 0; a < FA_PKI_ALG_COUNT; a ++) {
		unsigned logn = fa_pki_alg_logn(a);
		size_t tl = FA_TMPSIZE_FNDSA_KEYGEN(logn) > FA_TMPSIZE_KEYGEN(logn)
			? FA_TMPSIZE_FNDSA_KEYGEN(logn) : FA_TMPSIZE_KEYGEN(logn);
		uint8_t *tmp = malloc(tl), seed[32];
		fa_shake256_ctx rng;
		int r;

		memset(seed, a + 1, sizeof seed);
		if (fa_pki_alg_fndsa(a)) {
			r = fa_fndsa_keygen_seed(NULL, seed, logn, sks[a],
				fa_pki_alg_sk_len(a), pks[a], fa_pki_alg_pk_len(a), tmp, tl);
		} else {
			fa_shake256_init_prng_from_seed(&rng, seed, sizeof seed);
			r = fa_keygen(NULL, &rng, logn, sks[a], fa_pki_alg_sk_len(a),
				pks[a], fa_pki_alg_pk_len(a), tmp, tl);
		}
		CHECK(r == FA_OK, "keygen %s: %d", fa_pki_alg_name(a), r);
		free(tmp);
	}
}

/* Decode as PKCS#8 or SPKI; on success the re-encoding must equal in. */
static int decode_check(const uint8_t *in, size_t len, int priv)
{
	const uint8_t *k, *p;
	size_t kl, pl, rl;
	int a, r;
	fa_pki_error e;
	static uint8_t re[4400];

	memset(&e, 0, sizeof e);
	r = priv ? fa_pki_decode_pkcs8(in, len, &a, &k, &kl, &p, &pl, &e)
		: fa_pki_decode_spki(in, len, &a, &k, &kl, &e);
	if (r != 0) {
		if (r > FA_PKI_ERR_TRUNCATED || r < FA_PKI_ERR_ATTRIBUTES
			|| e.code != r || e.offset > len || e.what == NULL)
		{
			printf("bad error: r=%d code=%d offset=%zu len=%zu\n", r,
				e.code, e.offset, len);
			return -1000;
		}
		return r;
	}
	r = priv ? fa_pki_encode_pkcs8(re, sizeof re, &rl, a, k, kl, p, pl)
		: fa_pki_encode_spki(re, sizeof re, &rl, a, k, kl);
	if (r != 0 || rl != len || memcmp(re, in, len) != 0) {
		printf("accepted input does not re-encode to itself (len %zu)\n",
			len);
		return -1001;
	}
	return 0;
}

static void test_genuine(void)
{
	int a;

	for (a = 0; a < FA_PKI_ALG_COUNT; a ++) {
		const uint8_t *k, *p;
		size_t kl, pl, n, dl;
		int b, r, label;
		uint8_t pem[6200], der[4400];

		r = fa_pki_encode_pkcs8(p8[a], sizeof p8[a], &p8_len[a], a, sks[a],
			fa_pki_alg_sk_len(a), pks[a], fa_pki_alg_pk_len(a));
		CHECK(r == 0 && p8_len[a] == fa_pki_pkcs8_size(a), "pkcs8 %d", a);
		r = fa_pki_encode_spki(spki[a], sizeof spki[a], &spki_len[a], a,
			pks[a], fa_pki_alg_pk_len(a));
		CHECK(r == 0 && spki_len[a] == fa_pki_spki_size(a), "spki %d", a);
		r = fa_pki_decode_pkcs8(p8[a], p8_len[a], &b, &k, &kl, &p, &pl, NULL);
		CHECK(r == 0 && b == a && kl == fa_pki_alg_sk_len(a)
			&& memcmp(k, sks[a], kl) == 0, "pkcs8 decode %d: %d", a, r);
		CHECK(fa_pki_alg_fndsa(a) ? p == NULL
			: (pl == fa_pki_alg_pk_len(a) && memcmp(p, pks[a], pl) == 0),
			"pkcs8 public key %d", a);
		r = fa_pki_decode_spki(spki[a], spki_len[a], &b, &k, &kl, NULL);
		CHECK(r == 0 && b == a && memcmp(k, pks[a], kl) == 0, "spki %d", a);
		CHECK(decode_check(p8[a], p8_len[a], 1) == 0, "canonical p8 %d", a);
		CHECK(decode_check(spki[a], spki_len[a], 0) == 0, "canonical spki %d", a);
		/* wrong structure */
		CHECK(fa_pki_decode_spki(p8[a], p8_len[a], &b, &k, &kl, NULL) != 0,
			"pkcs8 as spki %d", a);
		CHECK(fa_pki_decode_pkcs8(spki[a], spki_len[a], &b, &k, &kl, &p, &pl,
			NULL) != 0, "spki as pkcs8 %d", a);
		/* PEM */
		r = fa_pki_pem_encode(pem, sizeof pem, &n, FA_PKI_PEM_PRIVATE, p8[a],
			p8_len[a]);
		CHECK(r == 0 && n == fa_pki_pem_size(FA_PKI_PEM_PRIVATE, p8_len[a]),
			"pem size %d", a);
		r = fa_pki_pem_decode(pem, n, &label, der, sizeof der, &dl, NULL);
		CHECK(r == 0 && label == FA_PKI_PEM_PRIVATE && dl == p8_len[a]
			&& memcmp(der, p8[a], dl) == 0, "pem round trip %d: %d", a, r);
		CHECK(fa_pki_detect(pem, n) == FA_PKI_FMT_PEM
			&& fa_pki_detect(p8[a], p8_len[a]) == FA_PKI_FMT_DER
			&& fa_pki_detect(sks[a], fa_pki_alg_sk_len(a)) == FA_PKI_FMT_RAW
			&& fa_pki_detect(pks[a], fa_pki_alg_pk_len(a)) == FA_PKI_FMT_RAW,
			"detect %d", a);
	}
}

static int dec_p8(const uint8_t *d, size_t n)
{
	const uint8_t *k, *p;
	size_t kl, pl;
	int a;

	return fa_pki_decode_pkcs8(d, n, &a, &k, &kl, &p, &pl, NULL);
}

static int dec_spki(const uint8_t *d, size_t n)
{
	const uint8_t *k;
	size_t kl;
	int a;

	return fa_pki_decode_spki(d, n, &a, &k, &kl, NULL);
}

static void test_named(void)
{
	uint8_t b[4400], s[80];
	size_t n;
	int r;

	/* SPKI Falcon-512: 30 82 03 8F | 30 07 06 05 .. | 03 82 03 82 00 pk */
	n = spki_len[0];
	memcpy(b, spki[0], n);
	b[n] = 0;
	CHECK(dec_spki(b, n + 1) == FA_PKI_ERR_TRAILING, "outer trailing");
	CHECK(dec_spki(b, n - 1) == FA_PKI_ERR_TRUNCATED, "truncated");
	b[0] = 0x31;
	CHECK(dec_spki(b, n) == FA_PKI_ERR_TAG, "outer tag");
	memcpy(b, spki[0], n);
	b[1] = 0x80;
	CHECK(dec_spki(b, n) == FA_PKI_ERR_INDEFINITE, "indefinite");
	/* long form with a leading zero: 30 83 00 03 8F */
	b[0] = 0x30; b[1] = 0x83; b[2] = 0x00;
	memcpy(b + 3, spki[0] + 2, n - 2);
	CHECK(dec_spki(b, n + 1) == FA_PKI_ERR_LENGTH_FORM, "leading zero length");
	/* AlgorithmIdentifier with long-form length 81 07 */
	memcpy(b, spki[0], 4);
	b[4] = 0x30; b[5] = 0x81; b[6] = 0x07;
	memcpy(b + 7, spki[0] + 6, n - 6);
	b[3] ++;
	CHECK(dec_spki(b, n + 1) == FA_PKI_ERR_LENGTH_FORM, "long form where short fits");
	/* NULL parameters */
	memcpy(b, spki[0], 4);
	b[4] = 0x30; b[5] = 0x09;
	memcpy(b + 6, spki[0] + 6, 7);
	b[13] = 0x05; b[14] = 0x00;
	memcpy(b + 15, spki[0] + 13, n - 13);
	b[3] += 2;
	CHECK(dec_spki(b, n + 2) == FA_PKI_ERR_PARAMS, "NULL parameters");
	/* unused bits */
	memcpy(b, spki[0], n);
	b[17] = 0x01;
	CHECK(dec_spki(b, n) == FA_PKI_ERR_BITSTRING, "unused bits");
	/* wrong key header */
	memcpy(b, spki[0], n);
	b[18] = 0x0A;
	CHECK(dec_spki(b, n) == FA_PKI_ERR_KEYHDR, "key header");
	/* unknown OID */
	memcpy(b, spki[0], n);
	b[12] = 0x0C;
	CHECK(dec_spki(b, n) == FA_PKI_ERR_OID, "unknown OID");
	/* PKCS#8: version 1, non-minimal version */
	n = p8_len[0];
	memcpy(b, p8[0], n);
	b[6] = 1;
	CHECK(dec_p8(b, n) == FA_PKI_ERR_VERSION, "version 1");
	memcpy(b, p8[0], 4);
	b[4] = 0x02; b[5] = 0x02; b[6] = 0x00; b[7] = 0x00;
	memcpy(b + 8, p8[0] + 7, n - 7);
	b[3] ++;
	CHECK(dec_p8(b, n + 1) == FA_PKI_ERR_INTEGER, "non-minimal INTEGER");
	/* attributes after the key */
	memcpy(b, p8[0], n);
	b[n] = 0xA0; b[n + 1] = 0x00;
	b[3] += 2;
	CHECK(dec_p8(b, n + 2) == FA_PKI_ERR_ATTRIBUTES, "attributes");
	/* FN-DSA key in the inner OCTET STRING layout, wrong length */
	memcpy(b, p8[2], p8_len[2]);
	b[p8_len[2] - 1] ^= 0;
	CHECK(dec_p8(b, p8_len[2] - 1) != 0, "fn-dsa truncated");
	/* round-3 appended public key with a wrong header */
	memcpy(b, p8[0], n);
	b[n - fa_pki_alg_pk_len(0)] = 0x0A;
	CHECK(dec_p8(b, n) == FA_PKI_ERR_KEYHDR, "appended pk header");
	/* PEM */
	{
		uint8_t pem[3200], der[2300];
		size_t pl, dl;
		int label;
		fa_pki_error e;

		fa_pki_pem_encode(pem, sizeof pem, &pl, FA_PKI_PEM_PUBLIC, spki[0],
			spki_len[0]);
		memcpy(b, pem, pl);
		b[26] = '\r';
		r = fa_pki_pem_decode(b, pl, &label, der, sizeof der, &dl, &e);
		CHECK(r == FA_PKI_ERR_PEM_LABEL || r == FA_PKI_ERR_PEM_LINE, "CR %d", r);
		memcpy(b, pem, pl);
		b[pl] = 'x';
		CHECK(fa_pki_pem_decode(b, pl + 1, &label, der, sizeof der, &dl, &e)
			== FA_PKI_ERR_PEM_LINE, "text after END");
		/* a short inner line: delete one character of line 2 */
		memcpy(b, pem, 27 + 10);
		memcpy(b + 37, pem + 38, pl - 38);
		r = fa_pki_pem_decode(b, pl - 1, &label, der, sizeof der, &dl, &e);
		CHECK(r == FA_PKI_ERR_PEM_LINE || r == FA_PKI_ERR_PEM_BASE64,
			"short line %d", r);
		CHECK(fa_pki_pem_decode((const uint8_t *)"-----BEGIN EC PRIVATE KEY-----\n",
			31, &label, der, sizeof der, &dl, &e) == FA_PKI_ERR_PEM_LABEL,
			"label");
		/* non-zero unused bits: "AB==" decodes, "AF==" has bits set */
		n = (size_t)snprintf((char *)s, sizeof s,
			"-----BEGIN PUBLIC KEY-----\nAF==\n-----END PUBLIC KEY-----\n");
		CHECK(fa_pki_pem_decode(s, n, &label, der, sizeof der, &dl, &e)
			== FA_PKI_ERR_PEM_BASE64, "unused bits");
		n = (size_t)snprintf((char *)s, sizeof s,
			"-----BEGIN PUBLIC KEY-----\nAA==\n-----END PRIVATE KEY-----\n");
		CHECK(fa_pki_pem_decode(s, n, &label, der, sizeof der, &dl, &e)
			== FA_PKI_ERR_PEM_END, "END label");
	}
}

static void test_mutations(long count)
{
	static uint8_t b[4500];
	long i, accepted = 0, bad = 0;

	for (i = 0; i < count; i ++) {
		int a = (int)(rnd() % 4), priv = (int)(rnd() & 1), m, k, r;
		const uint8_t *src = priv ? p8[a] : spki[a];
		size_t n = priv ? p8_len[a] : spki_len[a], pos;

		memcpy(b, src, n);
		for (k = 0, m = 1 + (int)(rnd() % 3); k < m && n > 0; k ++) {
			/* mutations near the structure (first 40 bytes) most of
			   the time */
			pos = (rnd() & 3) ? rnd() % (n < 40 ? n : 40) : rnd() % n;
			switch (rnd() % 5) {
			case 0: b[pos] ^= (uint8_t)(1u << (rnd() % 8)); break;
			case 1: b[pos] = (uint8_t)rnd(); break;
			case 2:
				if (n < sizeof b - 1) {
					memmove(b + pos + 1, b + pos, n - pos);
					b[pos] = (uint8_t)rnd();
					n ++;
				}
				break;
			case 3:
				if (n > 1) {
					memmove(b + pos, b + pos + 1, n - pos - 1);
					n --;
				}
				break;
			default: n = pos; break;
			}
		}
		r = decode_check(b, n, priv);
		if (r == 0) {
			accepted ++;
		}
		if (r <= -1000) {
			bad ++;
		}
	}
	CHECK(bad == 0, "%ld mutated inputs broke a property", bad);
	printf("mutations: %ld inputs, %ld accepted (canonical, re-encoded "
		"identically), %ld refused with a named code\n", count, accepted,
		count - accepted);
}

int main(void)
{
	const char *e = getenv("FA_PKI_MUTATIONS");
	long count = e != NULL ? atol(e) : 1000000;

	make_keys();
	test_genuine();
	test_named();
	test_mutations(count);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
