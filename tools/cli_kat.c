/*
 * cli_kat.c -- `falcon-accel kat`: the NIST PQC known-answer file
 * (PQCgenKAT_sign procedure, Falcon round-3 crypto_sign format).
 *
 * Procedure, record i = 0..K-1:
 *   master DRBG = init(00 01 02 ... 2F);
 *   seed_i = master(48), then msg_i = master(33*(i+1))   (for all i first)
 *   DRBG = init(seed_i);
 *   keygen:  SHAKE256(DRBG(48)) is the keygen RNG;
 *   signing: nonce = DRBG(40), SHAKE256(DRBG(48)) is the sampler RNG,
 *            compressed s2 encoding.
 * The "sm" field is the signed message of the round-3 API:
 *   L (2 bytes, big-endian) || nonce (40) || msg || 0x20+logn || s2 body,
 *   with L = 1 + |s2 body|, so smlen = 2 + 40 + mlen + L.
 * Our detached compressed signature is 0x30+logn || nonce || s2 body;
 * the body is the same bytes.
 *
 * Each record is formatted in memory and appended to the output, which
 * is published when the whole file is written (cli_out_commit, cli.h).
 */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kat_drbg.h"
#if FA_HAVE_SOC
#include "cli_soc.h"
#endif

#define KAT_SEED_LEN  48
#define KAT_MAX_COUNT 1000

/* "name = HEX\n" in upper case, as the NIST files. */
static void put_hex_line(FILE *f, const char *name, const uint8_t *x,
	size_t len)
{
	static const char digits[] = "0123456789ABCDEF";
	size_t i;

	fprintf(f, "%s = ", name);
	for (i = 0; i < len; i ++) {
		putc(digits[x[i] >> 4], f);
		putc(digits[x[i] & 15], f);
	}
	putc('\n', f);
}

typedef struct {
	unsigned logn;
	int soc;                 /* the SoC firmware does every step */
	const fa_backend *be;
	uint8_t *sk, *pk, *sig, *sm, *tmp;
	size_t sk_len, pk_len, sig_max, sm_max, tmp_len;
} kat_ctx;

/* Largest signed message of the round-3 API (crypto_sign's esig buffer:
   CRYPTO_BYTES - 2 - 40 bytes for the header and the body). */
static size_t kat_max_esig(unsigned logn)
{
	return logn == 9 ? 690 - 42 : 1330 - 42;
}

/*
 * One record: keygen and sign from seed_i; writes sk, pk and sm into the
 * context. Returns smlen. Exits (code 2) if the library fails or the
 * signature does not verify.
 */
static size_t kat_record(kat_ctx *c, unsigned count,
	const uint8_t seed[KAT_SEED_LEN], const uint8_t *msg, size_t mlen)
{
	fa_kat_drbg drbg;
	fa_shake256_ctx rng;
	uint8_t buf48[48], nonce[FA_NONCE_SIZE];
	size_t sig_len, body_len, esig_len, pos;
	int rc;

	fa_kat_drbg_init(&drbg, seed);

#if FA_HAVE_SOC
	if (c->soc) {
		/* same DRBG draws; keygen, both signings and verify run on the
		   firmware (cli_soc.c) */
		uint8_t kseed[48];

		fa_kat_drbg_random(&drbg, kseed, 48);
		fa_kat_drbg_random(&drbg, nonce, sizeof nonce);
		fa_kat_drbg_random(&drbg, buf48, 48);
		sig_len = cli_soc_kat_record(c->logn, count, kseed, nonce, buf48,
			msg, mlen, c->sk, c->pk, c->sig, c->sig_max);
		goto encode;
	}
#endif
	fa_kat_drbg_random(&drbg, buf48, 48);
	fa_shake256_init_prng_from_seed(&rng, buf48, 48);
	rc = fa_keygen(c->be, &rng, c->logn, c->sk, c->sk_len,
		c->pk, c->pk_len, c->tmp, c->tmp_len);
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "kat: record %u: keygen: %s", count,
			fa_strerror(rc));
	}

	fa_kat_drbg_random(&drbg, nonce, sizeof nonce);
	fa_kat_drbg_random(&drbg, buf48, 48);
	fa_shake256_init_prng_from_seed(&rng, buf48, 48);
	sig_len = c->sig_max;
	rc = fa_sign_dyn_ex(c->be, nonce, &rng, c->sig, &sig_len,
		FA_SIG_COMPRESSED, c->sk, c->sk_len, msg, mlen,
		c->tmp, c->tmp_len);
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "kat: record %u: sign: %s", count,
			fa_strerror(rc));
	}
	if (sig_len <= 1 + FA_NONCE_SIZE || c->sig[0] != 0x30 + c->logn
		|| memcmp(c->sig + 1, nonce, FA_NONCE_SIZE) != 0)
	{
		cli_fail(CLI_EXIT_ERROR, "kat: record %u: unexpected "
			"signature layout (header 0x%02X, length %zu)", count,
			c->sig[0], sig_len);
	}
	rc = fa_verify(c->be, c->sig, sig_len, FA_SIG_COMPRESSED,
		c->pk, c->pk_len, msg, mlen, c->tmp, c->tmp_len);
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "kat: record %u: the signature does "
			"not verify: %s", count, fa_strerror(rc));
	}

	/* The same randomness through the expanded key (LDL tree) must give
	   the same signature. */
	{
		size_t ek_len = FA_EXPANDED_KEY_SIZE(c->logn), tsig_len = c->sig_max;
		uint8_t *ek = malloc(ek_len), *tsig = malloc(c->sig_max);

		if (ek == NULL || tsig == NULL) {
			cli_fail(CLI_EXIT_ERROR, "kat: out of memory");
		}
		rc = fa_expand_privkey(c->be, ek, ek_len, c->sk, c->sk_len,
			c->tmp, c->tmp_len);
		fa_shake256_init_prng_from_seed(&rng, buf48, 48);
		if (rc == FA_OK) {
			rc = fa_sign_tree_ex(c->be, nonce, &rng, tsig, &tsig_len,
				FA_SIG_COMPRESSED, ek, msg, mlen, c->tmp, c->tmp_len);
		}
		if (rc != FA_OK || tsig_len != sig_len
			|| memcmp(tsig, c->sig, sig_len) != 0)
		{
			cli_fail(CLI_EXIT_ERROR, "kat: record %u: signing with the "
				"expanded key differs from dynamic signing", count);
		}
		free(ek);
		free(tsig);
	}

#if FA_HAVE_SOC
encode:
#endif
	if (sig_len <= 1 + FA_NONCE_SIZE || c->sig[0] != 0x30 + c->logn) {
		cli_fail(CLI_EXIT_ERROR, "kat: record %u: unexpected signature "
			"layout", count);
	}
	body_len = sig_len - 1 - FA_NONCE_SIZE;
	esig_len = 1 + body_len;
	if (esig_len > kat_max_esig(c->logn)) {
		cli_fail(CLI_EXIT_ERROR, "kat: record %u: signature of %zu "
			"bytes exceeds the round-3 API buffer", count, esig_len);
	}
	pos = 0;
	c->sm[pos ++] = (uint8_t)(esig_len >> 8);
	c->sm[pos ++] = (uint8_t)esig_len;
	memcpy(c->sm + pos, nonce, FA_NONCE_SIZE);
	pos += FA_NONCE_SIZE;
	memcpy(c->sm + pos, msg, mlen);
	pos += mlen;
	c->sm[pos ++] = (uint8_t)(0x20 + c->logn);
	memcpy(c->sm + pos, c->sig + 1 + FA_NONCE_SIZE, body_len);
	pos += body_len;
	return pos;
}

int cli_cmd_kat(int argc, char **argv)
{
	const char *out_path = NULL, *be_name = NULL, *degree = NULL;
	const char *count_str = NULL;
	unsigned count = 100, i;
	kat_ctx c;
	fa_kat_drbg master;
	uint8_t entropy[48], *seeds, **msgs;
	char head[32];
	int out, hlen;

	const cli_opt opts[] = {
		{ "--degree", &degree }, { "--count", &count_str },
		{ "--out", &out_path }, { "--backend", &be_name }, { NULL, NULL }
	};

	cli_parse_opts(argc, argv, opts);
	if (count_str != NULL) {
		count = (unsigned)cli_parse_uint("--count", count_str, 1,
			KAT_MAX_COUNT);
	}
	if (degree == NULL || out_path == NULL) {
		cli_fail(CLI_EXIT_ERROR, "kat: --degree and --out are required");
	}
	c.logn = cli_parse_degree(degree);
#if FA_HAVE_SOC
	c.soc = cli_soc_selected(be_name);
#else
	c.soc = 0;
#endif
	c.be = c.soc ? NULL : cli_backend(be_name);
	cli_out_declare("kat", "--out", out_path);

	/* All seeds and messages from the master DRBG, in file order. */
	for (i = 0; i < 48; i ++) {
		entropy[i] = (uint8_t)i;
	}
	fa_kat_drbg_init(&master, entropy);
	seeds = cli_alloc((size_t)count * KAT_SEED_LEN);
	msgs = cli_alloc((size_t)count * sizeof *msgs);
	for (i = 0; i < count; i ++) {
		size_t mlen = 33 * (size_t)(i + 1);

		fa_kat_drbg_random(&master, seeds + KAT_SEED_LEN * i,
			KAT_SEED_LEN);
		msgs[i] = cli_alloc(mlen);
		fa_kat_drbg_random(&master, msgs[i], mlen);
	}

	c.sk_len = FA_PRIVKEY_SIZE(c.logn);
	c.pk_len = FA_PUBKEY_SIZE(c.logn);
	c.sig_max = FA_SIG_COMPRESSED_MAXSIZE(c.logn);
	c.sm_max = 2 + FA_NONCE_SIZE + 33 * (size_t)count + c.sig_max;
	c.tmp_len = FA_TMPSIZE_KEYGEN(c.logn);
	if (FA_TMPSIZE_SIGN_DYN(c.logn) > c.tmp_len) {
		c.tmp_len = FA_TMPSIZE_SIGN_DYN(c.logn);
	}
	if (FA_TMPSIZE_VERIFY(c.logn) > c.tmp_len) {
		c.tmp_len = FA_TMPSIZE_VERIFY(c.logn);
	}
	c.sk = cli_alloc(c.sk_len);
	c.pk = cli_alloc(c.pk_len);
	c.sig = cli_alloc(c.sig_max);
	c.sm = cli_alloc(c.sm_max);
	c.tmp = cli_alloc(c.tmp_len);

	out = cli_out_open(out_path, 0);
	hlen = snprintf(head, sizeof head, "# Falcon-%u\n\n", 1u << c.logn);
	cli_out_append(out, head, (size_t)hlen);
	for (i = 0; i < count; i ++) {
		size_t mlen = 33 * (size_t)(i + 1);
		size_t smlen = kat_record(&c, i, seeds + KAT_SEED_LEN * i,
			msgs[i], mlen);
		char *rec = NULL;
		size_t rec_len = 0;
		FILE *f = open_memstream(&rec, &rec_len);

		if (f == NULL) {
			cli_fail(CLI_EXIT_ERROR, "kat: out of memory");
		}
		fprintf(f, "count = %u\n", i);
		put_hex_line(f, "seed", seeds + KAT_SEED_LEN * i,
			KAT_SEED_LEN);
		fprintf(f, "mlen = %zu\n", mlen);
		put_hex_line(f, "msg", msgs[i], mlen);
		put_hex_line(f, "pk", c.pk, c.pk_len);
		put_hex_line(f, "sk", c.sk, c.sk_len);
		fprintf(f, "smlen = %zu\n", smlen);
		put_hex_line(f, "sm", c.sm, smlen);
		putc('\n', f);
		if (ferror(f) || fclose(f) != 0) {
			cli_fail(CLI_EXIT_ERROR, "kat: out of memory");
		}
		cli_out_append(out, rec, rec_len);
		free(rec);
		free(msgs[i]);
	}
	cli_out_close(out);
	free(seeds);
	free(msgs);
	free(c.sk);
	free(c.pk);
	free(c.sig);
	free(c.sm);
	free(c.tmp);
	return CLI_EXIT_OK;
}
