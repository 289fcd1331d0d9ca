/*
 * cli_kem.c -- the `kem` subcommand of falcon-accel: ML-KEM (FIPS 203)
 * key generation, encapsulation and decapsulation on files holding the
 * raw FIPS 203 byte strings.
 *
 *   kem keygen --level 512|768|1024 [--seed HEX] --dk FILE --ek FILE
 *   kem encaps --ek FILE --ct FILE --ss FILE
 *   kem decaps --dk FILE --ct FILE --ss FILE
 *
 * --seed is the 64-byte seed d || z of ML-KEM.KeyGen_internal (128 hex
 * digits); without it d and z come from the OS. The level of encaps and
 * decaps is read from the key's length (the three levels have distinct
 * sizes). Exit codes as every subcommand (cli.h): 0 success, 2 usage or
 * format error with one line on stderr naming the culprit. Secrets (dk,
 * ss) are written with mode 0600; the two outputs of keygen and encaps
 * are published together or not at all (cli_out_commit, cli.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "falcon_accel_kem.h"

static const unsigned kem_levels[3] = { 512, 768, 1024 };

/* Level whose size (by `size_of`) equals len, or 0. */
static unsigned
level_by_size(size_t len, int what)
{
	unsigned i;

	for (i = 0; i < 3; i ++) {
		unsigned lv = kem_levels[i];
		size_t want = what == 0 ? FA_KEM_EK_SIZE(lv)
			: what == 1 ? FA_KEM_DK_SIZE(lv) : FA_KEM_CT_SIZE(lv);

		if (len == want) {
			return lv;
		}
	}
	return 0;
}

static int
kem_keygen(int argc, char **argv)
{
	const char *level_s = NULL, *seed_hex = NULL, *dk_path = NULL;
	const char *ek_path = NULL, *be_name = NULL;
	const cli_opt opts[] = {
		{ "--level", &level_s }, { "--seed", &seed_hex },
		{ "--dk", &dk_path }, { "--ek", &ek_path },
		{ "--backend", &be_name }, { NULL, NULL }
	};
	uint8_t ek[FA_KEM_EK_MAXSIZE], dk[FA_KEM_DK_MAXSIZE];
	uint8_t *tmp;
	unsigned level;
	const fa_backend *be;
	int rc;

	cli_parse_opts(argc, argv, opts);
	if (level_s == NULL || dk_path == NULL || ek_path == NULL) {
		cli_fail(CLI_EXIT_ERROR,
			"kem keygen: --level, --dk and --ek are required");
	}
	if (strcmp(level_s, "512") == 0) {
		level = 512;
	} else if (strcmp(level_s, "768") == 0) {
		level = 768;
	} else if (strcmp(level_s, "1024") == 0) {
		level = 1024;
	} else {
		cli_fail(CLI_EXIT_ERROR,
			"kem keygen: --level must be 512, 768 or 1024 (got '%s')",
			level_s);
	}
	be = cli_backend(be_name);
	cli_out_declare("kem keygen", "--dk", dk_path);
	cli_out_declare("kem keygen", "--ek", ek_path);
	tmp = cli_alloc(FA_KEM_TMPSIZE_MAX);
	if (seed_hex != NULL) {
		uint8_t seed[64];

		if (strlen(seed_hex) != 128
			|| cli_hex_decode(seed, seed_hex) != 64)
		{
			cli_fail(CLI_EXIT_ERROR, "kem keygen: --seed must be 128 "
				"hex digits (d || z, 64 bytes)");
		}
		rc = fa_kem_keygen_derand(be, level, ek, sizeof ek, dk,
			sizeof dk, seed, seed + 32, tmp, FA_KEM_TMPSIZE_MAX);
		memset(seed, 0, sizeof seed);
	} else {
		rc = fa_kem_keygen(be, level, ek, sizeof ek, dk, sizeof dk,
			tmp, FA_KEM_TMPSIZE_MAX);
	}
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "kem keygen: %s", rc == FA_ERR_RANDOM
			? "the OS random source failed" : fa_strerror(rc));
	}
	cli_write_file(dk_path, dk, FA_KEM_DK_SIZE(level), 1);
	cli_write_file(ek_path, ek, FA_KEM_EK_SIZE(level), 0);
	memset(dk, 0, sizeof dk);
	memset(tmp, 0, FA_KEM_TMPSIZE_MAX);
	free(tmp);
	return CLI_EXIT_OK;
}

static int
kem_encaps(int argc, char **argv)
{
	const char *ek_path = NULL, *ct_path = NULL, *ss_path = NULL;
	const char *be_name = NULL;
	const cli_opt opts[] = {
		{ "--ek", &ek_path }, { "--ct", &ct_path }, { "--ss", &ss_path },
		{ "--backend", &be_name }, { NULL, NULL }
	};
	uint8_t ct[FA_KEM_CT_MAXSIZE], ss[32];
	uint8_t *ek, *tmp;
	size_t ek_len;
	unsigned level;
	const fa_backend *be;
	int rc;

	cli_parse_opts(argc, argv, opts);
	if (ek_path == NULL || ct_path == NULL || ss_path == NULL) {
		cli_fail(CLI_EXIT_ERROR,
			"kem encaps: --ek, --ct and --ss are required");
	}
	be = cli_backend(be_name);
	cli_out_declare("kem encaps", "--ct", ct_path);
	cli_out_declare("kem encaps", "--ss", ss_path);
	ek = cli_read_file(ek_path, &ek_len);
	level = level_by_size(ek_len, 0);
	if (level == 0) {
		cli_fail(CLI_EXIT_ERROR, "kem encaps: --ek %s: not an ML-KEM "
			"encapsulation key (%zu bytes; 800, 1184 or 1568 expected)",
			ek_path, ek_len);
	}
	tmp = cli_alloc(FA_KEM_TMPSIZE_MAX);
	rc = fa_kem_encaps(be, level, ct, sizeof ct, ss, ek, ek_len, tmp,
		FA_KEM_TMPSIZE_MAX);
	if (rc == FA_ERR_COEFF_RANGE) {
		cli_fail(CLI_EXIT_ERROR, "kem encaps: --ek %s: invalid encapsulation "
			"key, a coefficient is not reduced mod q (modulus check)",
			ek_path);
	}
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "kem encaps: %s", rc == FA_ERR_RANDOM
			? "the OS random source failed" : fa_strerror(rc));
	}
	cli_write_file(ct_path, ct, FA_KEM_CT_SIZE(level), 0);
	cli_write_file(ss_path, ss, 32, 1);
	memset(ss, 0, sizeof ss);
	memset(tmp, 0, FA_KEM_TMPSIZE_MAX);
	free(tmp);
	free(ek);
	return CLI_EXIT_OK;
}

static int
kem_decaps(int argc, char **argv)
{
	const char *dk_path = NULL, *ct_path = NULL, *ss_path = NULL;
	const char *be_name = NULL;
	const cli_opt opts[] = {
		{ "--dk", &dk_path }, { "--ct", &ct_path }, { "--ss", &ss_path },
		{ "--backend", &be_name }, { NULL, NULL }
	};
	uint8_t ss[32];
	uint8_t *dk, *ct, *tmp;
	size_t dk_len, ct_len;
	unsigned level;
	const fa_backend *be;
	int rc;

	cli_parse_opts(argc, argv, opts);
	if (dk_path == NULL || ct_path == NULL || ss_path == NULL) {
		cli_fail(CLI_EXIT_ERROR,
			"kem decaps: --dk, --ct and --ss are required");
	}
	be = cli_backend(be_name);
	cli_out_declare("kem decaps", "--ss", ss_path);
	dk = cli_read_file(dk_path, &dk_len);
	level = level_by_size(dk_len, 1);
	if (level == 0) {
		cli_fail(CLI_EXIT_ERROR, "kem decaps: --dk %s: not an ML-KEM "
			"decapsulation key (%zu bytes; 1632, 2400 or 3168 expected)",
			dk_path, dk_len);
	}
	ct = cli_read_file(ct_path, &ct_len);
	if (ct_len != FA_KEM_CT_SIZE(level)) {
		cli_fail(CLI_EXIT_ERROR, "kem decaps: --ct %s: not an ML-KEM-%u "
			"ciphertext (%zu bytes, %u expected)", ct_path, level,
			ct_len, FA_KEM_CT_SIZE(level));
	}
	tmp = cli_alloc(FA_KEM_TMPSIZE_MAX);
	rc = fa_kem_decaps(be, level, ss, ct, ct_len, dk, dk_len, tmp,
		FA_KEM_TMPSIZE_MAX);
	if (rc == FA_ERR_KEY) {
		cli_fail(CLI_EXIT_ERROR, "kem decaps: --dk %s: invalid decapsulation "
			"key, the stored H(ek) does not match (hash check)", dk_path);
	}
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "kem decaps: %s", fa_strerror(rc));
	}
	cli_write_file(ss_path, ss, 32, 1);
	memset(ss, 0, sizeof ss);
	memset(dk, 0, dk_len);
	memset(tmp, 0, FA_KEM_TMPSIZE_MAX);
	free(tmp);
	free(dk);
	free(ct);
	return CLI_EXIT_OK;
}

int
cli_cmd_kem(int argc, char **argv)
{
	if (argc < 2) {
		cli_fail(CLI_EXIT_ERROR,
			"kem: missing operation (keygen, encaps or decaps)");
	}
	/* argv[1] names the operation in the option parser's messages */
	if (strcmp(argv[1], "keygen") == 0) {
		argv[1] = (char *)"kem keygen";
		return kem_keygen(argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "encaps") == 0) {
		argv[1] = (char *)"kem encaps";
		return kem_encaps(argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "decaps") == 0) {
		argv[1] = (char *)"kem decaps";
		return kem_decaps(argc - 1, argv + 1);
	}
	cli_fail(CLI_EXIT_ERROR, "kem: unknown operation '%s' (keygen, "
		"encaps or decaps)", argv[1]);
}
