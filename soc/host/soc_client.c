/*
 * soc_client.c -- the host link of the `soc` backend (soc_client.h):
 * the simulation harness as a child process, frames on its stdin and
 * stdout, poll() with a deadline on every read.
 */
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

struct fa_soc {
	pid_t pid;
	int to_child, from_child;
	uint32_t seq;
	double timeout_s;
	uint8_t req[FA_SOC_MAX_MSG + 8];
	uint8_t rsp[FA_SOC_MAX_MSG];
};

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v != NULL && *v != 0 ? v : def;
}

int fa_soc_probe(char *what, size_t what_len)
{
	const char *sim = env_or("FALCON_ACCEL_SOC_SIM", FA_SOC_SIM_DEFAULT);
	const char *fw = env_or("FALCON_ACCEL_SOC_FW", FA_SOC_FW_DEFAULT);

	if (access(sim, X_OK) != 0) {
		snprintf(what, what_len, "no simulator at %s: make -C soc sim", sim);
		return 0;
	}
	if (access(fw, R_OK) != 0) {
		snprintf(what, what_len, "no firmware at %s: make -C soc fw", fw);
		return 0;
	}
	snprintf(what, what_len, "simulator %s, firmware %s", sim, fw);
	return 1;
}

fa_soc *fa_soc_open(char *err, size_t err_len)
{
	return fa_soc_open_ex(NULL, err, err_len);
}

fa_soc *fa_soc_open_ex(const char *const *extra_args, char *err, size_t err_len)
{
	const char *sim = env_or("FALCON_ACCEL_SOC_SIM", FA_SOC_SIM_DEFAULT);
	const char *fw = env_or("FALCON_ACCEL_SOC_FW", FA_SOC_FW_DEFAULT);
	const char *console = env_or("FALCON_ACCEL_SOC_CONSOLE", "/dev/null");
	const char *tmo = getenv("FALCON_ACCEL_SOC_TIMEOUT");
	int in[2], out[2];
	fa_soc *s;

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
	s = calloc(1, sizeof *s);
	if (s == NULL || pipe(in) != 0 || pipe(out) != 0) {
		snprintf(err, err_len, "soc: out of resources");
		free(s);
		return NULL;
	}
	s->timeout_s = tmo != NULL ? strtod(tmo, NULL) : 3600.0;
	if (!(s->timeout_s > 0)) {
		s->timeout_s = 3600.0;
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
		const char *argv[16];
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
		while (extra_args != NULL && *extra_args != NULL && na < 15) {
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
	return s;
}

void fa_soc_close(fa_soc *s)
{
	int st;

	if (s == NULL) {
		return;
	}
	if (s->to_child >= 0) {
		close(s->to_child);
	}
	if (s->from_child >= 0) {
		close(s->from_child);
	}
	if (s->pid > 0) {
		/* EOF on its stdin ends the harness; do not wait long */
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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fail_link(fa_soc *s)
{
	if (s->pid > 0) {
		int st;

		kill(s->pid, SIGKILL);
		waitpid(s->pid, &st, 0);
		s->pid = 0;
	}
	if (s->to_child >= 0) {
		close(s->to_child);
		s->to_child = -1;
	}
	if (s->from_child >= 0) {
		close(s->from_child);
		s->from_child = -1;
	}
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

int fa_soc_raw(fa_soc *s, const uint8_t *req, size_t req_len,
	fa_soc_reply *rsp, char *err, size_t err_len)
{
	uint8_t hdr[8];
	size_t off = 0, len;
	double deadline;
	int r;

	if (s->to_child < 0) {
		snprintf(err, err_len, "soc: the link is closed after an earlier failure");
		return -1;
	}
	if (req_len > FA_SOC_MAX_MSG) {
		snprintf(err, err_len, "soc: request of %zu bytes exceeds the "
			"mailbox (%u)", req_len, FA_SOC_MAX_MSG);
		return -1;
	}
	fa_soc_put32(s->req, FA_SOC_FRAME_MAGIC);
	fa_soc_put32(s->req + 4, (uint32_t)req_len);
	memcpy(s->req + 8, req, req_len);
	while (off < req_len + 8) {
		ssize_t w = write(s->to_child, s->req + off, req_len + 8 - off);

		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w <= 0) {
			snprintf(err, err_len, "soc: the simulator is gone (write failed)");
			fail_link(s);
			return -1;
		}
		off += (size_t)w;
	}
	deadline = now_s() + s->timeout_s;
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
		"BAD_MODE", "LIB_ERROR", "TRAP", "ACCEL", "SIM_TIMEOUT"
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
