/*
 * falcon-accel-fido2: a FIDO2 (CTAP 2.1) security key with FN-DSA
 * credentials, serving CTAPHID over UDP on the loopback interface.
 *
 *   falcon-accel-fido2 --state DIR [--port 8111] [--reply-port 7112]
 *                      [--user-presence auto|prompt]
 *
 * Each UDP datagram is one 64-byte HID report (the convention of open
 * authenticator simulators): reports are received on 127.0.0.1:--port and
 * answers are sent to 127.0.0.1:--reply-port. State (device secret,
 * counter, discoverable credentials) lives in DIR and survives kill -9.
 * User presence: "auto" approves every request (tests), "prompt" asks on
 * the console (y/N, 30 s), sending KEEPALIVE meanwhile and honouring
 * CTAPHID_CANCEL.
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

typedef struct {
	fido2_udp udp;
	int prompt;
	fido2_hid hid;
	fido2_auth auth;
	fido2_file_store store;
	void *tmp;
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
	fprintf(stderr, "falcon-accel-fido2: user presence requested: %s", what);
	if (rp != NULL) {
		size_t i;
		fputs(" for ", stderr);
		for (i = 0; i < rp_len && i < 128; i++) {
			fputc(rp[i] >= 0x20 && rp[i] < 0x7f ? rp[i] : '?', stderr);
		}
	}
	fputs(" -- approve? [y/N] ", stderr);
	fflush(stderr);
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
				fprintf(stderr, "cancelled\n");
				return FIDO2_UP_CANCEL;
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
			fprintf(stderr, "timed out\n");
			return FIDO2_UP_TIMEOUT;
		}
	}
}

static const fido2_platform g_platform = { rng, now_ms, user_presence };

/* CTAPHID_MSG carries CTAP1/U2F APDUs, which this key does not implement:
   answered with the status word INS_NOT_SUPPORTED (0x6D00). */
static size_t
handle(void *user, fido2_hid *hid, uint8_t cmd, const uint8_t *req,
	size_t req_len, uint8_t *resp)
{
	daemon_ctx *d = user;
	(void)hid;
	if (cmd == FIDO2_HID_MSG) {
		resp[0] = 0x6d;
		resp[1] = 0x00;
		return 2;
	}
	return fido2_ctap2_handle(&d->auth, req, req_len, resp, FIDO2_HID_MAX_MSG);
}

static void
wink(void *user)
{
	(void)user;
	fprintf(stderr, "falcon-accel-fido2: *wink*\n");
}

static void
usage(void)
{
	fprintf(stderr, "usage: falcon-accel-fido2 --state DIR [--port 8111]"
		" [--reply-port 7112] [--user-presence auto|prompt]\n");
}

int
main(int argc, char **argv)
{
	static daemon_ctx d;
	const char *state = NULL;
	int port = 8111, reply_port = 7112, i;
	struct sigaction sa;

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
	if (fido2_file_store_open(&d.store, state) != 0) {
		fprintf(stderr, "falcon-accel-fido2: %s\n", d.store.err);
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
	fido2_hid_init(&d.hid, send_report, handle, wink, &d);

	if (fido2_udp_open(&d.udp, "falcon-accel-fido2", port, reply_port) != 0) {
		return 2;
	}

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

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
	}
	fido2_wipe(&d.auth, sizeof d.auth);
	free(d.tmp);
	fido2_udp_close(&d.udp);
	return 0;
}
