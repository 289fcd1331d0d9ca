/*
 * falcon-accel-fido2: a FIDO2 (CTAP 2.1) security key with FN-DSA
 * credentials, serving CTAPHID over UDP on the loopback interface.
 *
 *   falcon-accel-fido2 --state DIR [--port 8111] [--reply-port 7112]
 *                      [--user-presence prompt|auto]
 *
 * Each UDP datagram is one 64-byte HID report (the convention of open
 * authenticator simulators): reports are received on 127.0.0.1:--port and
 * answers are sent to 127.0.0.1:--reply-port (a different port). State
 * (device secret, counter, discoverable credentials) lives in DIR and
 * survives kill -9; a DIR whose contents do not belong together (records
 * without state.bin, records of another epoch), that cannot be read, or
 * that does not take a write (read-only, full) is refused at start-up with
 * the file and what to do, and nothing in it is changed.
 * User presence: "prompt" (the default) asks on the console (y/N, 30 s),
 * sending KEEPALIVE meanwhile and honouring CTAPHID_CANCEL; answers are
 * read from standard input, and once it is at its end (no terminal,
 * /dev/null) every request is denied. "auto" approves every request, so
 * that any local process can use the key: for tests only, with a warning.
 * Logging never blocks the request loop: see fido2_log in fido2_udp.h.
 * Exit status: 0 on SIGTERM/SIGINT, 2 on usage or start-up errors.
 */
#define _GNU_SOURCE
#include "fido2_ctaphid.h"
#include "fido2_ctap2.h"
#include "fido2_store_file.h"
#include "fido2_sha256.h"
#include "fido2_udp.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PROG "falcon-accel-fido2"

typedef struct {
	fido2_udp udp;
	int prompt;
	fido2_hid hid;
	fido2_auth auth;
	fido2_file_store store;
	void *tmp;
	unsigned long store_errs;   /* store.nerr already logged */
	fido2_log_counter log_dropped, log_wink, log_store;
} daemon_ctx;

static volatile sig_atomic_t g_stop;

static void
on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

#define now_ms fido2_host_now_ms

static int
rng(void *user, void *buf, size_t len)
{
	(void)user;
	return fido2_host_random(buf, len);
}

static void
send_report(void *user, const uint8_t rpt[64])
{
	daemon_ctx *d = user;
	fido2_udp_send(&d->udp, rpt);
}

/* Console prompt: y approves, anything else denies; KEEPALIVE every
   100 ms; a CANCEL on the transaction's channel ends it. */
static int
user_presence(void *user, const char *what, const uint8_t *rp, size_t rp_len)
{
	daemon_ctx *d = user;
	uint32_t start = now_ms(NULL);
	if (!d->prompt) {
		return FIDO2_UP_APPROVED;
	}
	/* The rpId comes from the host: printed with anything outside
	   printable ASCII replaced, so that it cannot drive the terminal. */
	{
		char rps[140];
		size_t i;
		for (i = 0; rp != NULL && i < rp_len && i < 128; i++) {
			rps[i] = rp[i] >= 0x20 && rp[i] < 0x7f ? (char)rp[i] : '?';
		}
		rps[i] = 0;
		fido2_log(PROG, "user presence requested: %s%s%s -- approve? [y/N]",
			what, rp != NULL ? " for " : "", rps);
	}
	for (;;) {
		struct pollfd pf[2];
		pf[0].fd = 0; pf[0].events = POLLIN;
		pf[1].fd = d->udp.sock; pf[1].events = POLLIN;
		fido2_hid_keepalive(&d->hid, FIDO2_HID_KA_UPNEEDED);
		if (poll(pf, 2, 100) < 0 && errno != EINTR) {
			return FIDO2_UP_DENIED;
		}
		if (g_stop) {
			return FIDO2_UP_CANCEL;
		}
		if (pf[1].revents & POLLIN) {
			uint8_t rpt[64];
			ssize_t n = recv(d->udp.sock, rpt, sizeof rpt, 0);
			if (n == 64 && fido2_hid_poll_busy(&d->hid, rpt)) {
				fido2_log(PROG, "user presence: cancelled by the host");
				return FIDO2_UP_CANCEL;
			}
			if (n >= 0 && n != 64) {
				d->udp.dropped++;
			}
		}
		if (pf[0].revents & (POLLIN | POLLHUP)) {
			char line[64];
			if (fgets(line, sizeof line, stdin) == NULL) {
				return FIDO2_UP_DENIED;
			}
			return (line[0] == 'y' || line[0] == 'Y')
				? FIDO2_UP_APPROVED : FIDO2_UP_DENIED;
		}
		if ((uint32_t)(now_ms(NULL) - start) > 30000u) {
			fido2_log(PROG, "user presence: no answer in 30 s");
			return FIDO2_UP_TIMEOUT;
		}
	}
}

static const fido2_platform g_platform = { rng, now_ms, user_presence };

/* A store write failed while serving (the request got CTAP1_ERR_OTHER):
   the file and the reason, at a bounded rate. */
static void
log_store_errors(daemon_ctx *d)
{
	if (d->store.nerr != d->store_errs) {
		unsigned long n = d->store.nerr - d->store_errs;
		d->store_errs = d->store.nerr;
		snprintf(d->log_store.detail, sizeof d->log_store.detail, "%s",
			d->store.err);
		fido2_log_periodic(PROG, &d->log_store, now_ms(NULL), n);
	}
}

/* CTAPHID_MSG carries CTAP1/U2F APDUs, which this key does not implement:
   answered with the status word INS_NOT_SUPPORTED (0x6D00). */
static size_t
handle(void *user, fido2_hid *hid, uint8_t cmd, const uint8_t *req,
	size_t req_len, uint8_t *resp)
{
	daemon_ctx *d = user;
	(void)hid;
	size_t n;
	if (cmd == FIDO2_HID_MSG) {
		resp[0] = 0x6d;
		resp[1] = 0x00;
		return 2;
	}
	n = fido2_ctap2_handle(&d->auth, req, req_len, resp, FIDO2_HID_MAX_MSG);
	log_store_errors(d);
	return n;
}

static void
wink(void *user)
{
	daemon_ctx *d = user;
	fido2_log_event(PROG, &d->log_wink, now_ms(NULL), NULL);
}

static void
usage(void)
{
	fprintf(stderr, "usage: falcon-accel-fido2 --state DIR [--port 8111]"
		" [--reply-port 7112] [--user-presence prompt|auto]\n");
}

int
main(int argc, char **argv)
{
	static daemon_ctx d;
	const char *state = NULL;
	int port = 8111, reply_port = 7112, i;
	struct sigaction sa;

	d.prompt = 1;
	d.log_dropped.what = "malformed datagram(s) dropped (reports are 64 bytes)";
	d.log_wink.what = "WINK request(s)";
	d.log_store.what = "request(s) failed to write the state";

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage();
			return 0;
		}
		if (v == NULL) {
			fprintf(stderr, "falcon-accel-fido2: %s needs a value\n", a);
			usage();
			return 2;
		}
		if (strcmp(a, "--state") == 0) {
			state = v;
		} else if (strcmp(a, "--port") == 0) {
			if (fido2_udp_parse_port(v, &port) != 0) {
				fprintf(stderr, "falcon-accel-fido2: bad --port '%s'\n", v);
				return 2;
			}
		} else if (strcmp(a, "--reply-port") == 0) {
			if (fido2_udp_parse_port(v, &reply_port) != 0) {
				fprintf(stderr, "falcon-accel-fido2: bad --reply-port '%s'\n", v);
				return 2;
			}
		} else if (strcmp(a, "--user-presence") == 0) {
			if (strcmp(v, "auto") == 0) {
				d.prompt = 0;
			} else if (strcmp(v, "prompt") == 0) {
				d.prompt = 1;
			} else {
				fprintf(stderr, "falcon-accel-fido2: --user-presence must"
					" be auto or prompt, not '%s'\n", v);
				return 2;
			}
		} else {
			fprintf(stderr, "falcon-accel-fido2: unknown option '%s'\n", a);
			usage();
			return 2;
		}
		i++;
	}
	if (state == NULL) {
		fprintf(stderr, "falcon-accel-fido2: --state DIR is required\n");
		usage();
		return 2;
	}
	if (port == reply_port) {
		fprintf(stderr, PROG ": --port and --reply-port are both %d: the"
			" daemon would receive its own answers; give two different"
			" ports\n", port);
		return 2;
	}
	if (fido2_file_store_open(&d.store, state) != 0) {
		fprintf(stderr, PROG ": refusing to start: %s\n", d.store.err);
		return 2;
	}
	d.tmp = malloc(FIDO2_TMP_SIZE);
	if (d.tmp == NULL) {
		fprintf(stderr, "falcon-accel-fido2: out of memory\n");
		return 2;
	}
	if (fido2_auth_init(&d.auth, &fido2_file_store_ops, &d.store,
		&g_platform, &d,
		fa_backend_default(), d.tmp, FIDO2_TMP_SIZE) != 0) {
		fprintf(stderr, "falcon-accel-fido2: cannot initialise the device"
			" state in %s: %s\n", state, d.store.err[0] ? d.store.err
			: "write failed");
		return 2;
	}
	fido2_hid_init(&d.hid, send_report, handle, wink, rng, &d);

	if (fido2_udp_open(&d.udp, "falcon-accel-fido2", port, reply_port) != 0) {
		return 2;
	}

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if (!d.prompt) {
		fprintf(stderr, PROG ": WARNING: --user-presence auto approves"
			" every request: any local process can register, sign in"
			" with and Reset this key. For tests only.\n");
	} else if (!isatty(0)) {
		fprintf(stderr, PROG ": user presence is asked on standard input,"
			" which is not a terminal: answers are read from it, and at"
			" its end every request is denied\n");
	}
	fprintf(stderr, "falcon-accel-fido2: ready on 127.0.0.1:%d (replies to"
		" 127.0.0.1:%d), state %s, %d discoverable credential(s),"
		" backend %s, user presence %s\n", port, reply_port, state,
		d.store.ncreds, fa_backend_name(fa_backend_default()),
		d.prompt ? "prompt" : "auto");
	while (!g_stop) {
		uint8_t rpt[64];

		if (fido2_udp_recv(&d.udp, rpt, 100) == 1) {
			fido2_hid_input(&d.hid, rpt, now_ms(NULL));
		}
		fido2_hid_tick(&d.hid, now_ms(NULL));
		fido2_log_periodic(PROG, &d.log_dropped, now_ms(NULL), d.udp.dropped);
		d.udp.dropped = 0;
		fido2_log_periodic(PROG, &d.log_wink, now_ms(NULL), 0);
		fido2_log_periodic(PROG, &d.log_store, now_ms(NULL), 0);
	}
	fido2_wipe(&d.auth, sizeof d.auth);
	free(d.tmp);
	fido2_udp_close(&d.udp);
	return 0;
}
