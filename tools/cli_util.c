/*
 * cli_util.c -- file, hex, option and backend helpers of the
 * falcon-accel tool (see cli.h).
 */
#define _XOPEN_SOURCE 700   /* POSIX 2008 with realpath() */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"
#include "falcon_accel_pki.h"

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
	cli_fail(CLI_EXIT_ERROR, "%s: %s: %s", cmd, label,
		fa_fndsa_strerror(err));
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
	case FA_ERR_SCHEME:
		return 1;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------------
 * Output files: staged in temporary files, published by
 * cli_out_commit() (see cli.h).
 * ------------------------------------------------------------------ */

#define CLI_OUT_MAX 8
#define CLI_LINK_MAX 40   /* symbolic links followed, as the kernel */

enum { OUT_STDOUT, OUT_DIRECT, OUT_STAGED };
enum { OUT_DECLARED, OUT_OPEN, OUT_WRITTEN };

typedef struct {
	const char *cmd, *opt;   /* for messages; opt may be NULL */
	char *path;              /* as given */
	char *target;            /* symbolic links followed */
	char *dir;               /* target's directory */
	char *canon;             /* realpath(dir) "/" base, or NULL */
	int kind, state, secret, fd;
	int have_id;             /* target exists: dev, ino */
	dev_t dev;
	ino_t ino;
	char *tmp;               /* staged temporary file, while it exists */
	char *bak;               /* hard link to the old target (commit) */
	int published;           /* renamed over its target (commit) */
	uint8_t *buf;            /* stdout data written at commit time */
	size_t buf_len;
} cli_output;

static cli_output cli_outs[CLI_OUT_MAX];
static size_t cli_nouts;

static char *cli_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = cli_alloc(n);

	memcpy(d, s, n);
	return d;
}

/* a + b + c in a fresh string */
static char *cli_concat(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *d = cli_alloc(la + lb + lc + 1);

	memcpy(d, a, la);
	memcpy(d + la, b, lb);
	memcpy(d + la + lb, c, lc + 1);
	return d;
}

static void fail_write(const char *path, int err)
	__attribute__((noreturn));
static void fail_write(const char *path, int err)
{
	cli_fail(CLI_EXIT_ERROR, "cannot write %s: %s",
		is_stdio(path) ? "stdout" : path, strerror(err));
}

/* Directory part of p ("." without a slash, "/" for "/x"). */
static char *dir_of(const char *p)
{
	const char *sl = strrchr(p, '/');
	char *d;

	if (sl == NULL) {
		return cli_strdup(".");
	}
	if (sl == p) {
		return cli_strdup("/");
	}
	d = cli_alloc((size_t)(sl - p) + 1);
	memcpy(d, p, (size_t)(sl - p));
	d[sl - p] = 0;
	return d;
}

static const char *base_of(const char *p)
{
	const char *sl = strrchr(p, '/');

	return sl == NULL ? p : sl + 1;
}

/* `path` with its symbolic links followed (the file that open() would
   write), as far as they lead; exits on a loop. */
static char *resolve_links(const char *path)
{
	char *cur = cli_strdup(path);
	int hops;

	for (hops = 0; ; hops ++) {
		struct stat st;
		char link[PATH_MAX];
		ssize_t n;
		char *next, *dir;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
			return cur;
		}
		if (hops == CLI_LINK_MAX) {
			fail_write(path, ELOOP);
		}
		n = readlink(cur, link, sizeof link - 1);
		if (n < 0) {
			return cur;
		}
		link[n] = 0;
		if (link[0] == '/') {
			next = cli_strdup(link);
		} else {
			dir = dir_of(cur);
			next = cli_concat(dir, "/", link);
			free(dir);
		}
		free(cur);
		cur = next;
	}
}

static void cli_out_cleanup(void)
{
	size_t i;

	for (i = 0; i < cli_nouts; i ++) {
		cli_output *o = &cli_outs[i];

		if (o->fd >= 0) {
			close(o->fd);
			o->fd = -1;
		}
		if (o->tmp != NULL) {
			unlink(o->tmp);
			free(o->tmp);
			o->tmp = NULL;
		}
		if (o->bak != NULL) {
			unlink(o->bak);
			free(o->bak);
			o->bak = NULL;
		}
		if (o->buf != NULL) {
			memset(o->buf, 0, o->buf_len);
			free(o->buf);
			o->buf = NULL;
		}
	}
}

static int same_file(const cli_output *a, const cli_output *b)
{
	return strcmp(a->path, b->path) == 0
		|| strcmp(a->target, b->target) == 0
		|| (a->canon != NULL && b->canon != NULL
			&& strcmp(a->canon, b->canon) == 0)
		|| (a->have_id && b->have_id && a->dev == b->dev
			&& a->ino == b->ino);
}

void cli_out_declare(const char *cmd, const char *opt, const char *path)
{
	static int cleanup_set = 0;
	cli_output *o;
	struct stat st;
	const char *base;
	char *rdir;
	size_t i;

	if (!cleanup_set) {
		atexit(cli_out_cleanup);
		cleanup_set = 1;
	}
	if (cli_nouts == CLI_OUT_MAX) {
		cli_fail(CLI_EXIT_ERROR, "too many output files");
	}
	o = &cli_outs[cli_nouts];
	memset(o, 0, sizeof *o);
	o->fd = -1;
	o->cmd = cmd;
	o->opt = opt;
	o->path = cli_strdup(path == NULL ? "-" : path);
	if (is_stdio(path)) {
		o->kind = OUT_STDOUT;
		cli_nouts ++;
		return;
	}
	o->target = resolve_links(path);
	if (stat(o->target, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			fail_write(path, EISDIR);
		}
		if (!S_ISREG(st.st_mode)) {
			/* a device or a FIFO: nothing to replace */
			o->kind = OUT_DIRECT;
			cli_nouts ++;
			return;
		}
		o->have_id = 1;
		o->dev = st.st_dev;
		o->ino = st.st_ino;
	}
	base = base_of(o->target);
	if (base[0] == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		fail_write(path, EISDIR);
	}
	o->dir = dir_of(o->target);
	rdir = realpath(o->dir, NULL);
	if (rdir != NULL) {
		o->canon = cli_concat(rdir, strcmp(rdir, "/") == 0 ? "" : "/",
			base);
		free(rdir);
	}
	o->kind = OUT_STAGED;
	for (i = 0; i < cli_nouts; i ++) {
		const cli_output *p = &cli_outs[i];

		if (p->kind == OUT_STAGED && same_file(p, o)) {
			cli_fail(CLI_EXIT_ERROR, "%s%s%s %s and %s %s are the same "
				"file: give each output its own file",
				cmd != NULL ? cmd : "", cmd != NULL ? ": " : "",
				p->opt != NULL ? p->opt : "output", p->path,
				opt != NULL ? opt : "output", path);
		}
	}
	cli_nouts ++;
}

/* The first declared output of that name not written yet, else a new
   one. */
static int out_find(const char *path)
{
	size_t i;

	if (path == NULL) {
		path = "-";
	}
	for (i = 0; i < cli_nouts; i ++) {
		if (cli_outs[i].state == OUT_DECLARED
			&& strcmp(cli_outs[i].path, path) == 0)
		{
			return (int)i;
		}
	}
	cli_out_declare(NULL, NULL, path);
	return (int)cli_nouts - 1;
}

static mode_t cli_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

/* "<target>.<what>.XXXXXX" in the target's directory; a shorter name
   when that one would be too long. */
static char *out_template(const cli_output *o, const char *what)
{
	if (strlen(base_of(o->target)) + strlen(what) + 9 <= NAME_MAX) {
		return cli_concat(o->target, what, ".XXXXXX");
	}
	{
		char *pre = cli_concat(o->dir, "/.falcon-accel", what);
		char *t = cli_concat(pre, ".XXXXXX", "");

		free(pre);
		return t;
	}
}

int cli_out_open(const char *path, int secret)
{
	int h = out_find(path);
	cli_output *o = &cli_outs[h];

	o->secret = secret;
	o->state = OUT_OPEN;
	if (o->kind == OUT_DIRECT) {
		o->fd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC,
			secret ? 0600 : 0644);
		if (o->fd < 0) {
			fail_write(o->path, errno);
		}
	} else if (o->kind == OUT_STAGED) {
		char *tmp = out_template(o, ".tmp");
		int fd = mkstemp(tmp);   /* mode 0600 */

		if (fd < 0) {
			int e = errno;

			free(tmp);
			fail_write(o->path, e);
		}
		o->tmp = tmp;
		o->fd = fd;
		if (!secret && fchmod(fd, 0644 & ~cli_umask()) != 0) {
			fail_write(o->path, errno);
		}
	}
	return h;
}

void cli_out_append(int h, const void *data, size_t len)
{
	cli_output *o = &cli_outs[h];
	const uint8_t *p = data;

	if (o->kind == OUT_STDOUT) {
		if (len > 0 && fwrite(data, 1, len, stdout) != len) {
			fail_write("-", errno);
		}
		return;
	}
	while (len > 0) {
		ssize_t w = write(o->fd, p, len);

		if (w < 0) {
			if (errno == EINTR) {
				continue;
			}
			fail_write(o->path, errno);
		}
		p += w;
		len -= (size_t)w;
	}
}

void cli_out_close(int h)
{
	cli_output *o = &cli_outs[h];

	if (o->kind == OUT_STDOUT) {
		if (fflush(stdout) != 0) {
			fail_write("-", errno);
		}
	} else {
		int fd = o->fd;

		if (o->kind == OUT_STAGED && fsync(fd) != 0) {
			fail_write(o->path, errno);
		}
		o->fd = -1;
		if (close(fd) != 0) {
			fail_write(o->path, errno);
		}
	}
	o->state = OUT_WRITTEN;
}

void cli_write_file(const char *path, const void *data, size_t len,
	int secret)
{
	int h;

	if (is_stdio(path)) {
		/* kept until the commit: nothing reaches stdout if an output
		   file of the command cannot be written */
		cli_output *o = &cli_outs[out_find(path)];

		o->secret = secret;
		o->buf = cli_alloc(len);
		memcpy(o->buf, data, len);
		o->buf_len = len;
		o->state = OUT_WRITTEN;
		return;
	}
	h = cli_out_open(path, secret);
	cli_out_append(h, data, len);
	cli_out_close(h);
}

/* A hard link to o's existing target, to put it back if a later rename
   of the commit fails. */
static int out_backup(cli_output *o)
{
	int tries;

	for (tries = 0; tries < 100; tries ++) {
		char *bak = out_template(o, ".bak");
		int fd = mkstemp(bak), e;

		if (fd < 0) {
			e = errno;
			free(bak);
			errno = e;
			return -1;
		}
		close(fd);
		unlink(bak);
		if (link(o->target, bak) == 0) {
			o->bak = bak;
			return 0;
		}
		e = errno;
		free(bak);
		if (e != EEXIST) {
			errno = e;
			return -1;
		}
	}
	errno = EEXIST;
	return -1;
}

/* Undo the renames done before output `upto` failed. */
static void out_rollback(size_t upto)
{
	size_t j;

	for (j = 0; j < upto; j ++) {
		cli_output *o = &cli_outs[j];

		if (!o->published) {
			continue;
		}
		if (o->bak != NULL) {
			/* renamed back; should that fail, the backup stays:
			   the only copy of the old file */
			(void)rename(o->bak, o->target);
			free(o->bak);
			o->bak = NULL;
		} else {
			unlink(o->target);
		}
		o->published = 0;
	}
}

void cli_out_commit(void)
{
	size_t i, last = cli_nouts;

	/* stdout first: a failure there leaves every file untouched */
	for (i = 0; i < cli_nouts; i ++) {
		cli_output *o = &cli_outs[i];

		if (o->kind == OUT_STDOUT && o->buf != NULL) {
			if ((o->buf_len > 0 && fwrite(o->buf, 1, o->buf_len, stdout)
				!= o->buf_len) || fflush(stdout) != 0)
			{
				fail_write("-", errno);
			}
			memset(o->buf, 0, o->buf_len);
			free(o->buf);
			o->buf = NULL;
		}
		if (o->kind == OUT_STAGED && o->tmp != NULL
			&& o->state == OUT_WRITTEN)
		{
			last = i;
		}
	}
	/* backups of the existing targets that a later failure would have
	   to put back (all but the last rename's) */
	for (i = 0; i < last; i ++) {
		cli_output *o = &cli_outs[i];
		struct stat st;

		if (o->kind == OUT_STAGED && o->tmp != NULL
			&& o->state == OUT_WRITTEN
			&& lstat(o->target, &st) == 0 && out_backup(o) != 0)
		{
			cli_fail(CLI_EXIT_ERROR, "cannot write %s: cannot keep a "
				"backup of the existing file: %s", o->path,
				strerror(errno));
		}
	}
	for (i = 0; i < cli_nouts; i ++) {
		cli_output *o = &cli_outs[i];

		if (o->kind != OUT_STAGED || o->tmp == NULL
			|| o->state != OUT_WRITTEN)
		{
			continue;
		}
		if (rename(o->tmp, o->target) != 0) {
			int e = errno;

			out_rollback(i);
			fail_write(o->path, e);
		}
		free(o->tmp);
		o->tmp = NULL;
		o->published = 1;
	}
	/* success: drop the backups, make the renames durable */
	for (i = 0; i < cli_nouts; i ++) {
		cli_output *o = &cli_outs[i];

		if (o->bak != NULL) {
			unlink(o->bak);
			free(o->bak);
			o->bak = NULL;
		}
		if (o->published) {
			int fd = open(o->dir, O_RDONLY);

			if (fd >= 0) {
				(void)fsync(fd);
				close(fd);
			}
			o->published = 0;
		}
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
	if (strcmp(name, "soc") == 0) {
		/* the SoC runs whole operations for bench and kat (cli_soc.c),
		   which never ask for a kernel backend */
		cli_fail(CLI_EXIT_ERROR, "%ssoc: only bench and kat run on the"
			" SoC; this command runs on a host backend (see"
			" 'falcon-accel backends')", from);
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

/* ------------------------------------------------------------------
 * Keys in raw, DER or PEM form (cli.h: cli_read_key, cli_write_key).
 * ------------------------------------------------------------------ */

static const char *alg_label(int alg)
{
	switch (alg) {
	case FA_PKI_FALCON512:  return "Falcon-512";
	case FA_PKI_FALCON1024: return "Falcon-1024";
	case FA_PKI_FNDSA512:   return "FN-DSA-512";
	default:                return "FN-DSA-1024";
	}
}

static void key_fail_pki(const char *cmd, const char *label, const char *form,
	const fa_pki_error *e) __attribute__((noreturn));
static void key_fail_pki(const char *cmd, const char *label, const char *form,
	const fa_pki_error *e)
{
	if (e->code <= FA_PKI_ERR_PEM_BEGIN && e->code >= FA_PKI_ERR_PEM_LINE) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s: PEM line %zu (%s): %s", cmd,
			label, e->offset, e->what, fa_pki_strerror(e->code));
	}
	cli_fail(CLI_EXIT_ERROR, "%s: %s: %s byte %zu (%s): %s", cmd, label,
		form, e->offset, e->what, fa_pki_strerror(e->code));
}

uint8_t *cli_read_key(const char *cmd, const char *opt, const char *path,
	int kind, int fndsa, size_t *len, int *fmt_out)
{
	char label[512];
	size_t n, der_len, klen, plen;
	uint8_t *buf = read_all(cmd, opt, path, &n), *der, *key;
	const uint8_t *k, *pk;
	int fmt = fa_pki_detect(buf, n), alg, r, pem_label;
	fa_pki_error e = { 0, 0, "" };
	const char *want = kind == CLI_PRIVKEY ? "private key" : "public key";

	if (fmt_out != NULL) {
		*fmt_out = fmt;
	}
	if (fmt == FA_PKI_FMT_RAW) {
		*len = n;
		return buf;
	}
	file_label(label, sizeof label, opt, path);
	if (fmt == FA_PKI_FMT_PEM) {
		der = cli_alloc(n);
		r = fa_pki_pem_decode(buf, n, &pem_label, der, n, &der_len, &e);
		if (r != 0) {
			key_fail_pki(cmd, label, "PEM", &e);
		}
		if ((pem_label == FA_PKI_PEM_PRIVATE) != (kind == CLI_PRIVKEY)) {
			cli_fail(CLI_EXIT_ERROR, "%s: %s: this is a PEM %s, not a %s",
				cmd, label, pem_label == FA_PKI_PEM_PRIVATE
				? "private key" : "public key", want);
		}
	} else {
		der = cli_alloc(n);
		memcpy(der, buf, n);
		der_len = n;
	}
	if (kind == CLI_PRIVKEY) {
		r = fa_pki_decode_pkcs8(der, der_len, &alg, &k, &klen, &pk, &plen,
			&e);
		if (r != 0 && fmt == FA_PKI_FMT_DER) {
			int a2;
			const uint8_t *x;
			size_t xl;

			if (fa_pki_decode_spki(der, der_len, &a2, &x, &xl, NULL) == 0) {
				cli_fail(CLI_EXIT_ERROR, "%s: %s: this is a DER public "
					"key (SubjectPublicKeyInfo, %s), not a private key",
					cmd, label, alg_label(a2));
			}
		}
	} else {
		r = fa_pki_decode_spki(der, der_len, &alg, &k, &klen, &e);
		pk = NULL;
		plen = 0;
		if (r != 0 && fmt == FA_PKI_FMT_DER) {
			int a2;
			const uint8_t *x, *y;
			size_t xl, yl;

			if (fa_pki_decode_pkcs8(der, der_len, &a2, &x, &xl, &y, &yl,
				NULL) == 0)
			{
				cli_fail(CLI_EXIT_ERROR, "%s: %s: this is a DER private "
					"key (PrivateKeyInfo, %s), not a public key", cmd,
					label, alg_label(a2));
			}
		}
	}
	if (r != 0) {
		key_fail_pki(cmd, label, fmt == FA_PKI_FMT_PEM ? "DER (in the PEM)"
			: "DER", &e);
	}
	if (fa_pki_alg_fndsa(alg) != fndsa) {
		cli_fail(CLI_EXIT_ERROR, "%s: %s: this is an %s %s (OID %s), not "
			"%s (use --scheme %s)", cmd, label, alg_label(alg), want,
			fa_pki_alg_oid(alg), fndsa ? "an FN-DSA key"
			: "a round-3 Falcon key", fndsa ? "falcon" : "fn-dsa");
	}
	if (pk != NULL) {
		/* round 3 PKCS#8 (oqs-provider layout): the stored public key
		   must be the private key's */
		unsigned logn = fa_pki_alg_logn(alg);
		size_t tl = FA_TMPSIZE_MAKEPUB(logn);
		uint8_t *tmp = cli_alloc(tl), *cpk = cli_alloc(plen);

		r = fa_make_public(cpk, plen, k, klen, tmp, tl);
		if (r != FA_OK) {
			cli_fail(CLI_EXIT_ERROR, "%s: %s: the private key in the "
				"PrivateKeyInfo: %s", cmd, label, fa_strerror(r));
		}
		if (memcmp(cpk, pk, plen) != 0) {
			cli_fail(CLI_EXIT_ERROR, "%s: %s: the public key stored after "
				"the private key (PrivateKeyInfo) is not its public key",
				cmd, label);
		}
		free(tmp);
		free(cpk);
	}
	key = cli_alloc(klen);
	memcpy(key, k, klen);
	*len = klen;
	memset(der, 0, der_len);
	memset(buf, 0, n);
	free(der);
	free(buf);
	return key;
}

int cli_parse_key_format(const char *cmd, const char *s)
{
	if (s == NULL || strcmp(s, "raw") == 0) {
		return FA_PKI_FMT_RAW;
	}
	if (strcmp(s, "der") == 0) {
		return FA_PKI_FMT_DER;
	}
	if (strcmp(s, "pem") == 0) {
		return FA_PKI_FMT_PEM;
	}
	cli_fail(CLI_EXIT_ERROR, "%s: --format must be raw, der or pem (got "
		"'%s')", cmd, s);
}

void cli_write_key(const char *path, int fmt, int kind, int fndsa,
	const uint8_t *key, size_t key_len, const uint8_t *pk, size_t pk_len)
{
	unsigned logn = key[0] & 0x0F;
	int alg = fa_pki_alg(logn, fndsa), r;
	size_t der_len, out_len;
	uint8_t *der, *out;

	if (fmt == FA_PKI_FMT_RAW) {
		cli_write_file(path, key, key_len, kind == CLI_PRIVKEY);
		return;
	}
	if (alg < 0) {
		cli_fail(CLI_EXIT_ERROR, "no PKI encoding for degree %u", 1u << logn);
	}
	der_len = kind == CLI_PRIVKEY ? fa_pki_pkcs8_size(alg)
		: fa_pki_spki_size(alg);
	der = cli_alloc(der_len);
	r = kind == CLI_PRIVKEY
		? fa_pki_encode_pkcs8(der, der_len, &der_len, alg, key, key_len,
			fndsa ? NULL : pk, pk_len)
		: fa_pki_encode_spki(der, der_len, &der_len, alg, key, key_len);
	if (r != 0) {
		cli_fail(CLI_EXIT_ERROR, "key encoding failed: %s",
			fa_pki_strerror(r));
	}
	if (fmt == FA_PKI_FMT_DER) {
		cli_write_file(path, der, der_len, kind == CLI_PRIVKEY);
	} else {
		int label = kind == CLI_PRIVKEY ? FA_PKI_PEM_PRIVATE
			: FA_PKI_PEM_PUBLIC;

		out_len = fa_pki_pem_size(label, der_len);
		out = cli_alloc(out_len);
		r = fa_pki_pem_encode(out, out_len, &out_len, label, der, der_len);
		if (r != 0) {
			cli_fail(CLI_EXIT_ERROR, "PEM encoding failed: %s",
				fa_pki_strerror(r));
		}
		cli_write_file(path, out, out_len, kind == CLI_PRIVKEY);
		memset(out, 0, out_len);
		free(out);
	}
	memset(der, 0, der_len);
	free(der);
}
