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

static const char usage_text[] =
"usage: falcon-accel [--backend NAME] COMMAND [OPTIONS]\n"
"\n"
"commands:\n"
"  keygen --degree 512|1024 [--seed HEX] --sk FILE --pk FILE\n"
"  pubkey --sk FILE --pk FILE\n"
"  sign   --sk FILE [--format compressed|padded|ct] [--in FILE] --out FILE\n"
"  verify --pk FILE --sig FILE [--in FILE]\n"
"  kat    --degree 512|1024 [--count K] --out FILE\n"
"  bench  [--json] [--threads N] [--runs R] [--degree 512|1024]\n"
"  backends\n"
"  help\n"
"\n"
"Every command also takes --backend NAME; the default is\n"
"$FALCON_ACCEL_BACKEND, else the fastest available backend.\n"
"The message is read from stdin when --in is absent; '-' names\n"
"stdin/stdout. Exit status: 0 success, 1 invalid signature,\n"
"2 usage, format or other error.\n";

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

	if (seed_hex != NULL) {
		uint8_t *seed = cli_alloc(strlen(seed_hex) / 2 + 1);
		long seed_len = cli_hex_decode(seed, seed_hex);

		if (seed_len <= 0) {
			cli_fail(CLI_EXIT_ERROR,
				"keygen: --seed must be a non-empty hex string");
		}
		fa_shake256_init_prng_from_seed(&rng, seed, (size_t)seed_len);
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

/* Degree of an encoded key/signature, or exit 2 naming `what`. */
static unsigned object_logn(const uint8_t *obj, size_t len, const char *cmd,
	const char *what)
{
	int logn = fa_get_logn(obj, len);

	if (logn < 0) {
		cli_fail(CLI_EXIT_ERROR, "%s: invalid %s: %s", cmd, what,
			fa_strerror(logn));
	}
	if (logn < FA_LOGN_MIN || logn > FA_LOGN_MAX) {
		cli_fail(CLI_EXIT_ERROR, "%s: invalid %s", cmd, what);
	}
	return (unsigned)logn;
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
	sk = cli_read_file(sk_path, &sk_len);
	logn = object_logn(sk, sk_len, "pubkey", "private key");
	pk_len = FA_PUBKEY_SIZE(logn);
	tmp_len = FA_TMPSIZE_MAKEPUB(logn);
	pk = cli_alloc(pk_len);
	tmp = cli_alloc(tmp_len);
	rc = fa_make_public(pk, pk_len, sk, sk_len, tmp, tmp_len);
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "pubkey: invalid private key: %s",
			fa_strerror(rc));
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
	sk = cli_read_file(sk_path, &sk_len);
	logn = object_logn(sk, sk_len, "sign", "private key");
	msg = cli_read_file(in_path, &msg_len);
	if (fa_shake256_init_prng_from_system(&rng) != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "sign: the OS random source failed");
	}
	sig_len = max_sig_size(logn);
	tmp_len = FA_TMPSIZE_SIGN_DYN(logn);
	sig = cli_alloc(sig_len);
	tmp = cli_alloc(tmp_len);
	rc = fa_sign_dyn(be, &rng, sig, &sig_len, format, sk, sk_len,
		msg, msg_len, tmp, tmp_len);
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
	unsigned logn;
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
	pk = cli_read_file(pk_path, &pk_len);
	logn = object_logn(pk, pk_len, "verify", "public key");
	sig = cli_read_file(sig_path, &sig_len);
	msg = cli_read_file(in_path, &msg_len);
	tmp_len = FA_TMPSIZE_VERIFY(logn);
	tmp = cli_alloc(tmp_len);
	rc = fa_verify(be, sig, sig_len, 0, pk, pk_len, msg, msg_len,
		tmp, tmp_len);
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

static int cmd_backends(void)
{
	size_t i, n = fa_backend_count();
	const fa_backend *def = fa_backend_default();

	for (i = 0; i < n; i ++) {
		const fa_backend *be = fa_backend_at(i);

		printf("%-12s %s%s\n", fa_backend_name(be),
			fa_backend_available(be) ? "available" : "unavailable",
			be == def ? " (default)" : "");
	}
	return CLI_EXIT_OK;
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
	if (strcmp(cmd, "keygen") == 0) {
		return cli_cmd_keygen(argc, argv);
	}
	if (strcmp(cmd, "pubkey") == 0) {
		return cli_cmd_pubkey(argc, argv);
	}
	if (strcmp(cmd, "sign") == 0) {
		return cli_cmd_sign(argc, argv);
	}
	if (strcmp(cmd, "verify") == 0) {
		return cli_cmd_verify(argc, argv);
	}
	if (strcmp(cmd, "kat") == 0) {
		return cli_cmd_kat(argc, argv);
	}
	if (strcmp(cmd, "bench") == 0) {
		return cli_cmd_bench(argc, argv);
	}
	if (strcmp(cmd, "backends") == 0) {
		return cmd_backends();
	}
	cli_fail(CLI_EXIT_ERROR, "unknown command '%s' (try 'falcon-accel "
		"help')", cmd);
}
