/*
 * soc_client.c -- the host link of the `soc` backend (soc_client.h), on
 * one of three transports:
 *   pipe    the simulation harness as a child process, mailbox frames on
 *           its stdin and stdout (the default: the fast simulation);
 *   pty     FALCON_ACCEL_SOC_LINK=uart: the harness as a child with
 *           --uart-pty, UART link frames (header, body, CRC-32) on the
 *           pseudo-terminal it opens: the code path of a board;
 *   serial  FALCON_ACCEL_SOC_PORT=/dev/ttyUSB0: a board's serial port
 *           (termios raw, 8N1, FALCON_ACCEL_SOC_BAUD, default
 *           FA_SOC_LINK_BAUD), UART link frames; no simulator.
 * poll() with a deadline on every read.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "soc_client.h"
#include "soc_proto.h"

#ifndef FA_SOC_SIM_DEFAULT
#define FA_SOC_SIM_DEFAULT "build/soc-sim/soc_sim"
#endif
#ifndef FA_SOC_FW_DEFAULT
#define FA_SOC_FW_DEFAULT "build/soc-fw/fw.elf"
#endif

enum { LINK_PIPE, LINK_PTY, LINK_SERIAL };

struct fa_soc {
	int link;                   /* LINK_* */
	pid_t pid;                  /* the harness (pipe, pty) */
	int to_child, from_child;   /* pipe: its stdin, stdout; pty, serial: the tty twice */
	int console_fd;             /* pty, serial: CONSOLE frames go here (-1: dropped) */
	uint32_t seq;
	double timeout_s;
	uint8_t inbuf[4096];        /* pty, serial: bytes read ahead */
	size_t in_pos, in_len;
	uint8_t req[FA_SOC_MAX_MSG + FA_SOC_LINK_HDR + FA_SOC_LINK_CRC_LEN];
	uint8_t rsp[FA_SOC_MAX_MSG];
};

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v != NULL && *v != 0 ? v : def;
}

/* The transport $FALCON_ACCEL_SOC_PORT / $FALCON_ACCEL_SOC_LINK select. */
static int link_kind(void)
{
	const char *l = getenv("FALCON_ACCEL_SOC_LINK");

	if (getenv("FALCON_ACCEL_SOC_PORT") != NULL && *getenv("FALCON_ACCEL_SOC_PORT") != 0) {
		return LINK_SERIAL;
	}
	return l != NULL && strcmp(l, "uart") == 0 ? LINK_PTY : LINK_PIPE;
}

static unsigned link_baud(void)
{
	const char *b = getenv("FALCON_ACCEL_SOC_BAUD");

	return b != NULL && *b != 0 ? (unsigned)strtoul(b, NULL, 10) : FA_SOC_LINK_BAUD;
}

int fa_soc_probe(char *what, size_t what_len)
{
	const char *sim = env_or("FALCON_ACCEL_SOC_SIM", FA_SOC_SIM_DEFAULT);
	const char *fw = env_or("FALCON_ACCEL_SOC_FW", FA_SOC_FW_DEFAULT);
	int link = link_kind();

	if (link == LINK_SERIAL) {
		const char *port = getenv("FALCON_ACCEL_SOC_PORT");

		if (access(port, R_OK | W_OK) != 0) {
			snprintf(what, what_len, "serial port %s: %s", port, strerror(errno));
			return 0;
		}
		snprintf(what, what_len, "UART link on serial port %s, %u baud", port,
			link_baud());
		return 1;
	}
	if (access(sim, X_OK) != 0) {
		snprintf(what, what_len, "no simulator at %s: make -C soc sim", sim);
		return 0;
	}
	if (access(fw, R_OK) != 0) {
		snprintf(what, what_len, "no firmware at %s: make -C soc fw", fw);
		return 0;
	}
	snprintf(what, what_len, "simulator %s, firmware %s%s", sim, fw,
		link == LINK_PTY ? ", UART link on a pseudo-terminal" : "");
	return 1;
}

fa_soc *fa_soc_open(char *err, size_t err_len)
{
	return fa_soc_open_ex(NULL, err, err_len);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static speed_t baud_code(unsigned baud)
{
	static const struct { unsigned rate; speed_t code; } t[] = {
		{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 },
		{ 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
#ifdef B460800
		{ 460800, B460800 }, { 921600, B921600 }, { 1000000, B1000000 },
		{ 2000000, B2000000 }, { 3000000, B3000000 },
#endif
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i ++) {
		if (t[i].rate == baud) {
			return t[i].code;
		}
	}
	return (speed_t)0;
}

/* A tty for the UART link: raw, 8N1, no flow control, non-blocking; -1
   with a message. */
static int open_tty(const char *path, unsigned baud, int flush, char *err,
	size_t err_len)
{
	struct termios t;
	speed_t sp = baud_code(baud);
	int fd;

	if (sp == (speed_t)0) {
		snprintf(err, err_len, "soc: FALCON_ACCEL_SOC_BAUD=%u is not a rate this "
			"host's termios knows (9600 .. 3000000)", baud);
		return -1;
	}
	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, err_len, "soc: cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	if (tcgetattr(fd, &t) != 0) {
		snprintf(err, err_len, "soc: %s is not a terminal: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	cfmakeraw(&t);
	t.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CSIZE);
#ifdef CRTSCTS
	t.c_cflag &= ~(tcflag_t)CRTSCTS;
#endif
	t.c_cflag |= CS8 | CLOCAL | CREAD;
	t.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	cfsetispeed(&t, sp);
	cfsetospeed(&t, sp);
	if (tcsetattr(fd, TCSANOW, &t) != 0) {
		snprintf(err, err_len, "soc: cannot set %s to %u baud 8N1 raw: %s", path,
			baud, strerror(errno));
		close(fd);
		return -1;
	}
	if (flush) {
		/* what the board sent before we listened (boot console, noise);
		   the simulation's boot console is kept (the frame reader skips
		   what is not a whole frame anyway) */
		tcflush(fd, TCIOFLUSH);
	}
	return fd;
}

static fa_soc *new_soc(int link)
{
	fa_soc *s = calloc(1, sizeof *s);
	const char *tmo = getenv("FALCON_ACCEL_SOC_TIMEOUT");

	if (s == NULL) {
		return NULL;
	}
	s->link = link;
	s->to_child = s->from_child = s->console_fd = -1;
	s->timeout_s = tmo != NULL ? strtod(tmo, NULL) : 3600.0;
	if (!(s->timeout_s > 0)) {
		s->timeout_s = 3600.0;
	}
	return s;
}

/* pty: the harness's first stdout line, "soc_sim: uart pty PATH". */
static int read_pty_path(int fd, char *path, size_t len, double deadline)
{
	size_t n = 0;
	char line[512];
	const char *pre = "soc_sim: uart pty ";

	while (n + 1 < sizeof line) {
		struct pollfd pf = { fd, POLLIN, 0 };
		double left = deadline - now_s();
		ssize_t r;

		if (left <= 0) {
			return -2;
		}
		r = poll(&pf, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			continue;
		}
		r = read(fd, line + n, 1);
		if (r <= 0) {
			return -1;
		}
		if (line[n] == '\n') {
			line[n] = 0;
			if (strncmp(line, pre, strlen(pre)) != 0
				|| strlen(line + strlen(pre)) + 1 > len)
			{
				return -1;
			}
			strcpy(path, line + strlen(pre));
			return 0;
		}
		n ++;
	}
	return -1;
}

/*
 * pty, serial: a PING before the first request, retried on a FRAME_*
 * answer (noise before we listened). A PING frame fits the UART's receive
 * FIFO, so it arrives whole even while the firmware is still starting
 * (the simulation starts with the host); a large request sent then would
 * overrun it. It also tells a board that does not answer (wrong port,
 * baud rate or image) from one that is slow. 0, or -1 with a message.
 */
static int link_hello(fa_soc *s, char *err, size_t err_len)
{
	double keep = s->timeout_s;
	fa_soc_reply r;
	int k;

	if (s->link == LINK_SERIAL && s->timeout_s > 10) {
		s->timeout_s = 10;
	}
	for (k = 0; k < 3; k ++) {
		char e[256];

		if (fa_soc_call(s, FA_SOC_OP_PING, 0, 0, NULL, 0, &r, e, sizeof e) == 0
			&& r.status == FA_SOC_ST_OK)
		{
			s->timeout_s = keep;
			return 0;
		}
		snprintf(err, err_len, "soc: no answer to PING on the UART link: %s", e);
		if (s->to_child < 0) {
			break;          /* timeout or link gone: the message says */
		}
	}
	s->timeout_s = keep;
	return -1;
}

fa_soc *fa_soc_open_ex(const char *const *extra_args, char *err, size_t err_len)
{
	const char *sim = env_or("FALCON_ACCEL_SOC_SIM", FA_SOC_SIM_DEFAULT);
	const char *fw = env_or("FALCON_ACCEL_SOC_FW", FA_SOC_FW_DEFAULT);
	const char *console = env_or("FALCON_ACCEL_SOC_CONSOLE", "/dev/null");
	int link = link_kind();
	int in[2], out[2];
	fa_soc *s;

	if (link == LINK_SERIAL) {
		s = new_soc(link);
		if (s == NULL) {
			snprintf(err, err_len, "soc: out of memory");
			return NULL;
		}
		s->to_child = open_tty(getenv("FALCON_ACCEL_SOC_PORT"), link_baud(), 1, err,
			err_len);
		if (s->to_child < 0) {
			free(s);
			return NULL;
		}
		s->from_child = s->to_child;
		if (strcmp(console, "/dev/null") != 0) {
			s->console_fd = open(console, O_WRONLY | O_CREAT | O_APPEND, 0644);
		}
		signal(SIGPIPE, SIG_IGN);
		if (link_hello(s, err, err_len) != 0) {
			fa_soc_close(s);
			return NULL;
		}
		return s;
	}
	if (access(sim, X_OK) != 0) {
		snprintf(err, err_len, "soc: simulator %s not found (make -C soc sim, "
			"or set FALCON_ACCEL_SOC_SIM)", sim);
		return NULL;
	}
	if (access(fw, R_OK) != 0) {
		snprintf(err, err_len, "soc: firmware %s not found (make -C soc/fw, "
			"or set FALCON_ACCEL_SOC_FW)", fw);
		return NULL;
	}
	s = new_soc(link);
	if (s == NULL || pipe(in) != 0 || pipe(out) != 0) {
		snprintf(err, err_len, "soc: out of resources");
		free(s);
		return NULL;
	}
	s->pid = fork();
	if (s->pid < 0) {
		snprintf(err, err_len, "soc: fork: %s", strerror(errno));
		free(s);
		return NULL;
	}
	if (s->pid == 0) {
		int fd = open(console, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(in[0], 0);
		dup2(out[1], 1);
		if (fd >= 0) {
			dup2(fd, 2);
		}
		const char *argv[18];
		unsigned na = 0;

		close(in[1]);
		close(out[0]);
#ifdef __linux__
		/* the simulation must not outlive its host (kill -9 included) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
		argv[na ++] = sim;
		argv[na ++] = "--fw";
		argv[na ++] = fw;
		if (link == LINK_PTY) {
			argv[na ++] = "--uart-pty";
		}
		while (extra_args != NULL && *extra_args != NULL && na < 17) {
			argv[na ++] = *extra_args ++;
		}
		argv[na] = NULL;
		execv(sim, (char *const *)argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	s->to_child = in[1];
	s->from_child = out[0];
	signal(SIGPIPE, SIG_IGN);
	if (link == LINK_PTY) {
		char path[256];
		int r = read_pty_path(s->from_child, path, sizeof path, now_s() + 120);

		close(s->to_child);
		close(s->from_child);
		s->to_child = s->from_child = -1;
		if (r != 0) {
			snprintf(err, err_len, "soc: the simulator did not name its "
				"pseudo-terminal (%s)", r == -2 ? "timeout" : "exited");
			fa_soc_close(s);
			return NULL;
		}
		s->to_child = open_tty(path, link_baud(), 0, err, err_len);
		if (s->to_child < 0) {
			fa_soc_close(s);
			return NULL;
		}
		s->from_child = s->to_child;
		if (strcmp(console, "/dev/null") != 0) {
			s->console_fd = open(console, O_WRONLY | O_CREAT | O_APPEND, 0644);
		}
		if (link_hello(s, err, err_len) != 0) {
			fa_soc_close(s);
			return NULL;
		}
	}
	return s;
}

static void close_fds(fa_soc *s)
{
	if (s->to_child >= 0) {
		close(s->to_child);
	}
	if (s->from_child >= 0 && s->from_child != s->to_child) {
		close(s->from_child);
	}
	s->to_child = s->from_child = -1;
}

void fa_soc_close(fa_soc *s)
{
	int st;

	if (s == NULL) {
		return;
	}
	close_fds(s);
	if (s->console_fd >= 0) {
		close(s->console_fd);
	}
	if (s->pid > 0) {
		/* EOF on its stdin (pipe), the pty closed after use (pty) ends
		   the harness; do not wait long */
		struct timespec ts = { 0, 10000000 };
		int k;

		for (k = 0; k < 200; k ++) {
			if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
				s->pid = 0;
				break;
			}
			nanosleep(&ts, NULL);
		}
		if (s->pid > 0) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &st, 0);
		}
	}
	free(s);
}

static void fail_link(fa_soc *s)
{
	if (s->pid > 0) {
		int st;

		kill(s->pid, SIGKILL);
		waitpid(s->pid, &st, 0);
		s->pid = 0;
	}
	close_fds(s);
}

/* Read exactly len bytes before the deadline; 0, -1 (EOF/error), -2 (timeout). */
static int read_full(fa_soc *s, uint8_t *p, size_t len, double deadline)
{
	while (len > 0) {
		struct pollfd pf = { s->from_child, POLLIN, 0 };
		double left = deadline - now_s();
		ssize_t r;

		if (left <= 0) {
			return -2;
		}
		r = poll(&pf, 1, left > 60 ? 60000 : (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r < 0) {
			return -1;
		}
		if (r == 0) {
			continue;
		}
		r = read(s->from_child, p, len);
		if (r <= 0) {
			if (r < 0 && errno == EINTR) {
				continue;
			}
			return -1;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

/* Write all of p; 0, or -1 (the peer is gone, or no room before the deadline). */
static int write_all(int fd, const uint8_t *p, size_t len, double deadline)
{
	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd pf = { fd, POLLOUT, 0 };
			double left = deadline - now_s();

			if (left <= 0) {
				return -1;
			}
			poll(&pf, 1, left > 60 ? 60000 : (int)(left * 1000) + 1);
			continue;
		}
		if (w <= 0) {
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* pipe: one mailbox frame out, the reply into s->rsp; its length, or -1. */
static long xfer_pipe(fa_soc *s, const uint8_t *req, size_t req_len,
	char *err, size_t err_len)
{
	uint8_t hdr[8];
	size_t len;
	double deadline;
	int r;

	fa_soc_put32(s->req, FA_SOC_FRAME_MAGIC);
	fa_soc_put32(s->req + 4, (uint32_t)req_len);
	memcpy(s->req + 8, req, req_len);
	deadline = now_s() + s->timeout_s;
	if (write_all(s->to_child, s->req, req_len + 8, deadline) != 0) {
		snprintf(err, err_len, "soc: the simulator is gone (write failed)");
		fail_link(s);
		return -1;
	}
	r = read_full(s, hdr, 8, deadline);
	if (r == 0 && (fa_soc_get32(hdr) != FA_SOC_FRAME_MAGIC
		|| fa_soc_get32(hdr + 4) > FA_SOC_MAX_MSG || fa_soc_get32(hdr + 4) < FA_SOC_RSP_HDR))
	{
		snprintf(err, err_len, "soc: malformed frame from the simulator");
		fail_link(s);
		return -1;
	}
	len = r == 0 ? fa_soc_get32(hdr + 4) : 0;
	if (r == 0) {
		r = read_full(s, s->rsp, len, deadline);
	}
	if (r != 0) {
		snprintf(err, err_len, r == -2 ? "soc: no reply within %.0f s "
			"(FALCON_ACCEL_SOC_TIMEOUT); simulator stopped"
			: "soc: the simulator exited (%.0f s limit not reached)",
			s->timeout_s);
		fail_link(s);
		return -1;
	}
	return (long)len;
}

/* pty, serial: the next byte from the tty; 0..255, -1 (gone), -2 (timeout). */
static int tty_byte(fa_soc *s, double deadline)
{
	while (s->in_pos == s->in_len) {
		struct pollfd pf = { s->from_child, POLLIN, 0 };
		double left = deadline - now_s();
		ssize_t r;

		if (left <= 0) {
			return -2;
		}
		r = poll(&pf, 1, left > 60 ? 60000 : (int)(left * 1000) + 1);
		if (r < 0 && errno != EINTR) {
			return -1;
		}
		if (r <= 0) {
			continue;
		}
		r = read(s->from_child, s->inbuf, sizeof s->inbuf);
		if (r < 0 && (errno == EINTR || errno == EAGAIN)) {
			continue;
		}
		if (r < 0 || (r == 0 && (pf.revents & (POLLHUP | POLLERR)))) {
			return -1;
		}
		s->in_pos = 0;
		s->in_len = (size_t)r;
	}
	return s->inbuf[s->in_pos ++];
}

static int tty_read(fa_soc *s, uint8_t *p, size_t len, double deadline)
{
	while (len -- > 0) {
		int b = tty_byte(s, deadline);

		if (b < 0) {
			return b;
		}
		*p ++ = (uint8_t)b;
	}
	return 0;
}

/* pty, serial: one UART link frame out (header, body, CRC-32), then frames
   in until the REPLY (CONSOLE frames to the console, bytes outside frames
   skipped): the reply's body into s->rsp; its length, or -1. */
static long xfer_uart(fa_soc *s, const uint8_t *req, size_t req_len,
	char *err, size_t err_len)
{
	const char *what = s->link == LINK_SERIAL ? "the board" : "the simulator";
	uint8_t hdr[8], c[4];
	uint32_t crc, len, type, win;
	double deadline;
	int r;

	fa_soc_put32(s->req, FA_SOC_LINK_MAGIC);
	fa_soc_put32(s->req + 4, (uint32_t)req_len);
	fa_soc_put32(s->req + 8, FA_SOC_FT_REQUEST);
	memcpy(s->req + FA_SOC_LINK_HDR, req, req_len);
	crc = fa_soc_crc32(0, s->req + 4, FA_SOC_LINK_HDR - 4 + req_len);
	fa_soc_put32(s->req + FA_SOC_LINK_HDR + req_len, crc);
	deadline = now_s() + s->timeout_s;
	if (write_all(s->to_child, s->req, FA_SOC_LINK_HDR + req_len + FA_SOC_LINK_CRC_LEN,
		deadline) != 0)
	{
		snprintf(err, err_len, "soc: cannot write the request to %s", what);
		fail_link(s);
		return -1;
	}
	for (;;) {
		win = 0;
		do {
			r = tty_byte(s, deadline);
			win = (win >> 8) | ((uint32_t)(r & 0xFF) << 24);
		} while (r >= 0 && win != FA_SOC_LINK_MAGIC);
		if (r >= 0) {
			r = tty_read(s, hdr, sizeof hdr, deadline);
		}
		len = fa_soc_get32(hdr);
		type = fa_soc_get32(hdr + 4);
		if (r == 0 && (len > FA_SOC_MAX_MSG || (type != FA_SOC_FT_REPLY
			&& type != FA_SOC_FT_CONSOLE)))
		{
			snprintf(err, err_len, "soc: malformed frame from %s (type %u, "
				"length %u)", what, type, len);
			fail_link(s);
			return -1;
		}
		if (r == 0) {
			r = tty_read(s, s->rsp, len, deadline);
		}
		if (r == 0) {
			r = tty_read(s, c, sizeof c, deadline);
		}
		if (r != 0) {
			snprintf(err, err_len, r == -2 ? "soc: no reply from %s within %.0f s "
				"(FALCON_ACCEL_SOC_TIMEOUT%s)" : "soc: the link to %s is gone "
				"(%.0f s limit not reached%s)", what, s->timeout_s,
				s->link == LINK_SERIAL ? "; is the firmware running, at "
				"FALCON_ACCEL_SOC_BAUD?" : "");
			fail_link(s);
			return -1;
		}
		crc = fa_soc_crc32(fa_soc_crc32(0, hdr, sizeof hdr), s->rsp, len);
		if (crc != fa_soc_get32(c)) {
			snprintf(err, err_len, "soc: frame from %s with a bad CRC-32 "
				"(0x%08X, computed 0x%08X; type %u, %u bytes): line noise or "
				"another baud rate (FALCON_ACCEL_SOC_BAUD)", what,
				fa_soc_get32(c), crc, type, len);
			fail_link(s);
			return -1;
		}
		if (type == FA_SOC_FT_CONSOLE) {
			if (s->console_fd >= 0 && write(s->console_fd, s->rsp, len) < 0) {
				close(s->console_fd);
				s->console_fd = -1;
			}
			continue;
		}
		if (len < FA_SOC_RSP_HDR) {
			snprintf(err, err_len, "soc: reply of %u bytes from %s (header: %u)",
				len, what, FA_SOC_RSP_HDR);
			fail_link(s);
			return -1;
		}
		return (long)len;
	}
}

int fa_soc_raw(fa_soc *s, const uint8_t *req, size_t req_len,
	fa_soc_reply *rsp, char *err, size_t err_len)
{
	size_t off, len;
	long n;

	if (s->to_child < 0) {
		snprintf(err, err_len, "soc: the link is closed after an earlier failure");
		return -1;
	}
	if (req_len > FA_SOC_MAX_MSG) {
		snprintf(err, err_len, "soc: request of %zu bytes exceeds the "
			"mailbox (%u)", req_len, FA_SOC_MAX_MSG);
		return -1;
	}
	n = s->link == LINK_PIPE ? xfer_pipe(s, req, req_len, err, err_len)
		: xfer_uart(s, req, req_len, err, err_len);
	if (n < 0) {
		return -1;
	}
	len = (size_t)n;
	if (fa_soc_get32(s->rsp) != FA_SOC_RSP_MAGIC) {
		snprintf(err, err_len, "soc: reply with a bad magic");
		fail_link(s);
		return -1;
	}
	memset(rsp, 0, sizeof *rsp);
	rsp->op = s->rsp[FA_SOC_RSP_OP_OFF] | (s->rsp[FA_SOC_RSP_OP_OFF + 1] << 8);
	rsp->status = s->rsp[FA_SOC_RSP_STATUS_OFF]
		| (s->rsp[FA_SOC_RSP_STATUS_OFF + 1] << 8);
	rsp->seq = fa_soc_get32(s->rsp + FA_SOC_RSP_SEQ_OFF);
	rsp->lib_rc = (int32_t)fa_soc_get32(s->rsp + FA_SOC_RSP_LIBRC_OFF);
	rsp->cycles = fa_soc_get32(s->rsp + FA_SOC_RSP_CYCLES_OFF)
		| ((uint64_t)fa_soc_get32(s->rsp + FA_SOC_RSP_CYCLES_OFF + 4) << 32);
	rsp->aux = fa_soc_get32(s->rsp + FA_SOC_RSP_AUX_OFF)
		| ((uint64_t)fa_soc_get32(s->rsp + FA_SOC_RSP_AUX_OFF + 4) << 32);
	rsp->acc_compute = fa_soc_get32(s->rsp + FA_SOC_RSP_ACC_OFF);
	rsp->acc_bus = fa_soc_get32(s->rsp + FA_SOC_RSP_BUS_OFF);
	rsp->dma = fa_soc_get32(s->rsp + FA_SOC_RSP_DMA_OFF);
	rsp->kcalls = fa_soc_get32(s->rsp + FA_SOC_RSP_KCALLS_OFF);
	off = FA_SOC_RSP_HDR;
	while (off < len) {
		uint32_t fl;

		if (len - off < 4 || rsp->nfields == 8
			|| (fl = fa_soc_get32(s->rsp + off)) > len - off - 4)
		{
			snprintf(err, err_len, "soc: malformed reply fields");
			return -1;
		}
		rsp->fields[rsp->nfields].p = s->rsp + off + 4;
		rsp->fields[rsp->nfields].len = fl;
		rsp->nfields ++;
		off += 4 + (size_t)fl;
	}
	return 0;
}

int fa_soc_call(fa_soc *s, unsigned op, unsigned logn, unsigned mode,
	const fa_soc_field *in, unsigned n, fa_soc_reply *rsp,
	char *err, size_t err_len)
{
	static uint8_t buf[FA_SOC_MAX_MSG];
	size_t len = FA_SOC_REQ_HDR;
	unsigned i;

	fa_soc_put32(buf, FA_SOC_REQ_MAGIC);
	buf[4] = (uint8_t)op;
	buf[5] = (uint8_t)(op >> 8);
	buf[6] = (uint8_t)logn;
	buf[7] = (uint8_t)mode;
	fa_soc_put32(buf + 8, ++ s->seq);
	for (i = 0; i < n; i ++) {
		if (in[i].len > sizeof buf - len - 4) {
			snprintf(err, err_len, "soc: request exceeds the mailbox (%u bytes)",
				FA_SOC_MAX_MSG);
			return -1;
		}
		fa_soc_put32(buf + len, in[i].len);
		memcpy(buf + len + 4, in[i].p, in[i].len);
		len += 4 + in[i].len;
	}
	if (fa_soc_raw(s, buf, len, rsp, err, err_len) != 0) {
		return -1;
	}
	if (rsp->status >= FA_SOC_ST_FRAME_CRC && rsp->status <= FA_SOC_ST_FRAME_SYNC) {
		snprintf(err, err_len, "soc: the SoC refused the request's frame: %s "
			"(aux %llu); the request was not run", fa_soc_status_name(rsp->status),
			(unsigned long long)rsp->aux);
		return -1;
	}
	if (rsp->seq != s->seq || rsp->op != op) {
		snprintf(err, err_len, "soc: reply to another request (op %u seq %u)",
			rsp->op, rsp->seq);
		return -1;
	}
	return 0;
}

const char *fa_soc_status_name(unsigned st)
{
	static const char *const names[] = {
		"OK", "BAD_MAGIC", "BAD_OP", "BAD_LENGTH", "BAD_DEGREE",
		"BAD_MODE", "LIB_ERROR", "TRAP", "ACCEL", "SIM_TIMEOUT",
		"FRAME_CRC", "FRAME_LENGTH", "FRAME_TIMEOUT", "FRAME_TYPE",
		"FRAME_UART", "FRAME_SYNC"
	};

	return st < sizeof names / sizeof names[0] ? names[st] : "UNKNOWN";
}

int fa_soc_mode_parse(const char *s)
{
	if (s == NULL || strcmp(s, "fw") == 0) {
		return FA_SOC_MODE_FW;
	}
	if (strcmp(s, "accel") == 0) {
		return FA_SOC_MODE_ACCEL;
	}
	if (strcmp(s, "dma") == 0) {
		return FA_SOC_MODE_DMA;
	}
	return -1;
}

const char *fa_soc_mode_name(unsigned mode)
{
	return mode == FA_SOC_MODE_FW ? "fw" : mode == FA_SOC_MODE_ACCEL
		? "accel" : mode == FA_SOC_MODE_DMA ? "dma" : "?";
}
