/*
 * cli.h -- helpers shared by the falcon-accel command-line tool's
 * subcommands (the .c files of tools/). Tools may allocate and use stdio.
 *
 * Exit codes of every subcommand:
 *   0  success
 *   1  the signature does not verify (verify only)
 *   2  any other failure: usage, unreadable or malformed input, unknown
 *      backend, library error. One line on stderr says why.
 */
#ifndef FA_CLI_H
#define FA_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "falcon_accel.h"

#define CLI_EXIT_OK      0
#define CLI_EXIT_BADSIG  1
#define CLI_EXIT_ERROR   2

/* Version of the tool (`falcon-accel --version`); the Python package
   (service/python/pyproject.toml) carries the same number, which
   tests/cli/messages.sh checks. */
#define FA_CLI_VERSION "0.1.0"

/* Print "falcon-accel: <message>" on stderr and exit with `code`. */
void cli_fail(int code, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/* Malloc that exits (code 2) on failure; never returns NULL. */
void *cli_alloc(size_t len);

/* Whole file (or stdin for NULL or "-") into a fresh buffer; *len set.
   Exits (code 2) on error. */
uint8_t *cli_read_file(const char *path, size_t *len);

/*
 * Output files. A command's outputs are published together when it
 * succeeds, or not at all:
 *  - each file is written to a temporary file in the target's directory
 *    ("<target>.tmp.XXXXXX"), flushed and fsync'ed, and renamed over the
 *    target only by cli_out_commit() (main() calls it once the command
 *    has returned 0); a failed rename puts back what the earlier renames
 *    replaced (hard-link backups), so a failed command leaves the
 *    pre-existing files as they were and no new file;
 *  - temporary files and backups are removed on every exit that does not
 *    commit (cli_fail included, through atexit);
 *  - `secret` outputs are new 0600 files whatever the target's old mode,
 *    public ones 0644 less the umask;
 *  - "-" is stdout, written directly (whole buffers at commit time, before
 *    the renames; streams as they come); an existing non-regular target
 *    (/dev/null, a FIFO) is also written directly, in place;
 *  - a symbolic link is followed: the file it names is replaced.
 * Errors exit (code 2) with "cannot write PATH: <reason>".
 *
 * cli_out_declare() names an output of command `cmd` given by option
 * `opt` before anything is written: it exits (code 2) naming both
 * options when two outputs of the command are the same file (same
 * string, same directory and name after resolving "." and symbolic
 * links, or the same existing inode); "-" and non-regular files may
 * repeat. Outputs not declared are declared by their first write.
 */
void cli_out_declare(const char *cmd, const char *opt, const char *path);
/* Stage a whole buffer as the content of output `path`. */
void cli_write_file(const char *path, const void *data, size_t len,
	int secret);
/* Streamed output: open, append any number of times, close (which
   flushes and fsyncs). Returns a handle for cli_out_append/close. */
int cli_out_open(const char *path, int secret);
void cli_out_append(int h, const void *data, size_t len);
void cli_out_close(int h);
/* Publish every staged output (see above); exits (code 2) on failure. */
void cli_out_commit(void);

/* Hex string (even number of digits, any case) to bytes; returns the
   byte count or -1 if not valid hex. out must hold strlen(hex)/2. */
long cli_hex_decode(uint8_t *out, const char *hex);
/* Hex value of option `opt` of subcommand `cmd` into a fresh buffer
   (*len bytes); exits (code 2) saying what is wrong with it: empty, an
   odd number of digits, a character that is not a hex digit. */
uint8_t *cli_hex_arg(const char *cmd, const char *opt, const char *hex,
	size_t *len);

/*
 * Encoded objects named by an option (--pk FILE, --sk FILE, --sig FILE).
 * cli_read_arg() reads the file (stdin for "-"); cli_check_object()
 * returns the degree (logn) of an object expected to be of `kind`, or
 * exits (code 2) with a message that names the option and the file and
 * says what is wrong, e.g.
 *   "verify: --pk k.pk: wrong encoded length 500, expected 897 for
 *    Falcon-512"
 *   "verify: --pk k.sk: this is a private key (header 0x59, Falcon-512),
 *    not a public key"
 * It checks the header byte (kind and degree) and the length; the
 * library's decoders check the rest (cli_fail_object names the file for
 * their errors).
 */
enum { CLI_PUBKEY, CLI_PRIVKEY, CLI_SIG };
uint8_t *cli_read_arg(const char *cmd, const char *opt, const char *path,
	size_t *len);
unsigned cli_check_object(const char *cmd, const char *opt,
	const char *path, const uint8_t *obj, size_t len, int kind);
/*
 * Keys in files (--sk, --pk): raw (the library's encoding), DER or PEM
 * (PKCS#8 PrivateKeyInfo / SubjectPublicKeyInfo, include/falcon_accel_pki.h),
 * detected from the content and decoded strictly. cli_read_key() returns
 * the raw key in a fresh buffer (*len bytes; *fmt, if not NULL, the
 * FA_PKI_FMT_* found) or exits (code 2) naming the option, the file and
 * the culprit (PEM line, DER byte offset and element, an OID of the other
 * scheme, a public key where a private key is expected...). kind is
 * CLI_PRIVKEY or CLI_PUBKEY; fndsa 0 for round 3, 1 for FN-DSA. Round-3
 * PKCS#8 keys carry the public key after the private key (oqs-provider's
 * layout): it must be the private key's.
 */
uint8_t *cli_read_key(const char *cmd, const char *opt, const char *path,
	int kind, int fndsa, size_t *len, int *fmt);
/* --format raw|der|pem (NULL: raw) to FA_PKI_FMT_*; exits otherwise. */
int cli_parse_key_format(const char *cmd, const char *s);
/* Stage key (raw encoding, header byte first) as output path in format
   fmt; pk (the public key) is needed for a round-3 private key in DER or
   PEM. Private keys are written as secret files. */
void cli_write_key(const char *path, int fmt, int kind, int fndsa,
	const uint8_t *key, size_t key_len, const uint8_t *pk, size_t pk_len);
/* "cmd: opt path: <library error>" and exit (code 2). */
void cli_fail_object(const char *cmd, const char *opt, const char *path,
	int err) __attribute__((noreturn));
/* True for the library's decoding errors (header, length, range...). */
int cli_is_decode_error(int err);

/* "512" -> 9, "1024" -> 10; exits (code 2) otherwise. */
unsigned cli_parse_degree(const char *s);
/* Decimal unsigned integer in [min, max]; exits (code 2) otherwise. */
unsigned long cli_parse_uint(const char *opt, const char *s,
	unsigned long min, unsigned long max);

/* The backend named by `name`, else by $FALCON_ACCEL_BACKEND, else the
   default one. A named backend that is unknown or unavailable exits
   with code 2. */
const fa_backend *cli_backend(const char *name);

/*
 * Option scanning. Each subcommand loops with cli_next_opt(), which
 * returns the option name ("--degree") or NULL at the end; for an option
 * that takes a value, cli_opt_value() returns it (from "--opt VALUE" or
 * "--opt=VALUE") and exits (code 2) if it is missing.
 */
typedef struct {
	int argc;
	char **argv;
	int i;
	const char *inline_value;   /* after '=' in --opt=VALUE, or NULL */
	char name[64];
} cli_args;

void cli_args_init(cli_args *a, int argc, char **argv);
const char *cli_next_opt(cli_args *a);
const char *cli_opt_value(cli_args *a);
/* Exits with "unknown option" unless the current option is a flag
   without "=value". */
void cli_opt_flag(cli_args *a);

/*
 * Table-driven scanning for subcommands whose options all take a value:
 * for each "--name VALUE" (or "--name=VALUE") the entry with that name
 * receives VALUE in *value (a later occurrence overrides an earlier
 * one); any other option exits (code 2). The table ends with a NULL name.
 */
typedef struct {
	const char *name;
	const char **value;
} cli_opt;
void cli_parse_opts(int argc, char **argv, const cli_opt *opts);
/* Global --backend value (given before the subcommand), or NULL. */
extern const char *cli_global_backend;

/* Subcommands (argv[0] is the subcommand name). Return the exit code. */
int cli_cmd_keygen(int argc, char **argv);
int cli_cmd_pubkey(int argc, char **argv);
int cli_cmd_sign(int argc, char **argv);
int cli_cmd_verify(int argc, char **argv);
int cli_cmd_kat(int argc, char **argv);
int cli_cmd_bench(int argc, char **argv);
/* ML-KEM (FIPS 203): kem keygen|encaps|decaps (cli_kem.c). */
int cli_cmd_kem(int argc, char **argv);

#endif
