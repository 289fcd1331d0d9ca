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

uint8_t *cli_read_file(const char *path, size_t *len)
{
	FILE *f = is_stdio(path) ? stdin : fopen(path, "rb");
	size_t cap = 4096, n = 0;
	uint8_t *buf;

	if (f == NULL) {
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

	if (name == NULL) {
		name = cli_global_backend;
	}
	if (name == NULL) {
		name = getenv("FALCON_ACCEL_BACKEND");
		if (name != NULL && name[0] == 0) {
			name = NULL;
		}
	}
	if (name == NULL) {
		return fa_backend_default();
	}
	be = fa_backend_find(name);
	if (be == NULL) {
		cli_fail(CLI_EXIT_ERROR,
			"backend '%s' is unknown or unavailable here", name);
	}
	return be;
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
