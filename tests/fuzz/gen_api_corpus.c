/*
 * gen_api_corpus.c -- writes the seed corpus of fuzz_api
 * (tests/fuzz/corpus/api/): for every degree, a genuine private key
 * (mode 0), a genuine public key and signature in each format (mode 2),
 * mode 1 / 3 selectors, an expanded-key header (mode 4), and the crafted
 * key of issue 12. Deterministic (fixed seeds).
 * Usage: gen_api_corpus DIR   (make fuzz-corpus)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "falcon_accel.h"

static uint8_t tmp[FA_TMPSIZE_KEYGEN(10) + FA_TMPSIZE_SIGN_DYN(10)];
static uint64_t ek_store[(FA_EXPANDED_KEY_SIZE(10) + 7) / 8];

static void put(const char *dir, const char *name, const uint8_t *d,
	size_t n)
{
	char path[1024];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fp = fopen(path, "wb");
	if (fp == NULL || fwrite(d, 1, n, fp) != n) {
		perror(path);
		exit(1);
	}
	fclose(fp);
}

int main(int argc, char **argv)
{
	static uint8_t sk[FA_PRIVKEY_SIZE(10)], pk[FA_PUBKEY_SIZE(10)];
	static uint8_t sig[FA_SIG_MAXSIZE(10)], buf[8192];
	static const uint8_t crafted[13] = { 0x52, 0x52, 0x52, 0x52, 0x52,
		0x52, 0x52, 0x00, 0x00, 0x00, 0x3a, 0x52, 0x52 };
	unsigned logn;
	char name[64];
	size_t n;
	int fmt;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	/* mode 0: the crafted key */
	buf[0] = 0;
	buf[1] = 13;
	buf[2] = 0;
	memcpy(buf + 3, crafted, 13);
	buf[16] = 1;
	memcpy(buf + 17, "msg", 3);
	put(argv[1], "m0_issue12_crafted_logn2", buf, 20);
	for (logn = 1; logn <= 10; logn ++) {
		fa_shake256_ctx rng;
		size_t pl = FA_PUBKEY_SIZE(logn), kl = FA_PRIVKEY_SIZE(logn);

		fa_shake256_init_prng_from_seed(&rng, &logn, sizeof logn);
		if (fa_keygen(NULL, &rng, logn, sk, kl, pk, pl, tmp,
			sizeof tmp) != FA_OK)
		{
			return 1;
		}
		/* mode 0: genuine key, then format and message */
		buf[0] = 0;
		buf[1] = (uint8_t)kl;
		buf[2] = (uint8_t)(kl >> 8);
		memcpy(buf + 3, sk, kl);
		buf[3 + kl] = (uint8_t)(1 + logn % 3);
		memcpy(buf + 4 + kl, "message", 7);
		snprintf(name, sizeof name, "m0_genuine_logn%u", logn);
		put(argv[1], name, buf, 11 + kl);
		/* mode 2: pk, signature in each format, message */
		for (fmt = 1; fmt <= 3; fmt ++) {
			size_t sl = sizeof sig;

			if (fa_sign_dyn(NULL, &rng, sig, &sl, fmt, sk, kl, "msg",
				3, tmp, sizeof tmp) != FA_OK)
			{
				return 1;
			}
			n = 0;
			buf[n ++] = 2;
			buf[n ++] = (uint8_t)pl;
			buf[n ++] = (uint8_t)(pl >> 8);
			memcpy(buf + n, pk, pl);
			n += pl;
			buf[n ++] = (uint8_t)sl;
			buf[n ++] = (uint8_t)(sl >> 8);
			memcpy(buf + n, sig, sl);
			n += sl;
			buf[n ++] = 0;
			memcpy(buf + n, "msg", 3);
			n += 3;
			snprintf(name, sizeof name, "m2_sig_fmt%d_logn%u", fmt,
				logn);
			put(argv[1], name, buf, n);
		}
		/* modes 1 and 3: logn selector (9 and 10: 240 / 248) */
		buf[1] = (uint8_t)(logn == 10 ? 255 : logn == 9 ? 254
			: logn - 1);
		buf[2] = (uint8_t)logn;
		buf[3] = (uint8_t)logn;
		buf[4] = 2;
		buf[5] = 5;
		buf[6] = 0;
		buf[7] = 0x40;
		buf[8] = 0;
		buf[9] = 1;
		buf[10] = 0;
		buf[0] = 1;
		snprintf(name, sizeof name, "m1_patched_logn%u", logn);
		put(argv[1], name, buf, 11);
		buf[0] = 3;
		snprintf(name, sizeof name, "m3_patched_sig_logn%u", logn);
		put(argv[1], name, buf, 11);
		/* mode 4: a genuine expanded key header, body truncated */
		if (fa_expand_privkey(NULL, ek_store, sizeof ek_store, sk, kl,
			tmp, sizeof tmp) != FA_OK)
		{
			return 1;
		}
		buf[0] = 4;
		memcpy(buf + 1, ek_store, 64);
		snprintf(name, sizeof name, "m4_ek_header_logn%u", logn);
		put(argv[1], name, buf, 65);
	}
	return 0;
}
