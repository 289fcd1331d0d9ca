/*
 * falcon-accel-fido2-soc: the FIDO2 security key of falcon-accel-fido2
 * running as firmware on the simulated SoC (apps/fido2/fw/fido2_main.c), bridged to
 * the same transport: CTAPHID over UDP on the loopback interface, one
 * 64-byte HID report per datagram, received on 127.0.0.1:--port and
 * answered to 127.0.0.1:--reply-port.
 *
 *   falcon-accel-fido2-soc --state DIR [--port 8111] [--reply-port 7112]
 *       --user-presence auto [--core soc|host] [--mode fw|accel|dma]
 *       [--sim PATH] [--fw PATH] [--cycle-log FILE]
 *
 * --core soc (default): the Verilated SoC (soc) runs the firmware as a
 *   child process (soc/host/soc_client.c); every report goes through the
 *   mailbox (op FA_SOC_OP_FIDO2, apps/fido2/fw/fido2_soc.h) with 32 bytes of fresh
 *   host entropy; while the firmware works on a report that completed a
 *   CBOR or MSG request for longer than 0.1 s, the bridge sends CTAPHID
 *   KEEPALIVE (processing) on its channel every 0.1 s, as a key does while
 *   it computes. Reports arriving meanwhile wait in the socket (no
 *   CTAPHID_CANCEL or ERR_CHANNEL_BUSY during a command on the SoC).
 * --core host: the same device code (apps/fido2/fw/fido2_soc_dev.c) in this process
 *   with the host library (for a fast run of the same suite, and to
 *   provision a flash image that the SoC then boots).
 * State: DIR/flash.bin, the firmware's persistent regions as one image of
 *   384 KiB (FIDO2_SOC_IMAGE_BASE/SIZE, apps/fido2/fw/fido2_soc.h): the expanded-key
 *   cache (256 KiB) then the flash of the page store (128 KiB), saved
 *   (temporary file, fsync, rename) after every change before the answer
 *   goes out: by the simulator (soc_sim --flash) or by this process. An
 *   image of the earlier layout (the 128 KiB flash alone) is converted at
 *   start (an empty cache before it).
 * --mode: the firmware's Falcon kernels (soc/fw/fw_accel.c); default dma.
 * --sim / --fw: simulator and firmware (else $FALCON_ACCEL_SOC_SIM and
 *   $FALCON_ACCEL_FIDO2_FW, else the build tree's build/soc-sim/soc_sim
 *   and build/soc-fw/fido2_fw.elf). $FALCON_ACCEL_SOC_TIMEOUT: seconds per
 *   report (default 3600); $FALCON_ACCEL_SOC_CONSOLE: the firmware's
 *   console file.
 * --cycle-log FILE: one JSON line per CTAP command (name, status, mcycle
 *   count and ms at 100 MHz on the SoC, wall time).
 * User presence: the firmware has no button and approves every request,
 *   so the bridge starts only with --user-presence auto given explicitly
 *   (and says so in a warning); prompt is refused.
 * Logging: the per-command line and the count of malformed datagrams go
 *   through fido2_log (fido2_udp.h), which never blocks the loop.
 * Exit status: 0 on SIGTERM/SIGINT, 1 when the simulation fails, 2 on
 * usage or start-up errors.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fido2_soc.h"
#include "fido2_udp.h"
#include "soc_client.h"
#include "soc_proto.h"

#ifndef FA_SOC_SIM_DEFAULT
#define FA_SOC_SIM_DEFAULT "build/soc-sim/soc_sim"
#endif
#ifndef FA_FIDO2_FW_DEFAULT
#define FA_FIDO2_FW_DEFAULT "build/soc-fw/fido2_fw.elf"
#endif

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the flash image file (--core host; the simulator has its own) */

static char g_flash_path[4096];
static uint8_t g_flash[FIDO2_SOC_IMAGE_SIZE] __attribute__((aligned(8)));
static uint8_t g_flash_saved[FIDO2_SOC_IMAGE_SIZE];

static int flash_load(void)
{
	FILE *f = fopen(g_flash_path, "rb");
	size_t n;

	memset(g_flash, 0xFF, sizeof g_flash);
	if (f == NULL) {
		memcpy(g_flash_saved, g_flash, sizeof g_flash);
		return errno == ENOENT ? 0 : -1;
	}
	n = fread(g_flash, 1, sizeof g_flash, f);
	if (n != sizeof g_flash || fgetc(f) != EOF) {
		fclose(f);
		errno = EINVAL;
		return -1;
	}
	fclose(f);
	memcpy(g_flash_saved, g_flash, sizeof g_flash);
	return 0;
}

static int flash_sync(const char *dir);

/* An image of the earlier layout (the flash alone): rewritten as the
   whole image, the cache region erased (0xFF: formatted at start). */
static int image_convert(const char *dir)
{
	FILE *f = fopen(g_flash_path, "rb");
	size_t n;

	if (f == NULL) {
		return -1;
	}
	memset(g_flash, 0xFF, sizeof g_flash);
	n = fread(g_flash + FIDO2_SOC_IMAGE_FLASH_OFF, 1, FIDO2_SOC_FLASH_SIZE, f);
	fclose(f);
	if (n != FIDO2_SOC_FLASH_SIZE) {
		errno = EINVAL;
		return -1;
	}
	memset(g_flash_saved, 0, sizeof g_flash_saved);
	g_flash_saved[0] = (uint8_t)~g_flash[0];   /* differs: written */
	return flash_sync(dir);
}

static int flash_sync(const char *dir)
{
	char tmp[4200];
	FILE *f;
	int dfd;

	if (memcmp(g_flash, g_flash_saved, sizeof g_flash) == 0) {
		return 0;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp", g_flash_path);
	f = fopen(tmp, "wb");
	if (f == NULL || fwrite(g_flash, 1, sizeof g_flash, f) != sizeof g_flash
		|| fflush(f) != 0 || fsync(fileno(f)) != 0)
	{
		if (f != NULL) {
			fclose(f);
		}
		return -1;
	}
	if (fclose(f) != 0 || rename(tmp, g_flash_path) != 0) {
		return -1;
	}
	dfd = open(dir, O_RDONLY);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	memcpy(g_flash_saved, g_flash, sizeof g_flash);
	return 0;
}

/* ---- one report on the SoC, in a worker thread (the main thread sends
   KEEPALIVE meanwhile) */

typedef struct {
	fa_soc *soc;
	unsigned mode;
	uint8_t req[FIDO2_SOC_ENTROPY + 64];
	fa_soc_reply rsp;
	int rc;
	char err[256];
	int done_fd;
} soc_job;

static void *soc_worker(void *arg)
{
	soc_job *j = arg;
	fa_soc_field f[2] = {
		{ j->req, FIDO2_SOC_ENTROPY },
		{ j->req + FIDO2_SOC_ENTROPY, 64 }
	};
	char c = 1;

	j->rc = fa_soc_call(j->soc, FA_SOC_OP_FIDO2, 0, j->mode, f, 2, &j->rsp,
		j->err, sizeof j->err);
	if (write(j->done_fd, &c, 1) != 1) {
		/* the main thread also polls with a timeout */
	}
	return NULL;
}

static void send_keepalive(fido2_udp *u, const uint8_t *cid)
{
	uint8_t r[64];

	memset(r, 0, sizeof r);
	memcpy(r, cid, 4);
	r[4] = FIDO2_HID_KEEPALIVE;
	r[5] = 0;
	r[6] = 1;
	r[7] = FIDO2_HID_KA_PROCESSING;
	fido2_udp_send(u, r);
}

/* Which reports complete a CBOR or MSG request (the ones the firmware may
   compute on for long): a shadow of the CTAPHID reassembly, used only to
   decide where KEEPALIVE belongs. */
static struct {
	uint8_t cid[4];
	uint8_t cmd;
	uint32_t need, got;
	int active;
} g_shadow;

static int completes_request(const uint8_t *rpt)
{
	if (rpt[4] & 0x80) {
		memcpy(g_shadow.cid, rpt, 4);
		g_shadow.cmd = rpt[4];
		g_shadow.need = ((uint32_t)rpt[5] << 8) | rpt[6];
		g_shadow.got = g_shadow.need < FIDO2_HID_INIT_DATA ? g_shadow.need
			: FIDO2_HID_INIT_DATA;
		g_shadow.active = 1;
	} else if (g_shadow.active && memcmp(rpt, g_shadow.cid, 4) == 0) {
		uint32_t left = g_shadow.need - g_shadow.got;

		g_shadow.got += left < FIDO2_HID_CONT_DATA ? left : FIDO2_HID_CONT_DATA;
	} else {
		return 0;
	}
	if (g_shadow.got < g_shadow.need) {
		return 0;
	}
	g_shadow.active = 0;
	return (g_shadow.cmd == FIDO2_HID_CBOR || g_shadow.cmd == FIDO2_HID_MSG)
		&& memcmp(rpt, "\xff\xff\xff\xff", 4) != 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: falcon-accel-fido2-soc --state DIR [--port 8111]"
		" [--reply-port 7112] --user-presence auto [--core soc|host]"
		" [--mode fw|accel|dma] [--sim PATH] [--fw PATH] [--cycle-log FILE]\n");
}

int main(int argc, char **argv)
{
	static fido2_soc_dev dev;
	static uint8_t out[FIDO2_SOC_OUT_MAX];
	static soc_job job;
	const char *state = NULL, *sim = NULL, *fw = NULL, *cycle_log = NULL;
	int port = 8111, reply_port = 7112, host_core = 0, mode = FA_SOC_MODE_DMA;
	int i, pipefd[2], status = 0, up_auto = 0;
	fido2_udp udp;
	fido2_log_counter log_dropped = { "malformed datagram(s) dropped"
		" (reports are 64 bytes)", 0, 0, 0, "" };
	struct sigaction sa;
	fa_soc *soc = NULL;
	FILE *clog = NULL;
	void *tmp = NULL;
	char err[256];
	unsigned long ncmd = 0;

	for (i = 1; i < argc; i += 2) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage();
			return 0;
		}
		if (v == NULL) {
			fprintf(stderr, "falcon-accel-fido2-soc: %s needs a value\n", a);
			usage();
			return 2;
		}
		if (strcmp(a, "--state") == 0) {
			state = v;
		} else if (strcmp(a, "--port") == 0 || strcmp(a, "--reply-port") == 0) {
			if (fido2_udp_parse_port(v, a[2] == 'p' ? &port : &reply_port) != 0) {
				fprintf(stderr, "falcon-accel-fido2-soc: bad %s '%s'\n", a, v);
				return 2;
			}
		} else if (strcmp(a, "--user-presence") == 0) {
			up_auto = strcmp(v, "auto") == 0;
			if (!up_auto) {
				fprintf(stderr, "falcon-accel-fido2-soc: --user-presence '%s':"
					" the SoC firmware has no button and approves presence"
					" itself; only auto is supported\n", v);
				return 2;
			}
		} else if (strcmp(a, "--core") == 0) {
			if (strcmp(v, "soc") == 0) {
				host_core = 0;
			} else if (strcmp(v, "host") == 0) {
				host_core = 1;
			} else {
				fprintf(stderr, "falcon-accel-fido2-soc: --core must be soc or"
					" host, not '%s'\n", v);
				return 2;
			}
		} else if (strcmp(a, "--mode") == 0) {
			mode = fa_soc_mode_parse(v);
			if (mode < 0) {
				fprintf(stderr, "falcon-accel-fido2-soc: --mode must be fw,"
					" accel or dma, not '%s'\n", v);
				return 2;
			}
		} else if (strcmp(a, "--sim") == 0) {
			sim = v;
		} else if (strcmp(a, "--fw") == 0) {
			fw = v;
		} else if (strcmp(a, "--cycle-log") == 0) {
			cycle_log = v;
		} else {
			fprintf(stderr, "falcon-accel-fido2-soc: unknown option '%s'\n", a);
			usage();
			return 2;
		}
	}
	if (state == NULL) {
		fprintf(stderr, "falcon-accel-fido2-soc: --state DIR is required\n");
		usage();
		return 2;
	}
	if (!up_auto) {
		fprintf(stderr, "falcon-accel-fido2-soc: the SoC firmware has no"
			" button and approves user presence itself: give"
			" --user-presence auto to run it so (any local process can then"
			" use the key)\n");
		usage();
		return 2;
	}
	if (port == reply_port) {
		fprintf(stderr, "falcon-accel-fido2-soc: --port and --reply-port are"
			" both %d: the bridge would receive its own answers; give two"
			" different ports\n", port);
		return 2;
	}
	if (mkdir(state, 0700) != 0 && errno != EEXIST) {
		fprintf(stderr, "falcon-accel-fido2-soc: cannot create %s: %s\n", state,
			strerror(errno));
		return 2;
	}
	snprintf(g_flash_path, sizeof g_flash_path, "%s/flash.bin", state);
	{
		/* a save interrupted by a kill (ours or the simulator's) leaves
		   flash.bin.tmp beside an intact flash.bin: drop it */
		char stale[4200];

		snprintf(stale, sizeof stale, "%s.tmp", g_flash_path);
		if (unlink(stale) != 0 && errno != ENOENT) {
			fprintf(stderr, "falcon-accel-fido2-soc: cannot remove %s: %s\n",
				stale, strerror(errno));
			return 2;
		}
	}
	if (cycle_log != NULL && (clog = fopen(cycle_log, "a")) == NULL) {
		fprintf(stderr, "falcon-accel-fido2-soc: cannot open %s: %s\n",
			cycle_log, strerror(errno));
		return 2;
	}

	{
		struct stat stf;

		if (stat(g_flash_path, &stf) == 0 && stf.st_size == FIDO2_SOC_FLASH_SIZE) {
			if (image_convert(state) != 0) {
				fprintf(stderr, "falcon-accel-fido2-soc: cannot convert the"
					" 128 KiB flash image %s: %s\n", g_flash_path,
					strerror(errno));
				return 2;
			}
			fprintf(stderr, "falcon-accel-fido2-soc: %s converted to the"
				" %u-byte image (expanded-key cache + flash)\n",
				g_flash_path, FIDO2_SOC_IMAGE_SIZE);
		} else if (stat(g_flash_path, &stf) == 0
			&& stf.st_size != FIDO2_SOC_IMAGE_SIZE)
		{
			fprintf(stderr, "falcon-accel-fido2-soc: flash image %s is %lld bytes,"
				" not %u\n", g_flash_path, (long long)stf.st_size,
				FIDO2_SOC_IMAGE_SIZE);
			return 2;
		}
	}
	if (host_core) {
		if (flash_load() != 0) {
			fprintf(stderr, "falcon-accel-fido2-soc: flash image %s: %s (it"
				" must be %u bytes)\n", g_flash_path, strerror(errno),
				FIDO2_SOC_IMAGE_SIZE);
			return 2;
		}
		tmp = malloc(FIDO2_TMP_SIZE);
		if (tmp == NULL) {
			fprintf(stderr, "falcon-accel-fido2-soc: out of memory\n");
			return 2;
		}
		fido2_soc_dev_setup(&dev, fa_backend_default(),
			g_flash + FIDO2_SOC_IMAGE_FLASH_OFF, tmp, fido2_host_now_ms, NULL);
		/* the same persistent expanded-key cache as the firmware's, at
		   the start of the image */
		fido2_soc_dev_set_ek_cache(&dev, g_flash, FIDO2_SOC_EK_SIZE, NULL, 1);
	} else {
		char base[16], size[16];
		const char *extra[7];
		fa_soc_reply r;

		if (sim == NULL) {
			sim = getenv("FALCON_ACCEL_SOC_SIM");
		}
		if (fw == NULL) {
			fw = getenv("FALCON_ACCEL_FIDO2_FW");
		}
		setenv("FALCON_ACCEL_SOC_SIM", sim != NULL && *sim ? sim
			: FA_SOC_SIM_DEFAULT, 1);
		setenv("FALCON_ACCEL_SOC_FW", fw != NULL && *fw ? fw
			: FA_FIDO2_FW_DEFAULT, 1);
		snprintf(base, sizeof base, "0x%x", FIDO2_SOC_IMAGE_BASE);
		snprintf(size, sizeof size, "0x%x", FIDO2_SOC_IMAGE_SIZE);
		extra[0] = "--flash";
		extra[1] = g_flash_path;
		extra[2] = "--flash-base";
		extra[3] = base;
		extra[4] = "--flash-size";
		extra[5] = size;
		extra[6] = NULL;
		soc = fa_soc_open_ex(extra, err, sizeof err);
		if (soc == NULL) {
			fprintf(stderr, "falcon-accel-fido2-soc: %s\n", err);
			return 2;
		}
		if (fa_soc_call(soc, FA_SOC_OP_PING, 0, 0, NULL, 0, &r, err,
			sizeof err) != 0 || r.status != FA_SOC_ST_OK)
		{
			fprintf(stderr, "falcon-accel-fido2-soc: the SoC does not answer"
				" PING: %s\n", r.status != FA_SOC_ST_OK
				? fa_soc_status_name(r.status) : err);
			fa_soc_close(soc);
			return 2;
		}
		if (pipe(pipefd) != 0) {
			perror("falcon-accel-fido2-soc: pipe");
			return 2;
		}
		job.soc = soc;
		job.mode = (unsigned)mode;
		job.done_fd = pipefd[1];
	}

	if (fido2_udp_open(&udp, "falcon-accel-fido2-soc", port, reply_port) != 0) {
		return 2;
	}

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	fprintf(stderr, "falcon-accel-fido2-soc: WARNING: user presence auto:"
		" every request is approved; any local process can register, sign"
		" in with and Reset this key. For tests only.\n");
	fprintf(stderr, "falcon-accel-fido2-soc: ready on 127.0.0.1:%d (replies to"
		" 127.0.0.1:%d), state %s, core %s, kernels %s, user presence auto\n",
		port, reply_port, g_flash_path, host_core ? "host" : "soc",
		host_core ? fa_backend_name(fa_backend_default())
		: fa_soc_mode_name((unsigned)mode));

	while (!g_stop) {
		uint8_t rpt[64];
		const uint8_t *rout;
		uint32_t rout_len;
		int cmd;
		unsigned ctap_status;
		uint64_t cycles = 0;
		uint32_t acc = 0, kcalls = 0, dmac = 0;
		double t0, wall;

		int got = fido2_udp_recv(&udp, rpt, 100);

		fido2_log_periodic("falcon-accel-fido2-soc", &log_dropped,
			fido2_host_now_ms(NULL), udp.dropped);
		udp.dropped = 0;
		if (got != 1) {
			continue;
		}
		t0 = now_s();
		if (host_core) {
			uint8_t ent[FIDO2_SOC_ENTROPY];

			if (fido2_host_random(ent, sizeof ent) != 0
				|| fido2_soc_dev_report(&dev, ent, sizeof ent, rpt, out,
					&rout_len) != 0)
			{
				fprintf(stderr, "falcon-accel-fido2-soc: the device cannot"
					" start: %s (flash image %s)\n", dev.fs.err != NULL
					? dev.fs.err : "no entropy, or the flash store cannot"
					" be read or written", g_flash_path);
				status = 1;
				break;
			}
			if (flash_sync(state) != 0) {
				fprintf(stderr, "falcon-accel-fido2-soc: cannot write %s: %s\n",
					g_flash_path, strerror(errno));
				status = 1;
				break;
			}
			rout = out;
			cmd = dev.ctap_cmd;
			ctap_status = dev.ctap_status;
		} else {
			pthread_t th;
			double last_ka;
			int ka;
			char c;

			if (fido2_host_random(job.req, FIDO2_SOC_ENTROPY) != 0) {
				fprintf(stderr, "falcon-accel-fido2-soc: no entropy\n");
				status = 1;
				break;
			}
			memcpy(job.req + FIDO2_SOC_ENTROPY, rpt, 64);
			if (pthread_create(&th, NULL, soc_worker, &job) != 0) {
				fprintf(stderr, "falcon-accel-fido2-soc: cannot start a thread\n");
				status = 1;
				break;
			}
			last_ka = t0;
			ka = completes_request(rpt);
			for (;;) {
				struct pollfd pd = { pipefd[0], POLLIN, 0 };

				if (poll(&pd, 1, 100) > 0 && read(pipefd[0], &c, 1) == 1) {
					break;
				}
				/* a CBOR/MSG request the firmware is still computing:
				   KEEPALIVE on its channel */
				if (ka && now_s() - last_ka >= 0.1) {
					send_keepalive(&udp, rpt);
					last_ka = now_s();
				}
			}
			pthread_join(th, NULL);
			if (job.rc != 0) {
				fprintf(stderr, "falcon-accel-fido2-soc: %s\n", job.err);
				soc = NULL;   /* closed by the client on failure */
				status = 1;
				break;
			}
			if (job.rsp.status != FA_SOC_ST_OK || job.rsp.nfields != 1
				|| job.rsp.fields[0].len % 64 != 0)
			{
				fprintf(stderr, "falcon-accel-fido2-soc: the firmware answered"
					" %s (%u fields); report dropped\n",
					fa_soc_status_name(job.rsp.status), job.rsp.nfields);
				if (job.rsp.status == FA_SOC_ST_SIM_TIMEOUT) {
					status = 1;
					break;
				}
				continue;
			}
			rout = job.rsp.fields[0].p;
			rout_len = job.rsp.fields[0].len;
			cmd = job.rsp.aux != 0 ? (int)job.rsp.aux - 1 : -1;
			ctap_status = (unsigned)job.rsp.lib_rc;
			cycles = job.rsp.cycles;
			acc = job.rsp.acc_compute;
			kcalls = job.rsp.kcalls;
			dmac = job.rsp.dma;
		}
		wall = now_s() - t0;
		for (uint32_t k = 0; k + 64 <= rout_len; k += 64) {
			fido2_udp_send(&udp, rout + k);
		}
		if (cmd >= 0) {
			ncmd ++;
			if (!host_core) {
				/* one line per command, never blocking the loop */
				fido2_log("falcon-accel-fido2-soc", "%s (0x%02x) status"
					" 0x%02x: %llu cycles = %.1f ms at 100 MHz (accelerator"
					" %u cycles, %u kernel calls, DMA %u cycles); %.1f s"
					" simulated", fido2_soc_cmd_name(cmd), (unsigned)cmd,
					ctap_status, (unsigned long long)cycles,
					(double)cycles / 1e5, acc, kcalls, dmac, wall);
			}
			if (clog != NULL) {
				fprintf(clog, "{\"cmd\": \"%s\", \"code\": %d, \"status\": %u,"
					" \"core\": \"%s\", \"kernels\": \"%s\", \"cycles\": %llu,"
					" \"ms_at_100mhz\": %.3f, \"acc_compute\": %u,"
					" \"kcalls\": %u, \"dma\": %u, \"wall_s\": %.3f}\n",
					fido2_soc_cmd_name(cmd), cmd, ctap_status,
					host_core ? "host" : "soc",
					host_core ? fa_backend_name(fa_backend_default())
					: fa_soc_mode_name((unsigned)mode),
					(unsigned long long)cycles, (double)cycles / 1e5, acc,
					kcalls, dmac, wall);
				fflush(clog);
			}
		}
	}
	if (soc != NULL) {
		fa_soc_close(soc);
	}
	if (clog != NULL) {
		fclose(clog);
	}
	free(tmp);
	fido2_udp_close(&udp);
	(void)ncmd;
	return status;
}
