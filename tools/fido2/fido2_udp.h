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
} fido2_udp;

/* A port number 1..65535 in s: 0 and *out set, else -1. */
int fido2_udp_parse_port(const char *s, int *out);

/* Bind and set the reply address: 0, else -1 after a message on stderr. */
int fido2_udp_open(fido2_udp *u, const char *prog, int port, int reply_port);

/*
 * Wait up to timeout_ms for a report: 1 with rpt filled, 0 if none came
 * (a datagram of another size is dropped with a message), -1 on a poll or
 * receive error other than an interrupted call.
 */
int fido2_udp_recv(fido2_udp *u, uint8_t rpt[64], int timeout_ms);

void fido2_udp_send(fido2_udp *u, const uint8_t rpt[64]);
void fido2_udp_close(fido2_udp *u);

/* CLOCK_MONOTONIC in ms (wraps at 2^32; the CTAPHID timers take
   differences); `user` unused (the fido2_platform signature). */
uint32_t fido2_host_now_ms(void *user);

/* len bytes from getrandom(): 0, else -1. */
int fido2_host_random(void *buf, size_t len);

#endif
