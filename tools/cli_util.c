/*
 * cli_util.c -- file, hex, option and backend helpers of the
 * falcon-accel tool (see cli.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *cli_global_backend = NULL;

void cli_fail(int code, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("falcon-accel: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

void *cli_alloc(size_t len)
{
	void *p = malloc(len == 0 ? 1 : len);

	if (p == NULL) {
		cli_fail(CLI_EXIT_ERROR, "out of memory (%zu bytes)", len);
	}
	return p;
}

static int is_stdio(const char *path)
{
	return path == NULL || strcmp(path, "-") == 0;
}

/* How an option's file is named in messages: "--pk FILE", or the
   plain file name when no option is known. */
static void file_label(char *buf, size_t len, const char *opt,
	const char *path)
{
	const char *p = is_stdio(path) ? "(stdin)" : path;

	if (opt != NULL) {
		snprintf(buf, len, "%s %s", opt, p);
	} else {
		snprintf(buf, len, "%s", p);
	}
}

static uint8_t *read_all(const char *cmd, const char *opt, const char *path,
	size_t *len)
{
	FILE *f = is_stdio(path) ? stdin : fopen(path, "rb");
	size_t cap = 4096, n = 0;
	uint8_t *buf;
	char label[512];

	file_label(label, sizeof label, opt, path);
	if (f == NULL) {
		if (cmd != NULL) {
			cli_fail(CLI_EXIT_ERROR, "%s: %s: cannot open: %s", cmd,
				label, strerror(errno));
		}
		cli_fail(CLI_EXIT_ERROR, "cannot open %s: %s", path,
			strerror(errno));
	}
	buf = cli_alloc(cap);
	for (;;) {
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (n < cap) {
			if (ferror(f)) {
				cli_fail(CLI_EXIT_ERROR, "cannot read %s",
					is_stdio(path) ? "stdin" : path);
			}
			break;
		}
		cap *= 2;
		buf = realloc(buf, cap);
		if (buf == NULL) {
			cli_fail(CLI_EXIT_ERROR, "out of memory reading %s",
				is_stdio(path) ? "stdin" : path);
		}
	}
	if (f != stdin) {
		fclose(f);
	}
	*len = n;
	return buf;
}

uint8_t *cli_read_file(const char *path, size_t *len)
{
	return read_all(NULL, NULL, path, len);
}

uint8_t *cli_read_arg(const char *cmd, const char *opt, const char *path,
	size_t *len)
{
	return read_all(cmd, opt, path, len);
}

static const char *kind_name(int kind)
{
	switch (kind) {
	case CLI_PUBKEY:  return "public key";
	case CLI_PRIVKEY: return "private key";
	default:          return "signature";
	}
}

/*
 * Headers: 0x00+logn public key; 0x50+logn private key, or signature in
 * the constant-time format (told apart by length); 0x30+logn signature,
 * compressed or padded. logn in [FA_LOGN_MIN, FA_LOGN_MAX].
 */
unsigned cli_check_object(const char *cmd, const char *opt,
	const char *path, const uint8_t *obj, size_t len, int kind)
{
	char label[512];
	unsigned h, t, logn, n;
	const char *want = kind_name(kind);

	file_label(label, sizeof label, opt, path);
	if (len == 0) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s: empty file, expected a Falcon "
			"%s", cmd, label, want);
	}
	h = obj[0];
	t = h & 0xF0;
	logn = h & 0x0F;
	if ((t != 0x00 && t != 0x30 && t != 0x50)
		|| logn < FA_LOGN_MIN || logn > FA_LOGN_MAX)
	{
		cli_fail(CLI_EXIT_ERROR, "%s: %s: not a Falcon %s (header byte "
			"0x%02X)", cmd, label, want, h);
	}
	n = 1u << logn;
	/* What the header says the object is, when it is not `kind`. */
	if (t == 0x00 && kind != CLI_PUBKEY) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s: this is a public key (header "
			"0x%02X, Falcon-%u), not a %s", cmd, label, h, n, want);
	}
	if (t == 0x30 && kind != CLI_SIG) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s: this is a signature (header "
			"0x%02X, Falcon-%u), not a %s", cmd, label, h, n, want);
	}
	if (t == 0x50 && kind == CLI_PUBKEY) {
		if (len == FA_SIG_CT_SIZE(logn)) {
			cli_fail(CLI_EXIT_ERROR, "%s: %s: this is a signature "
				"(constant-time format, header 0x%02X, Falcon-%u), "
				"not a public key", cmd, label, h, n);
		}
		cli_fail(CLI_EXIT_ERROR, "%s: %s: this is a private key (header "
			"0x%02X, Falcon-%u), not a public key (falcon-accel pubkey "
			"derives it)", cmd, label, h, n);
	}
	if (t == 0x50 && kind == CLI_PRIVKEY && len != FA_PRIVKEY_SIZE(logn)
		&& len == FA_SIG_CT_SIZE(logn))
	{
		cli_fail(CLI_EXIT_ERROR, "%s: %s: this is a signature "
			"(constant-time format, header 0x%02X, Falcon-%u), not a "
			"private key", cmd, label, h, n);
	}
	if (t == 0x50 && kind == CLI_SIG && len != FA_SIG_CT_SIZE(logn)
		&& len == FA_PRIVKEY_SIZE(logn))
	{
		cli_fail(CLI_EXIT_ERROR, "%s: %s: this is a private key (header "
			"0x%02X, Falcon-%u), not a signature", cmd, label, h, n);
	}

	/* The right kind: its length. */
	switch (kind) {
	case CLI_PUBKEY:
		if (len != FA_PUBKEY_SIZE(logn)) {
			cli_fail(CLI_EXIT_ERROR, "%s: %s: wrong encoded length %zu, "
				"expected %u for Falcon-%u", cmd, label, len,
				(unsigned)FA_PUBKEY_SIZE(logn), n);
		}
		break;
	case CLI_PRIVKEY:
		if (len != FA_PRIVKEY_SIZE(logn)) {
			cli_fail(CLI_EXIT_ERROR, "%s: %s: wrong encoded length %zu, "
				"expected %u for Falcon-%u", cmd, label, len,
				(unsigned)FA_PRIVKEY_SIZE(logn), n);
		}
		break;
	default:
		if (t == 0x50 && len != FA_SIG_CT_SIZE(logn)) {
			cli_fail(CLI_EXIT_ERROR, "%s: %s: wrong encoded length %zu, "
				"expected %u for Falcon-%u (constant-time format)",
				cmd, label, len, (unsigned)FA_SIG_CT_SIZE(logn), n);
		}
		if (t == 0x30 && (len < 2 + FA_NONCE_SIZE
			|| len > FA_SIG_COMPRESSED_MAXSIZE(logn)))
		{
			cli_fail(CLI_EXIT_ERROR, "%s: %s: wrong encoded length %zu, "
				"expected %u to %u for Falcon-%u (compressed or padded "
				"format)", cmd, label, len, 2 + FA_NONCE_SIZE,
				(unsigned)FA_SIG_COMPRESSED_MAXSIZE(logn), n);
		}
		break;
	}
	return logn;
}

void cli_fail_object(const char *cmd, const char *opt, const char *path,
	int err)
{
	char label[512];

	file_label(label, sizeof label, opt, path);
	cli_fail(CLI_EXIT_ERROR, "%s: %s: %s", cmd, label, fa_strerror(err));
}

int cli_is_decode_error(int err)
{
	switch (err) {
	case FA_ERR_FORMAT:
	case FA_ERR_HEADER:
	case FA_ERR_LENGTH:
	case FA_ERR_COEFF_RANGE:
	case FA_ERR_MINUS_ZERO:
	case FA_ERR_PADDING:
	case FA_ERR_KEY:
		return 1;
	default:
		return 0;
	}
}

void cli_write_file(const char *path, const void *data, size_t len,
	int secret)
{
	FILE *f;

	if (is_stdio(path)) {
		f = stdout;
	} else {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC,
			secret ? 0600 : 0644);

		f = fd < 0 ? NULL : fdopen(fd, "wb");
		if (f == NULL) {
			cli_fail(CLI_EXIT_ERROR, "cannot create %s: %s", path,
				strerror(errno));
		}
	}
	if (fwrite(data, 1, len, f) != len || fflush(f) != 0) {
		cli_fail(CLI_EXIT_ERROR, "cannot write %s",
			f == stdout ? "stdout" : path);
	}
	if (f != stdout && fclose(f) != 0) {
		cli_fail(CLI_EXIT_ERROR, "cannot close %s", path);
	}
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

long cli_hex_decode(uint8_t *out, const char *hex)
{
	size_t len = strlen(hex), i;

	if (len % 2 != 0) {
		return -1;
	}
	for (i = 0; i < len; i += 2) {
		int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);

		if (hi < 0 || lo < 0) {
			return -1;
		}
		out[i / 2] = (uint8_t)((hi << 4) | lo);
	}
	return (long)(len / 2);
}

uint8_t *cli_hex_arg(const char *cmd, const char *opt, const char *hex,
	size_t *len)
{
	size_t n = strlen(hex), i;
	uint8_t *out;

	if (n == 0) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s: empty value, expected hex "
			"digits", cmd, opt);
	}
	for (i = 0; i < n; i ++) {
		if (hex_digit(hex[i]) < 0) {
			unsigned char c = (unsigned char)hex[i];

			if (c > 0x20 && c < 0x7F) {
				cli_fail(CLI_EXIT_ERROR, "%s: %s: '%c' (character "
					"%zu) is not a hex digit", cmd, opt, c, i + 1);
			}
			cli_fail(CLI_EXIT_ERROR, "%s: %s: byte 0x%02X (character "
				"%zu) is not a hex digit", cmd, opt, c, i + 1);
		}
	}
	if (n % 2 != 0) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s: odd number of hex digits (%zu):"
			" each byte takes two", cmd, opt, n);
	}
	out = cli_alloc(n / 2);
	*len = (size_t)cli_hex_decode(out, hex);
	return out;
}

unsigned cli_parse_degree(const char *s)
{
	if (strcmp(s, "512") == 0) {
		return 9;
	}
	if (strcmp(s, "1024") == 0) {
		return 10;
	}
	cli_fail(CLI_EXIT_ERROR, "--degree must be 512 or 1024 (got '%s')", s);
}

unsigned long cli_parse_uint(const char *opt, const char *s,
	unsigned long min, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end != 0 || errno != 0
		|| v < min || v > max)
	{
		cli_fail(CLI_EXIT_ERROR, "%s must be an integer in [%lu, %lu]"
			" (got '%s')", opt, min, max, s);
	}
	return v;
}

const fa_backend *cli_backend(const char *name)
{
	const fa_backend *be;
	const char *from = "--backend ";
	char avail[256];
	size_t i, pos = 0;
	int registered = 0;

	if (name == NULL) {
		name = cli_global_backend;
	}
	if (name == NULL) {
		name = getenv("FALCON_ACCEL_BACKEND");
		from = "FALCON_ACCEL_BACKEND=";
		if (name != NULL && name[0] == 0) {
			name = NULL;
		}
	}
	if (name == NULL) {
		return fa_backend_default();
	}
	be = fa_backend_find(name);
	if (be != NULL) {
		return be;
	}
	/* Name the culprit (option or environment) and the choices. */
	avail[0] = 0;
	for (i = 0; i < fa_backend_count(); i ++) {
		const fa_backend *b = fa_backend_at(i);
		const char *bn = fa_backend_name(b);

		if (strcmp(bn, name) == 0) {
			registered = 1;
		}
		if (fa_backend_available(b) && pos + strlen(bn) + 3 < sizeof avail) {
			pos += (size_t)snprintf(avail + pos, sizeof avail - pos,
				"%s%s", pos ? ", " : "", bn);
		}
	}
	cli_fail(CLI_EXIT_ERROR, "%s%s: %s (available here: %s)", from, name,
		registered ? "backend not available on this machine"
		: "unknown backend", avail);
}

void cli_args_init(cli_args *a, int argc, char **argv)
{
	a->argc = argc;
	a->argv = argv;
	a->i = 0;   /* argv[0] is the subcommand */
	a->inline_value = NULL;
	a->name[0] = 0;
}

const char *cli_next_opt(cli_args *a)
{
	const char *arg, *eq;
	size_t len;

	a->i ++;
	if (a->i >= a->argc) {
		return NULL;
	}
	arg = a->argv[a->i];
	if (strncmp(arg, "--", 2) != 0 || arg[2] == 0) {
		cli_fail(CLI_EXIT_ERROR, "%s: unexpected argument '%s'",
			a->argv[0], arg);
	}
	eq = strchr(arg, '=');
	len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
	if (len >= sizeof a->name) {
		cli_fail(CLI_EXIT_ERROR, "%s: unknown option '%s'",
			a->argv[0], arg);
	}
	memcpy(a->name, arg, len);
	a->name[len] = 0;
	a->inline_value = eq != NULL ? eq + 1 : NULL;
	return a->name;
}

const char *cli_opt_value(cli_args *a)
{
	if (a->inline_value != NULL) {
		return a->inline_value;
	}
	if (a->i + 1 >= a->argc) {
		cli_fail(CLI_EXIT_ERROR, "%s: option %s needs a value",
			a->argv[0], a->name);
	}
	a->i ++;
	return a->argv[a->i];
}

void cli_opt_flag(cli_args *a)
{
	if (a->inline_value != NULL) {
		cli_fail(CLI_EXIT_ERROR, "%s: option %s takes no value",
			a->argv[0], a->name);
	}
}

void cli_parse_opts(int argc, char **argv, const cli_opt *opts)
{
	cli_args a;
	const char *opt;

	cli_args_init(&a, argc, argv);
	while ((opt = cli_next_opt(&a)) != NULL) {
		const cli_opt *o;

		for (o = opts; o->name != NULL; o ++) {
			if (strcmp(opt, o->name) == 0) {
				break;
			}
		}
		if (o->name == NULL) {
			cli_fail(CLI_EXIT_ERROR, "%s: unknown option %s",
				argv[0], opt);
		}
		*o->value = cli_opt_value(&a);
	}
}
