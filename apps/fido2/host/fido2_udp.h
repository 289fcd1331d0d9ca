/*
 * fido2_udp.h -- the host side shared by the two FIDO2 daemons
 * (falcon-accel-fido2 and falcon-accel-fido2-soc): CTAPHID over UDP on
 * loopback, the convention of open authenticator simulators (each
 * datagram is one 64-byte HID report; received on --port, answered to
 * --reply-port on 127.0.0.1), the port option parser, the monotonic
 * millisecond clock and OS randomness.
 */
#ifndef FIDO2_UDP_H
#define FIDO2_UDP_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	int sock;                   /* bound to 127.0.0.1:port */
	struct sockaddr_in reply;   /* 127.0.0.1:reply_port */
	const char *prog;           /* program name for messages */
	unsigned long dropped;      /* datagrams not 64 bytes, not yet reported */
} fido2_udp;

/* A port number 1..65535 in s: 0 and *out set, else -1. */
int fido2_udp_parse_port(const char *s, int *out);

/* Bind and set the reply address: 0, else -1 after a message on stderr.
   port == reply_port is refused (the daemon would answer itself). */
int fido2_udp_open(fido2_udp *u, const char *prog, int port, int reply_port);

/*
 * Wait up to timeout_ms for a report: 1 with rpt filled, 0 if none came
 * (a datagram of another size is dropped and counted in u->dropped, never
 * logged one by one: fido2_log_periodic reports the count), -1 on a poll
 * or receive error other than an interrupted call.
 */
int fido2_udp_recv(fido2_udp *u, uint8_t rpt[64], int timeout_ms);

void fido2_udp_send(fido2_udp *u, const uint8_t rpt[64]);
void fido2_udp_close(fido2_udp *u);

/* CLOCK_MONOTONIC in ms (wraps at 2^32; the CTAPHID timers take
   differences); `user` unused (the fido2_platform signature). */
uint32_t fido2_host_now_ms(void *user);

/* len bytes from getrandom(): 0, else -1. */
int fido2_host_random(void *buf, size_t len);

/*
 * The daemons' log on stderr, which never blocks the request loop: a line
 * is written with one write() only when the descriptor takes it at once
 * (poll with no wait); otherwise it is counted as lost, and the count is
 * reported with the next line that gets through. A stderr that nobody
 * reads (a pipe left undrained) costs lines, never the service.
 */
void fido2_log(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A message that a peer can trigger at will (a malformed datagram, a WINK,
 * a store failure on every request) is never logged per event: it is
 * counted here, and fido2_log_periodic, called from the request loop,
 * prints one line per kind with the count at most every
 * FIDO2_LOG_PERIOD_MS (the first occurrence at once).
 */
#define FIDO2_LOG_PERIOD_MS 10000u
typedef struct {
	const char *what;        /* e.g. "malformed datagram(s) dropped" */
	unsigned long count;     /* events since the last line */
	uint32_t last_ms;        /* time of the last line */
	int logged;              /* a line was printed already */
	char detail[1100];       /* the latest event's detail (may be empty) */
} fido2_log_counter;

/* Counts one event (detail: may be NULL) and prints if the period allows. */
void fido2_log_event(const char *prog, fido2_log_counter *c, uint32_t now_ms,
	const char *detail);
/* Adds n events without a detail (e.g. u->dropped) and prints if due. */
void fido2_log_periodic(const char *prog, fido2_log_counter *c,
	uint32_t now_ms, unsigned long n);

#endif
