/*
 * fido2_udp.c -- CTAPHID over UDP on loopback and the host services of the
 * FIDO2 daemons (see fido2_udp.h).
 */
#include "fido2_udp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int
fido2_udp_parse_port(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == 0 || *end != 0 || v < 1 || v > 65535) {
		return -1;
	}
	*out = (int)v;
	return 0;
}

int
fido2_udp_open(fido2_udp *u, const char *prog, int port, int reply_port)
{
	struct sockaddr_in addr;

	u->prog = prog;
	u->dropped = 0;
	u->sock = -1;
	if (port == reply_port) {
		fprintf(stderr, "%s: --port and --reply-port are both %d: the"
			" daemon would receive its own answers (an INIT would start"
			" an endless loop); give two different ports\n", prog, port);
		return -1;
	}
	u->sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (u->sock < 0) {
		fprintf(stderr, "%s: socket: %s\n", prog, strerror(errno));
		return -1;
	}
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_port = htons((uint16_t)port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(u->sock, (struct sockaddr *)&addr, sizeof addr) != 0) {
		fprintf(stderr, "%s: bind 127.0.0.1:%d: %s\n", prog, port,
			strerror(errno));
		close(u->sock);
		u->sock = -1;
		return -1;
	}
	memset(&u->reply, 0, sizeof u->reply);
	u->reply.sin_family = AF_INET;
	u->reply.sin_port = htons((uint16_t)reply_port);
	u->reply.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return 0;
}

int
fido2_udp_recv(fido2_udp *u, uint8_t rpt[64], int timeout_ms)
{
	struct pollfd pf;
	uint8_t buf[65];
	ssize_t n;
	int r;

	pf.fd = u->sock;
	pf.events = POLLIN;
	pf.revents = 0;
	r = poll(&pf, 1, timeout_ms);
	if (r < 0) {
		return errno == EINTR ? 0 : -1;
	}
	if (r == 0 || !(pf.revents & POLLIN)) {
		return 0;
	}
	n = recv(u->sock, buf, sizeof buf, 0);
	if (n < 0) {
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	}
	if (n != 64) {
		u->dropped++;
		return 0;
	}
	memcpy(rpt, buf, 64);
	return 1;
}

void
fido2_udp_send(fido2_udp *u, const uint8_t rpt[64])
{
	(void)sendto(u->sock, rpt, 64, 0, (const struct sockaddr *)&u->reply,
		sizeof u->reply);
}

void
fido2_udp_close(fido2_udp *u)
{
	if (u->sock >= 0) {
		close(u->sock);
		u->sock = -1;
	}
}

uint32_t
fido2_host_now_ms(void *user)
{
	struct timespec ts;

	(void)user;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)((uint64_t)ts.tv_sec * 1000u
		+ (uint64_t)ts.tv_nsec / 1000000u);
}

int
fido2_host_random(void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t r = getrandom(p, len, 0);

		if (r < 0) {
			if (errno == EINTR) {
				continue;
			}
			return -1;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

static unsigned long g_log_lost;

void
fido2_log(const char *prog, const char *fmt, ...)
{
	char line[1400];
	struct pollfd pf;
	va_list ap;
	int n = 0, m;

	if (g_log_lost > 0) {
		n = snprintf(line, sizeof line, "%s: (%lu log line(s) lost: stderr"
			" was not being read)\n", prog, g_log_lost);
	}
	m = snprintf(line + n, sizeof line - (size_t)n, "%s: ", prog);
	n += m;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	n = (size_t)(n + m) >= sizeof line - 1 ? (int)sizeof line - 2 : n + m;
	line[n++] = '\n';
	pf.fd = 2;
	pf.events = POLLOUT;
	pf.revents = 0;
	/* A pipe with room for PIPE_BUF (4 KiB) bytes polls writable: one
	   write of a shorter line then does not block. */
	if (poll(&pf, 1, 0) == 1 && (pf.revents & POLLOUT)
		&& write(2, line, (size_t)n) == (ssize_t)n) {
		g_log_lost = 0;
	} else {
		g_log_lost++;
	}
}

static void
log_counter_line(const char *prog, fido2_log_counter *c, uint32_t now_ms)
{
	if (c->detail[0]) {
		fido2_log(prog, "%lu %s%s (latest: %s)", c->count, c->what,
			c->logged ? " since the last report" : "", c->detail);
	} else {
		fido2_log(prog, "%lu %s%s", c->count, c->what,
			c->logged ? " since the last report" : "");
	}
	c->count = 0;
	c->logged = 1;
	c->last_ms = now_ms;
	c->detail[0] = 0;
}

void
fido2_log_periodic(const char *prog, fido2_log_counter *c, uint32_t now_ms,
	unsigned long n)
{
	c->count += n;
	if (c->count > 0 && (!c->logged
		|| (uint32_t)(now_ms - c->last_ms) >= FIDO2_LOG_PERIOD_MS)) {
		log_counter_line(prog, c, now_ms);
	}
}

void
fido2_log_event(const char *prog, fido2_log_counter *c, uint32_t now_ms,
	const char *detail)
{
	if (detail != NULL) {
		snprintf(c->detail, sizeof c->detail, "%s", detail);
	}
	fido2_log_periodic(prog, c, now_ms, 1);
}
