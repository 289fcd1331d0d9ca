/*
 * soc_smoke.c -- CI smoke test of the SoC firmware (soc, soc/fw/): the
 * host library and the firmware must agree byte for byte.
 *   1. PING: the firmware answers with the SoC and accelerator IDs;
 *   2. malformed requests (unknown op, a nonce of 39 bytes, a key of
 *      another degree, a truncated header, a bad magic) each get their
 *      error status, and the firmware keeps serving;
 *   3. VERIFY of a host-made Falcon-512 signature: valid; the same with
 *      one byte flipped: rejected;
 *   4. SIGN_DYN of the same message, nonce and sampler seed: the same
 *      bytes as the host library's signature;
 *   5. SIGN_TREE (expand + sign with the tree): the same bytes again. In
 *      the accelerator modes, the firmware's per-kernel counters (KSTATS)
 *      must show that the device did the sampling: SamplerZ calls in
 *      sign_dyn, one FFSAMPLING and one tree upload in sign_tree (a
 *      device that silently fell back would still give the right bytes);
 *      with --no-device-sampler (a configuration without SamplerZ and the
 *      ffSampling engine, soc/data/configs.json) the device must show
 *      FFT/NTT calls instead (the firmware samples in software).
 * Usage: soc_smoke [--sign-mode fw|accel|dma] [--verify-mode MODE]
 *                  [--no-device-sampler]
 * Exit 0 when every check passes; prints the cycle counts.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "falcon_accel.h"
#include "fa_rtl.h"
#include "soc_client.h"
#include "soc_proto.h"

#define LOGN 9

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
	if (!ok) {
		failures ++;
	}
}

/* calls of kernel k in the firmware's KSTATS table of the last operation */
static uint32_t kstat_calls(fa_soc *s, unsigned k);

static int call(fa_soc *s, unsigned op, unsigned logn, unsigned mode,
	const fa_soc_field *in, unsigned n, fa_soc_reply *r)
{
	char err[256];

	if (fa_soc_call(s, op, logn, mode, in, n, r, err, sizeof err) != 0) {
		printf("FAIL: link: %s\n", err);
		exit(1);
	}
	return (int)r->status;
}

static uint32_t kstat_calls(fa_soc *s, unsigned k)
{
	fa_soc_reply r;
	const uint8_t *p;

	call(s, FA_SOC_OP_KSTATS, 0, 0, NULL, 0, &r);
	if (r.status != FA_SOC_ST_OK || r.nfields != 1
		|| r.fields[0].len < 20 * (k + 1))
	{
		printf("FAIL: KSTATS reply\n");
		failures ++;
		return 0;
	}
	p = r.fields[0].p + 20 * k;
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16)
		| ((uint32_t)p[3] << 24);
}

int main(int argc, char **argv)
{
	static uint8_t sk[FA_PRIVKEY_SIZE(10)], pk[FA_PUBKEY_SIZE(LOGN)];
	static uint8_t pk10[FA_PUBKEY_SIZE(10)], sig[FA_SIG_MAXSIZE(LOGN)];
	static uint8_t tmp[FA_TMPSIZE_KEYGEN(10) + FA_TMPSIZE_SIGN_DYN(10)];
	static const uint8_t msg[] = "falcon-accel SoC smoke test";
	uint8_t seed[48], nonce[40], sseed[48];
	fa_shake256_ctx rng;
	fa_soc_field in[4];
	fa_soc_reply r;
	size_t sig_len, i;
	char err[256];
	fa_soc *s;
	int sign_mode = FA_SOC_MODE_FW, verify_mode = FA_SOC_MODE_FW, rc;
	int device_sampler = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < (size_t)argc; i ++) {
		if (strcmp(argv[i], "--sign-mode") == 0 && i + 1 < (size_t)argc) {
			sign_mode = fa_soc_mode_parse(argv[++ i]);
		} else if (strcmp(argv[i], "--verify-mode") == 0 && i + 1 < (size_t)argc) {
			verify_mode = fa_soc_mode_parse(argv[++ i]);
		} else if (strcmp(argv[i], "--no-device-sampler") == 0) {
			device_sampler = 0;
		} else {
			sign_mode = -1;
		}
		if (sign_mode < 0 || verify_mode < 0) {
			fprintf(stderr, "usage: soc_smoke [--sign-mode fw|accel|dma] "
				"[--verify-mode fw|accel|dma] [--no-device-sampler]\n");
			return 2;
		}
	}
	for (i = 0; i < 48; i ++) {
		seed[i] = (uint8_t)i;
		sseed[i] = (uint8_t)(0x80 + i);
	}
	for (i = 0; i < 40; i ++) {
		nonce[i] = (uint8_t)(0xC0 + i);
	}

	/* host reference: keys and signature */
	fa_shake256_init_prng_from_seed(&rng, seed, sizeof seed);
	rc = fa_keygen(NULL, &rng, LOGN, sk, FA_PRIVKEY_SIZE(LOGN), pk, sizeof pk,
		tmp, sizeof tmp);
	fa_shake256_init_prng_from_seed(&rng, sseed, sizeof sseed);
	sig_len = sizeof sig;
	if (rc == FA_OK) {
		rc = fa_sign_dyn_ex(NULL, nonce, &rng, sig, &sig_len,
			FA_SIG_COMPRESSED, sk, FA_PRIVKEY_SIZE(LOGN), msg, sizeof msg - 1,
			tmp, sizeof tmp);
	}
	/* a Falcon-1024 public key for the wrong-degree request */
	fa_shake256_init_prng_from_seed(&rng, seed, 16);
	if (rc == FA_OK) {
		static uint8_t sk10[FA_PRIVKEY_SIZE(10)];

		rc = fa_keygen(NULL, &rng, 10, sk10, sizeof sk10, pk10, sizeof pk10,
			tmp, sizeof tmp);
	}
	if (rc != FA_OK) {
		printf("FAIL: host library: %s\n", fa_strerror(rc));
		return 1;
	}

	s = fa_soc_open(err, sizeof err);
	if (s == NULL) {
		printf("FAIL: %s\n", err);
		return 1;
	}

	/* 1. ping */
	call(s, FA_SOC_OP_PING, 0, 0, NULL, 0, &r);
	check(r.status == FA_SOC_ST_OK && r.nfields == 1 && r.fields[0].len == 12
		&& memcmp(r.fields[0].p, "CCOS", 4) == 0
		&& memcmp(r.fields[0].p + 8, "CLAF", 4) == 0,
		"ping: SoC and accelerator IDs");

	/* 2. malformed requests */
	call(s, 99, LOGN, 0, NULL, 0, &r);
	check(r.status == FA_SOC_ST_BAD_OP, "unknown op -> BAD_OP");
	in[0].p = sk;
	in[0].len = FA_PRIVKEY_SIZE(LOGN);
	in[1].p = nonce;
	in[1].len = 39;
	in[2].p = sseed;
	in[2].len = sizeof sseed;
	in[3].p = msg;
	in[3].len = sizeof msg - 1;
	call(s, FA_SOC_OP_SIGN_DYN, LOGN, sign_mode, in, 4, &r);
	check(r.status == FA_SOC_ST_BAD_LENGTH && r.nfields == 0,
		"sign_dyn with a 39-byte nonce -> BAD_LENGTH");
	in[0].p = pk10;
	in[0].len = sizeof pk10;
	in[1].p = sig;
	in[1].len = (uint32_t)sig_len;
	in[2].p = msg;
	in[2].len = sizeof msg - 1;
	call(s, FA_SOC_OP_VERIFY, LOGN, verify_mode, in, 3, &r);
	check(r.status == FA_SOC_ST_BAD_DEGREE,
		"verify with a Falcon-1024 key at logn 9 -> BAD_DEGREE");
	{
		static const uint8_t shortreq[5] = { 0x53, 0x4F, 0x43, 0x51, 5 };
		static const uint8_t badmagic[12] = { 1, 2, 3, 4, 5, 0, 9, 0, 1 };

		if (fa_soc_raw(s, shortreq, sizeof shortreq, &r, err, sizeof err) != 0) {
			printf("FAIL: link: %s\n", err);
			return 1;
		}
		check(r.status == FA_SOC_ST_BAD_LENGTH, "5-byte request -> BAD_LENGTH");
		if (fa_soc_raw(s, badmagic, sizeof badmagic, &r, err, sizeof err) != 0) {
			printf("FAIL: link: %s\n", err);
			return 1;
		}
		check(r.status == FA_SOC_ST_BAD_MAGIC, "bad magic -> BAD_MAGIC");
	}

	/* 3. verify */
	in[0].p = pk;
	in[0].len = sizeof pk;
	call(s, FA_SOC_OP_VERIFY, LOGN, verify_mode, in, 3, &r);
	check(r.status == FA_SOC_ST_OK && r.lib_rc == FA_OK,
		"verify of the host's Falcon-512 signature: valid");
	printf("      verify (%s): %llu cycles\n", fa_soc_mode_name(verify_mode),
		(unsigned long long)r.cycles);
	sig[sig_len / 2] ^= 0x10;
	call(s, FA_SOC_OP_VERIFY, LOGN, verify_mode, in, 3, &r);
	check(r.status == FA_SOC_ST_OK && r.lib_rc != FA_OK,
		"verify of a signature with one bit flipped: rejected");
	sig[sig_len / 2] ^= 0x10;

	/* 4. sign */
	in[0].p = sk;
	in[0].len = FA_PRIVKEY_SIZE(LOGN);
	in[1].p = nonce;
	in[1].len = sizeof nonce;
	in[2].p = sseed;
	in[2].len = sizeof sseed;
	in[3].p = msg;
	in[3].len = sizeof msg - 1;
	call(s, FA_SOC_OP_SIGN_DYN, LOGN, sign_mode, in, 4, &r);
	check(r.status == FA_SOC_ST_OK && r.nfields == 1
		&& r.fields[0].len == sig_len
		&& memcmp(r.fields[0].p, sig, sig_len) == 0,
		"sign_dyn on the firmware: the host library's bytes");
	printf("      sign_dyn (%s): %llu cycles, %u accelerator calls\n",
		fa_soc_mode_name(sign_mode), (unsigned long long)r.cycles, r.kcalls);
	if (sign_mode != FA_SOC_MODE_FW && device_sampler) {
		uint32_t c = kstat_calls(s, FA_RTL_K_SAMPLERZ);

		check(c >= 2 * ((size_t)1 << LOGN),
			"sign_dyn: SamplerZ on the device (at least 2n samples)");
	} else if (sign_mode != FA_SOC_MODE_FW) {
		check(kstat_calls(s, FA_RTL_K_SAMPLERZ) == 0 && r.kcalls > 0,
			"sign_dyn: FFT/NTT on the device, SamplerZ in software");
	}

	/* 5. sign with the expanded key */
	call(s, FA_SOC_OP_SIGN_TREE, LOGN, sign_mode, in, 4, &r);
	check(r.status == FA_SOC_ST_OK && r.nfields == 1
		&& r.fields[0].len == sig_len
		&& memcmp(r.fields[0].p, sig, sig_len) == 0,
		"sign_tree on the firmware: the host library's bytes");
	printf("      sign_tree (%s): %llu cycles (expansion %llu), %u accelerator "
		"calls\n", fa_soc_mode_name(sign_mode), (unsigned long long)r.cycles,
		(unsigned long long)r.aux, r.kcalls);
	if (sign_mode != FA_SOC_MODE_FW && device_sampler) {
		check(kstat_calls(s, FA_RTL_K_FFSAMPLING) == 1
			&& kstat_calls(s, FA_RTL_K_FS_TREE) == 1,
			"sign_tree: one tree upload, one FFSAMPLING on the engine");
	}

	fa_soc_close(s);
	printf("soc_smoke: %s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
