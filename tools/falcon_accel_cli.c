/*
 * falcon_accel_cli.c -- the falcon-accel command-line tool: entry point
 * and the key/sign/verify subcommands (kat in cli_kat.c, bench in
 * bench.c). Exit codes: see cli.h.
 *
 * Files hold the library's encodings as raw bytes: private key
 * (FA_PRIVKEY_SIZE), public key (FA_PUBKEY_SIZE), detached signature
 * (header 0x30+logn or 0x50+logn, nonce, s2); keys may also be PKCS#8 /
 * SubjectPublicKeyInfo in DER or PEM (cli_read_key, keygen --format).
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
"  keygen   --degree 512|1024 [--seed HEX] [--format raw|der|pem]\n"
"           --sk FILE --pk FILE\n"
"  pubkey   --sk FILE --pk FILE\n"
"  sign     --sk FILE [--format compressed|padded|ct] [--in FILE] --out FILE\n"
"  verify   --pk FILE --sig FILE [--in FILE]\n"
"  keygen|sign|verify --scheme fn-dsa: FN-DSA (fn-dsa 0.4.0), options\n"
"           [--context HEX] [--prehash sha256|sha512] [--seed HEX]\n"
"  kat      --degree 512|1024 [--count K] --out FILE\n"
"  bench    [--json] [--threads N] [--runs R] [--degree 512|1024]\n"
"           [--scheme falcon|fn-dsa]\n"
"  kem keygen --level 512|768|1024 [--seed HEX] --dk FILE --ek FILE\n"
"  kem encaps --ek FILE --ct FILE --ss FILE\n"
"  kem decaps --dk FILE --ct FILE --ss FILE\n"
"  backends\n"
"  help\n"
"\n"
"Every command also takes --backend NAME (portable, avx2, rtl: see\n"
"'backends'); the default is $FALCON_ACCEL_BACKEND, else the fastest\n"
"available backend. --backend soc (the simulated SoC; kernel mode\n"
"$FALCON_ACCEL_SOC_MODE: dma by default, accel or fw) runs bench and\n"
"kat only; the other commands refuse it. The message is read from\n"
"stdin when --in is absent; '-' names stdin/stdout. Exit status: 0\n"
"success, 1 invalid signature, 2 usage, format or other error (one\n"
"line on stderr).\n"
"--scheme falcon (round 3) is the default. --sk and --pk files are\n"
"raw, DER or PEM (PKCS#8 / SubjectPublicKeyInfo; detected); keygen\n"
"--format writes them as raw (the default), der or pem.\n";

/* ------------------------------------------------------------------ */
/* FN-DSA (--scheme fn-dsa): files hold fn-dsa 0.4.0's encodings
   (falcon_accel.h "FN-DSA"): private key FA_FNDSA_PRIVKEY_SIZE, public
   key FA_FNDSA_PUBKEY_SIZE, signature FA_FNDSA_SIG_SIZE. */

/* --scheme: 1 for fn-dsa, 0 for falcon (the default). */
static int parse_scheme(const char *cmd, const char *s)
{
	if (s == NULL || strcmp(s, "falcon") == 0) {
		return 0;
	}
	if (strcmp(s, "fn-dsa") == 0) {
		return 1;
	}
	cli_fail(CLI_EXIT_ERROR, "%s: --scheme must be falcon or fn-dsa "
		"(got '%s')", cmd, s);
}

/* Options that exist only with --scheme fn-dsa. */
static void falcon_only(const char *cmd, const char *context,
	const char *prehash)
{
	if (context != NULL || prehash != NULL) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s is an FN-DSA option (add "
			"--scheme fn-dsa)", cmd,
			context != NULL ? "--context" : "--prehash");
	}
}

static int parse_prehash(const char *cmd, const char *s)
{
	if (s == NULL) {
		return FA_FNDSA_PH_NONE;
	}
	if (strcmp(s, "sha256") == 0) {
		return FA_FNDSA_PH_SHA256;
	}
	if (strcmp(s, "sha512") == 0) {
		return FA_FNDSA_PH_SHA512;
	}
	cli_fail(CLI_EXIT_ERROR, "%s: --prehash must be sha256 or sha512 "
		"(got '%s')", cmd, s);
}

/* --context HEX (0..255 bytes; "" or absent: empty). */
static uint8_t *parse_context(const char *cmd, const char *hex,
	size_t *len)
{
	uint8_t *c;

	*len = 0;
	if (hex == NULL || hex[0] == 0) {
		return cli_alloc(1);
	}
	c = cli_hex_arg(cmd, "--context", hex, len);
	if (*len > FA_FNDSA_CTX_MAX) {
		cli_fail(CLI_EXIT_ERROR, "%s: --context: %zu bytes, at most %u",
			cmd, *len, (unsigned)FA_FNDSA_CTX_MAX);
	}
	return c;
}

/* The degree of an FN-DSA object of `kind` from its header and length,
   or exit naming the file and what it is instead. */
static unsigned fndsa_check_object(const char *cmd, const char *opt,
	const char *path, const uint8_t *obj, size_t len, int kind)
{
	static const char *const what[] = {
		"public key", "private key", "signature"
	};
	static const unsigned hdr[] = { 0x00, 0x50, 0x30 };
	unsigned h, logn, k;
	size_t want;

	if (len == 0) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s %s: empty file", cmd, opt, path);
	}
	h = obj[0] & 0xF0;
	logn = obj[0] & 0x0F;
	if (h != hdr[kind]) {
		for (k = 0; k < 3; k ++) {
			if (h == hdr[k]) {
				cli_fail(CLI_EXIT_ERROR, "%s: %s %s: this is a %s "
					"(header 0x%02X), not a %s", cmd, opt,
					path, what[k], obj[0], what[kind]);
			}
		}
		cli_fail(CLI_EXIT_ERROR, "%s: %s %s: not an FN-DSA %s (header "
			"0x%02X)", cmd, opt, path, what[kind], obj[0]);
	}
	if (logn != 9 && logn != 10) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s %s: degree %u (header 0x%02X); "
			"FN-DSA-512 or FN-DSA-1024 expected", cmd, opt, path,
			1u << logn, obj[0]);
	}
	want = kind == CLI_PUBKEY ? FA_FNDSA_PUBKEY_SIZE(logn)
		: kind == CLI_PRIVKEY ? FA_FNDSA_PRIVKEY_SIZE(logn)
		: FA_FNDSA_SIG_SIZE(logn);
	if (len != want) {
		if (kind == CLI_PRIVKEY && len == FA_PRIVKEY_SIZE(logn)) {
			cli_fail(CLI_EXIT_ERROR, "%s: %s %s: this is a round-3 "
				"Falcon-%u private key (%zu bytes), not an FN-DSA "
				"key (use --scheme falcon)", cmd, opt, path,
				1u << logn, len);
		}
		if (kind == CLI_SIG && (len <= FA_SIG_COMPRESSED_MAXSIZE(logn)
			|| (h == 0x30 && len == FA_SIG_CT_SIZE(logn))))
		{
			cli_fail(CLI_EXIT_ERROR, "%s: %s %s: wrong encoded length "
				"%zu, expected %zu for FN-DSA-%u (a round-3 "
				"Falcon signature? use --scheme falcon)", cmd, opt,
				path, len, want, 1u << logn);
		}
		cli_fail(CLI_EXIT_ERROR, "%s: %s %s: wrong encoded length %zu, "
			"expected %zu for FN-DSA-%u", cmd, opt, path, len, want,
			1u << logn);
	}
	return logn;
}

/* A library error about the object of option opt. */
static void fndsa_fail_object(const char *cmd, const char *opt,
	const char *path, int err) __attribute__((noreturn));
static void fndsa_fail_object(const char *cmd, const char *opt,
	const char *path, int err)
{
	if (err == FA_ERR_SCHEME) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s %s: this is a round-3 Falcon "
			"%s, not an FN-DSA one (use --scheme falcon)", cmd, opt,
			path, strcmp(opt, "--sig") == 0 ? "signature" : "key");
	}
	cli_fail_object(cmd, opt, path, err);
}

static int fndsa_keygen(const char *degree, const char *seed_hex,
	const char *sk_path, const char *pk_path, const char *be_name,
	int kfmt)
{
	const fa_backend *be;
	uint8_t seed[32], *sk, *pk, *tmp;
	size_t sk_len, pk_len, tmp_len;
	unsigned logn;
	int rc;

	if (degree == NULL || sk_path == NULL || pk_path == NULL) {
		cli_fail(CLI_EXIT_ERROR,
			"keygen: --degree, --sk and --pk are required");
	}
	logn = cli_parse_degree(degree);
	be = cli_backend(be_name);
	cli_out_declare("keygen", "--sk", sk_path);
	cli_out_declare("keygen", "--pk", pk_path);
	if (seed_hex != NULL) {
		size_t len;
		uint8_t *b = cli_hex_arg("keygen", "--seed", seed_hex, &len);

		if (len != sizeof seed) {
			cli_fail(CLI_EXIT_ERROR, "keygen: --seed: %zu bytes; "
				"FN-DSA takes a 32-byte seed (64 hex digits)", len);
		}
		memcpy(seed, b, sizeof seed);
		free(b);
	} else {
		fa_shake256_ctx rng;

		if (fa_shake256_init_prng_from_system(&rng) != FA_OK) {
			cli_fail(CLI_EXIT_ERROR,
				"keygen: the OS random source failed");
		}
		fa_shake256_extract(&rng, seed, sizeof seed);
	}
	sk_len = FA_FNDSA_PRIVKEY_SIZE(logn);
	pk_len = FA_FNDSA_PUBKEY_SIZE(logn);
	tmp_len = FA_TMPSIZE_FNDSA_KEYGEN(logn);
	sk = cli_alloc(sk_len);
	pk = cli_alloc(pk_len);
	tmp = cli_alloc(tmp_len);
	rc = fa_fndsa_keygen_seed(be, seed, logn, sk, sk_len, pk, pk_len,
		tmp, tmp_len);
	memset(seed, 0, sizeof seed);
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "keygen: %s", fa_fndsa_strerror(rc));
	}
	cli_write_key(sk_path, kfmt, CLI_PRIVKEY, 1, sk, sk_len, pk, pk_len);
	cli_write_key(pk_path, kfmt, CLI_PUBKEY, 1, pk, pk_len, NULL, 0);
	memset(sk, 0, sk_len);
	free(sk);
	free(pk);
	free(tmp);
	return CLI_EXIT_OK;
}

/* The message, or its hash with --prehash (the CLI hashes it). */
static uint8_t *fndsa_message(const char *cmd, const char *in_path,
	int ph, size_t *len)
{
	uint8_t *msg = cli_read_arg(cmd, "--in", in_path, len);

	if (ph != FA_FNDSA_PH_NONE) {
		uint8_t *h = cli_alloc(64);

		fa_fndsa_prehash(h, ph, msg, *len);
		*len = (size_t)fa_fndsa_ph_size(ph);
		free(msg);
		return h;
	}
	return msg;
}

static int fndsa_sign(const char *sk_path, const char *in_path,
	const char *out_path, const char *be_name, const char *context,
	const char *prehash, const char *seed_hex)
{
	const fa_backend *be;
	uint8_t *sk, *msg, *ctx, *sig, *tmp, seed[40];
	size_t sk_len, msg_len, ctx_len, sig_len, tmp_len;
	unsigned logn;
	int ph, rc;

	ph = parse_prehash("sign", prehash);
	if (sk_path == NULL || out_path == NULL) {
		cli_fail(CLI_EXIT_ERROR, "sign: --sk and --out are required");
	}
	ctx = parse_context("sign", context, &ctx_len);
	if (seed_hex != NULL) {
		size_t len;
		uint8_t *b = cli_hex_arg("sign", "--seed", seed_hex, &len);

		if (len != sizeof seed) {
			cli_fail(CLI_EXIT_ERROR, "sign: --seed: %zu bytes; FN-DSA "
				"signing takes a 40-byte seed (80 hex digits)", len);
		}
		memcpy(seed, b, sizeof seed);
		free(b);
	} else {
		fa_shake256_ctx rng;

		if (fa_shake256_init_prng_from_system(&rng) != FA_OK) {
			cli_fail(CLI_EXIT_ERROR,
				"sign: the OS random source failed");
		}
		fa_shake256_extract(&rng, seed, sizeof seed);
	}
	be = cli_backend(be_name);
	cli_out_declare("sign", "--out", out_path);
	sk = cli_read_key("sign", "--sk", sk_path, CLI_PRIVKEY, 1, &sk_len,
		NULL);
	logn = fndsa_check_object("sign", "--sk", sk_path, sk, sk_len,
		CLI_PRIVKEY);
	msg = fndsa_message("sign", in_path, ph, &msg_len);
	sig_len = FA_FNDSA_SIG_SIZE(logn);
	tmp_len = FA_TMPSIZE_FNDSA_SIGN(logn);
	sig = cli_alloc(sig_len);
	tmp = cli_alloc(tmp_len);
	rc = fa_fndsa_sign_seed(be, seed, sig, sig_len, sk, sk_len, ctx,
		ctx_len, ph, msg, msg_len, tmp, tmp_len);
	memset(seed, 0, sizeof seed);
	if (cli_is_decode_error(rc)) {
		fndsa_fail_object("sign", "--sk", sk_path, rc);
	}
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "sign: %s", fa_fndsa_strerror(rc));
	}
	cli_write_file(out_path, sig, sig_len, 0);
	memset(sk, 0, sk_len);
	free(sk);
	free(msg);
	free(ctx);
	free(sig);
	free(tmp);
	return CLI_EXIT_OK;
}

static int fndsa_verify(const char *pk_path, const char *sig_path,
	const char *in_path, const char *be_name, const char *context,
	const char *prehash)
{
	const fa_backend *be;
	uint8_t *pk, *sig, *msg, *ctx, *tmp, mu[64];
	size_t pk_len, sig_len, msg_len, ctx_len, tmp_len;
	unsigned logn, sig_logn;
	int ph, rc;

	ph = parse_prehash("verify", prehash);
	if (pk_path == NULL || sig_path == NULL) {
		cli_fail(CLI_EXIT_ERROR, "verify: --pk and --sig are required");
	}
	if (in_path == NULL && strcmp(sig_path, "-") == 0) {
		cli_fail(CLI_EXIT_ERROR,
			"verify: signature and message cannot both be stdin");
	}
	ctx = parse_context("verify", context, &ctx_len);
	be = cli_backend(be_name);
	pk = cli_read_key("verify", "--pk", pk_path, CLI_PUBKEY, 1, &pk_len,
		NULL);
	logn = fndsa_check_object("verify", "--pk", pk_path, pk, pk_len,
		CLI_PUBKEY);
	/* the key alone (its errors named as the key's) */
	rc = fa_fndsa_compute_mu(mu, pk, pk_len, NULL, 0, FA_FNDSA_PH_NONE,
		NULL, 0);
	if (rc != FA_OK) {
		fndsa_fail_object("verify", "--pk", pk_path, rc);
	}
	sig = cli_read_arg("verify", "--sig", sig_path, &sig_len);
	if (sig_len > 0 && (sig[0] & 0xF0) == 0x50 && (sig[0] & 0x0F) == logn
		&& sig_len == FA_SIG_CT_SIZE(logn))
	{
		fndsa_fail_object("verify", "--sig", sig_path, FA_ERR_SCHEME);
	}
	sig_logn = fndsa_check_object("verify", "--sig", sig_path, sig,
		sig_len, CLI_SIG);
	if (sig_logn != logn) {
		cli_fail(CLI_EXIT_ERROR, "verify: --sig %s is an FN-DSA-%u "
			"signature, --pk %s an FN-DSA-%u public key", sig_path,
			1u << sig_logn, pk_path, 1u << logn);
	}
	msg = fndsa_message("verify", in_path, ph, &msg_len);
	tmp_len = FA_TMPSIZE_FNDSA_VERIFY(logn);
	tmp = cli_alloc(tmp_len);
	rc = fa_fndsa_verify(be, sig, sig_len, pk, pk_len, ctx, ctx_len, ph,
		msg, msg_len, tmp, tmp_len);
	if (cli_is_decode_error(rc)) {
		fndsa_fail_object("verify", "--sig", sig_path, rc);
	}
	free(pk);
	free(sig);
	free(msg);
	free(ctx);
	free(tmp);
	if (rc == FA_ERR_BADSIG) {
		cli_fail(CLI_EXIT_BADSIG, "verify: invalid signature");
	}
	if (rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "verify: %s", fa_fndsa_strerror(rc));
	}
	puts("OK");
	return CLI_EXIT_OK;
}

/* Key pair from an explicit seed (SHAKE256(seed) is the RNG) or from the
   OS random source. */
int cli_cmd_keygen(int argc, char **argv)
{
	const char *seed_hex = NULL, *sk_path = NULL, *pk_path = NULL;
	const char *be_name = NULL, *degree = NULL, *scheme = NULL;
	const char *format = NULL;
	fa_shake256_ctx rng;
	const fa_backend *be;
	unsigned logn;
	uint8_t *sk, *pk, *tmp;
	size_t sk_len, pk_len, tmp_len;
	int rc;

	const cli_opt opts[] = {
		{ "--degree", &degree }, { "--seed", &seed_hex },
		{ "--sk", &sk_path }, { "--pk", &pk_path },
		{ "--backend", &be_name }, { "--scheme", &scheme },
		{ "--format", &format }, { NULL, NULL }
	};
	int kfmt;

	cli_parse_opts(argc, argv, opts);
	kfmt = cli_parse_key_format("keygen", format);
	if (parse_scheme("keygen", scheme)) {
		return fndsa_keygen(degree, seed_hex, sk_path, pk_path, be_name,
			kfmt);
	}
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
	cli_write_key(sk_path, kfmt, CLI_PRIVKEY, 0, sk, sk_len, pk, pk_len);
	cli_write_key(pk_path, kfmt, CLI_PUBKEY, 0, pk, pk_len, NULL, 0);
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
	sk = cli_read_key("pubkey", "--sk", sk_path, CLI_PRIVKEY, 0, &sk_len,
		NULL);
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
	const char *be_name = NULL, *format_name = NULL, *scheme = NULL;
	const char *context = NULL, *prehash = NULL, *seed_hex = NULL;
	int format = FA_SIG_COMPRESSED, rc;
	const fa_backend *be;
	fa_shake256_ctx rng;
	uint8_t *sk, *msg, *sig, *tmp;
	size_t sk_len, msg_len, sig_len, tmp_len;
	unsigned logn;

	const cli_opt opts[] = {
		{ "--sk", &sk_path }, { "--format", &format_name },
		{ "--in", &in_path }, { "--out", &out_path },
		{ "--backend", &be_name }, { "--scheme", &scheme },
		{ "--context", &context }, { "--prehash", &prehash },
		{ "--seed", &seed_hex }, { NULL, NULL }
	};

	cli_parse_opts(argc, argv, opts);
	if (parse_scheme("sign", scheme)) {
		if (format_name != NULL) {
			cli_fail(CLI_EXIT_ERROR, "sign: --format is a round-3 "
				"option (FN-DSA signatures have one format)");
		}
		return fndsa_sign(sk_path, in_path, out_path, be_name, context,
			prehash, seed_hex);
	}
	falcon_only("sign", context, prehash);
	if (seed_hex != NULL) {
		cli_fail(CLI_EXIT_ERROR, "sign: --seed is an FN-DSA option "
			"(add --scheme fn-dsa)");
	}
	if (format_name != NULL) {
		format = parse_format(format_name);
	}
	if (sk_path == NULL || out_path == NULL) {
		cli_fail(CLI_EXIT_ERROR, "sign: --sk and --out are required");
	}
	be = cli_backend(be_name);
	cli_out_declare("sign", "--out", out_path);
	sk = cli_read_key("sign", "--sk", sk_path, CLI_PRIVKEY, 0, &sk_len,
		NULL);
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
	const char *be_name = NULL, *scheme = NULL, *context = NULL;
	const char *prehash = NULL;
	const fa_backend *be;
	uint8_t *pk, *sig, *msg, *tmp;
	size_t pk_len, sig_len, msg_len, tmp_len;
	unsigned logn, sig_logn;
	int rc;

	const cli_opt opts[] = {
		{ "--pk", &pk_path }, { "--sig", &sig_path },
		{ "--in", &in_path }, { "--backend", &be_name },
		{ "--scheme", &scheme }, { "--context", &context },
		{ "--prehash", &prehash }, { NULL, NULL }
	};

	cli_parse_opts(argc, argv, opts);
	if (parse_scheme("verify", scheme)) {
		return fndsa_verify(pk_path, sig_path, in_path, be_name,
			context, prehash);
	}
	falcon_only("verify", context, prehash);
	if (pk_path == NULL || sig_path == NULL) {
		cli_fail(CLI_EXIT_ERROR, "verify: --pk and --sig are required");
	}
	if (in_path == NULL && strcmp(sig_path, "-") == 0) {
		cli_fail(CLI_EXIT_ERROR,
			"verify: signature and message cannot both be stdin");
	}
	be = cli_backend(be_name);
	pk = cli_read_key("verify", "--pk", pk_path, CLI_PUBKEY, 0, &pk_len,
		NULL);
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
#if FA_HAVE_SOC
	if (cli_soc_selected(be_name)) {
		sel = NULL;
	} else
#endif
	sel = cli_backend(be_name);
	for (i = 0; i < n; i ++) {
		const fa_backend *be = fa_backend_at(i);

		printf("%-12s %s%s%s\n", fa_backend_name(be),
			fa_backend_available(be) ? "available" : "unavailable",
			be == def ? " (default)" : "",
			be == sel && be != def ? " (selected)" : "");
	}
#if FA_HAVE_SOC
	{
		char d[1024];
		cli_soc_describe(d, sizeof d);
		printf("%-12s %s%s\n", "soc", d, sel == NULL ? " (selected)" : "");
	}
#endif
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
