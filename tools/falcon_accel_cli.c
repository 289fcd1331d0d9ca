/*
 * falcon_accel_cli.c -- the falcon-accel command-line tool: entry point
 * and the key/sign/verify subcommands (kat in cli_kat.c, bench in
 * bench.c). Exit codes: see cli.h.
 *
 * Files hold the library's encodings as raw bytes: private key
 * (FA_PRIVKEY_SIZE), public key (FA_PUBKEY_SIZE), detached signature
 * (header 0x30+logn or 0x50+logn, nonce, s2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#if FA_HAVE_SOC
#include "cli_soc.h"
#endif

static const char usage_text[] =
"usage: falcon-accel [--backend NAME] COMMAND [OPTIONS]\n"
"       falcon-accel --version | --help\n"
"\n"
"commands:\n"
"  keygen   --degree 512|1024 [--seed HEX] --sk FILE --pk FILE\n"
"  pubkey   --sk FILE --pk FILE\n"
"  sign     --sk FILE [--format compressed|padded|ct] [--in FILE] --out FILE\n"
"  verify   --pk FILE --sig FILE [--in FILE]\n"
"  kat      --degree 512|1024 [--count K] --out FILE\n"
"  bench    [--json] [--threads N] [--runs R] [--degree 512|1024]\n"
"  kem keygen --level 512|768|1024 [--seed HEX] --dk FILE --ek FILE\n"
"  kem encaps --ek FILE --ct FILE --ss FILE\n"
"  kem decaps --dk FILE --ct FILE --ss FILE\n"
"  backends\n"
"  help\n"
"\n"
"Every command also takes --backend NAME (portable, avx2, rtl: see\n"
"'backends'); the default is $FALCON_ACCEL_BACKEND, else the fastest\n"
"available backend. The message is read from stdin when --in is\n"
"absent; '-' names stdin/stdout. Exit status: 0 success, 1 invalid\n"
"signature, 2 usage, format or other error (one line on stderr).\n";

/* Key pair from an explicit seed (SHAKE256(seed) is the RNG) or from the
   OS random source. */
int cli_cmd_keygen(int argc, char **argv)
{
	const char *seed_hex = NULL, *sk_path = NULL, *pk_path = NULL;
	const char *be_name = NULL, *degree = NULL;
	fa_shake256_ctx rng;
	const fa_backend *be;
	unsigned logn;
	uint8_t *sk, *pk, *tmp;
	size_t sk_len, pk_len, tmp_len;
	int rc;

	const cli_opt opts[] = {
		{ "--degree", &degree }, { "--seed", &seed_hex },
		{ "--sk", &sk_path }, { "--pk", &pk_path },
		{ "--backend", &be_name }, { NULL, NULL }
	};

	cli_parse_opts(argc, argv, opts);
	if (degree == NULL || sk_path == NULL || pk_path == NULL) {
		cli_fail(CLI_EXIT_ERROR,
			"keygen: --degree, --sk and --pk are required");
	}
	logn = cli_parse_degree(degree);
	be = cli_backend(be_name);
	cli_out_declare("keygen", "--sk", sk_path);
	cli_out_declare("keygen", "--pk", pk_path);

	if (seed_hex != NULL) {
		size_t seed_len;
		uint8_t *seed = cli_hex_arg("keygen", "--seed", seed_hex,
			&seed_len);

		fa_shake256_init_prng_from_seed(&rng, seed, seed_len);
		free(seed);
	} else if (fa_shake256_init_prng_from_system(&rng) != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "keygen: the OS random source failed");
	}

	sk_len = FA_PRIVKEY_SIZE(logn);
	pk_len = FA_PUBKEY_SIZE(logn);
	tmp_len = FA_TMPSIZE_KEYGEN(logn);
	sk = cli_alloc(sk_len);
	pk = cli_alloc(pk_len);
	tmp = cli_alloc(tmp_len);
	rc = fa_keygen(be, &rng, logn, sk, sk_len, pk, pk_len, tmp, tmp_len);
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "keygen: %s", fa_strerror(rc));
	}
	cli_write_file(sk_path, sk, sk_len, 1);
	cli_write_file(pk_path, pk, pk_len, 0);
	memset(sk, 0, sk_len);
	memset(tmp, 0, tmp_len);
	free(sk);
	free(pk);
	free(tmp);
	return CLI_EXIT_OK;
}

int cli_cmd_pubkey(int argc, char **argv)
{
	const char *sk_path = NULL, *pk_path = NULL, *be_name = NULL;
	uint8_t *sk, *pk, *tmp;
	size_t sk_len, pk_len, tmp_len;
	unsigned logn;
	int rc;

	const cli_opt opts[] = {
		{ "--sk", &sk_path }, { "--pk", &pk_path },
		{ "--backend", &be_name }, { NULL, NULL }
	};

	cli_parse_opts(argc, argv, opts);
	if (sk_path == NULL || pk_path == NULL) {
		cli_fail(CLI_EXIT_ERROR, "pubkey: --sk and --pk are required");
	}
	/* fa_make_public takes no backend, but a named one must exist. */
	(void)cli_backend(be_name);
	cli_out_declare("pubkey", "--pk", pk_path);
	sk = cli_read_arg("pubkey", "--sk", sk_path, &sk_len);
	logn = cli_check_object("pubkey", "--sk", sk_path, sk, sk_len,
		CLI_PRIVKEY);
	pk_len = FA_PUBKEY_SIZE(logn);
	tmp_len = FA_TMPSIZE_MAKEPUB(logn);
	pk = cli_alloc(pk_len);
	tmp = cli_alloc(tmp_len);
	rc = fa_make_public(pk, pk_len, sk, sk_len, tmp, tmp_len);
	if (rc != FA_OK) {
		cli_fail_object("pubkey", "--sk", sk_path, rc);
	}
	cli_write_file(pk_path, pk, pk_len, 0);
	memset(sk, 0, sk_len);
	free(sk);
	free(pk);
	free(tmp);
	return CLI_EXIT_OK;
}

static int parse_format(const char *s)
{
	if (strcmp(s, "compressed") == 0) {
		return FA_SIG_COMPRESSED;
	}
	if (strcmp(s, "padded") == 0) {
		return FA_SIG_PADDED;
	}
	if (strcmp(s, "ct") == 0) {
		return FA_SIG_CT;
	}
	cli_fail(CLI_EXIT_ERROR,
		"sign: --format must be compressed, padded or ct (got '%s')", s);
}

static size_t max_sig_size(unsigned logn)
{
	size_t m = FA_SIG_COMPRESSED_MAXSIZE(logn);

	if (FA_SIG_PADDED_SIZE(logn) > m) {
		m = FA_SIG_PADDED_SIZE(logn);
	}
	if (FA_SIG_CT_SIZE(logn) > m) {
		m = FA_SIG_CT_SIZE(logn);
	}
	return m;
}

int cli_cmd_sign(int argc, char **argv)
{
	const char *sk_path = NULL, *in_path = NULL, *out_path = NULL;
	const char *be_name = NULL, *format_name = NULL;
	int format = FA_SIG_COMPRESSED, rc;
	const fa_backend *be;
	fa_shake256_ctx rng;
	uint8_t *sk, *msg, *sig, *tmp;
	size_t sk_len, msg_len, sig_len, tmp_len;
	unsigned logn;

	const cli_opt opts[] = {
		{ "--sk", &sk_path }, { "--format", &format_name },
		{ "--in", &in_path }, { "--out", &out_path },
		{ "--backend", &be_name }, { NULL, NULL }
	};

	cli_parse_opts(argc, argv, opts);
	if (format_name != NULL) {
		format = parse_format(format_name);
	}
	if (sk_path == NULL || out_path == NULL) {
		cli_fail(CLI_EXIT_ERROR, "sign: --sk and --out are required");
	}
	be = cli_backend(be_name);
	cli_out_declare("sign", "--out", out_path);
	sk = cli_read_arg("sign", "--sk", sk_path, &sk_len);
	logn = cli_check_object("sign", "--sk", sk_path, sk, sk_len,
		CLI_PRIVKEY);
	msg = cli_read_arg("sign", "--in", in_path, &msg_len);
	if (fa_shake256_init_prng_from_system(&rng) != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "sign: the OS random source failed");
	}
	sig_len = max_sig_size(logn);
	tmp_len = FA_TMPSIZE_SIGN_DYN(logn);
	sig = cli_alloc(sig_len);
	tmp = cli_alloc(tmp_len);
	rc = fa_sign_dyn(be, &rng, sig, &sig_len, format, sk, sk_len,
		msg, msg_len, tmp, tmp_len);
	if (cli_is_decode_error(rc)) {
		cli_fail_object("sign", "--sk", sk_path, rc);
	}
	if (rc == FA_ERR_SIGN_ATTEMPTS) {
		cli_fail(CLI_EXIT_ERROR, "sign: --sk %s: %s (%u attempts); "
			"the key cannot sign", sk_path, fa_strerror(rc),
			(unsigned)FA_SIGN_MAX_ATTEMPTS);
	}
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "sign: %s", fa_strerror(rc));
	}
	cli_write_file(out_path, sig, sig_len, 0);
	memset(sk, 0, sk_len);
	memset(tmp, 0, tmp_len);
	free(sk);
	free(msg);
	free(sig);
	free(tmp);
	return CLI_EXIT_OK;
}

int cli_cmd_verify(int argc, char **argv)
{
	const char *pk_path = NULL, *sig_path = NULL, *in_path = NULL;
	const char *be_name = NULL;
	const fa_backend *be;
	uint8_t *pk, *sig, *msg, *tmp;
	size_t pk_len, sig_len, msg_len, tmp_len;
	unsigned logn, sig_logn;
	int rc;

	const cli_opt opts[] = {
		{ "--pk", &pk_path }, { "--sig", &sig_path },
		{ "--in", &in_path }, { "--backend", &be_name }, { NULL, NULL }
	};

	cli_parse_opts(argc, argv, opts);
	if (pk_path == NULL || sig_path == NULL) {
		cli_fail(CLI_EXIT_ERROR, "verify: --pk and --sig are required");
	}
	if (in_path == NULL && strcmp(sig_path, "-") == 0) {
		cli_fail(CLI_EXIT_ERROR,
			"verify: signature and message cannot both be stdin");
	}
	be = cli_backend(be_name);
	pk = cli_read_arg("verify", "--pk", pk_path, &pk_len);
	logn = cli_check_object("verify", "--pk", pk_path, pk, pk_len,
		CLI_PUBKEY);
	sig = cli_read_arg("verify", "--sig", sig_path, &sig_len);
	sig_logn = cli_check_object("verify", "--sig", sig_path, sig, sig_len,
		CLI_SIG);
	if (sig_logn != logn) {
		cli_fail(CLI_EXIT_ERROR, "verify: --sig %s is a Falcon-%u "
			"signature, --pk %s a Falcon-%u public key", sig_path,
			1u << sig_logn, pk_path, 1u << logn);
	}
	msg = cli_read_arg("verify", "--in", in_path, &msg_len);
	tmp_len = FA_TMPSIZE_VERIFY(logn);
	tmp = cli_alloc(tmp_len);
	rc = fa_verify(be, sig, sig_len, 0, pk, pk_len, msg, msg_len,
		tmp, tmp_len);
	if (cli_is_decode_error(rc)) {
		/* Which of the two does not decode: the key is decoded alone. */
		fa_prepared_pubkey pp;

		if (fa_pubkey_prepare(be, &pp, pk, pk_len) != FA_OK) {
			cli_fail_object("verify", "--pk", pk_path, rc);
		}
		cli_fail_object("verify", "--sig", sig_path, rc);
	}
	free(pk);
	free(sig);
	free(msg);
	free(tmp);
	if (rc == FA_ERR_BADSIG) {
		cli_fail(CLI_EXIT_BADSIG, "verify: invalid signature");
	}
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "verify: %s", fa_strerror(rc));
	}
	puts("OK");
	return CLI_EXIT_OK;
}

/* Registered backends, whether each is available here, the default;
   a backend chosen by --backend or $FALCON_ACCEL_BACKEND must exist,
   as for every other command, and is marked "(selected)". */
static int cmd_backends(int argc, char **argv)
{
	const char *be_name = NULL;
	const cli_opt opts[] = { { "--backend", &be_name }, { NULL, NULL } };
	size_t i, n = fa_backend_count();
	const fa_backend *def = fa_backend_default(), *sel;

	cli_parse_opts(argc, argv, opts);
	sel = cli_backend(be_name);
	for (i = 0; i < n; i ++) {
		const fa_backend *be = fa_backend_at(i);

		printf("%-12s %s%s%s\n", fa_backend_name(be),
			fa_backend_available(be) ? "available" : "unavailable",
			be == def ? " (default)" : "",
			be == sel && be != def ? " (selected)" : "");
	}
	return CLI_EXIT_OK;
}

/* The command's exit code; its output files are published (cli.h) when
   it succeeded. */
static int finish(int rc)
{
	if (rc == CLI_EXIT_OK) {
		cli_out_commit();
	}
	return rc;
}

int main(int argc, char **argv)
{
	int i = 1;
	const char *cmd;

	/* Global options before the subcommand. */
	while (i < argc && strncmp(argv[i], "--backend", 9) == 0) {
		if (argv[i][9] == '=') {
			cli_global_backend = argv[i] + 10;
			i ++;
		} else if (argv[i][9] == 0 && i + 1 < argc) {
			cli_global_backend = argv[i + 1];
			i += 2;
		} else {
			cli_fail(CLI_EXIT_ERROR, "--backend needs a value");
		}
	}
	if (i >= argc) {
		cli_fail(CLI_EXIT_ERROR,
			"missing command (try 'falcon-accel help')");
	}
	cmd = argv[i];
	argc -= i;
	argv += i;
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0
		|| strcmp(cmd, "-h") == 0)
	{
		fputs(usage_text, stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("falcon-accel %s (Falcon round 3, %s floating point)\n",
			FA_CLI_VERSION, FA_FPEMU ? "emulated" : "native");
		return CLI_EXIT_OK;
	}
#if FA_HAVE_SOC
	/* --backend soc: whole operations on the simulated SoC (cli_soc.c) */
	if (strcmp(cmd, "bench") == 0 && cli_soc_requested(argc, argv)) {
		return finish(cli_soc_cmd_bench(argc, argv));
	}
#endif
	if (strcmp(cmd, "keygen") == 0) {
		return finish(cli_cmd_keygen(argc, argv));
	}
	if (strcmp(cmd, "pubkey") == 0) {
		return finish(cli_cmd_pubkey(argc, argv));
	}
	if (strcmp(cmd, "sign") == 0) {
		return finish(cli_cmd_sign(argc, argv));
	}
	if (strcmp(cmd, "verify") == 0) {
		return finish(cli_cmd_verify(argc, argv));
	}
	if (strcmp(cmd, "kat") == 0) {
		return finish(cli_cmd_kat(argc, argv));
	}
	if (strcmp(cmd, "bench") == 0) {
		return finish(cli_cmd_bench(argc, argv));
	}
	if (strcmp(cmd, "backends") == 0) {
		return finish(cmd_backends(argc, argv));
	}
	if (strcmp(cmd, "kem") == 0) {   /* ML-KEM, tools/cli_kem.c */
		return finish(cli_cmd_kem(argc, argv));
	}
	cli_fail(CLI_EXIT_ERROR, "unknown command '%s' (try 'falcon-accel "
		"help')", cmd);
}
