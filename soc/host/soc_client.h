/*
 * soc_client.h -- the host side of the `soc` backend: forwards whole
 * operations to the SoC firmware over the host link (soc/fw/soc_proto.h,
 * soc/doc/soclink.md), to one of:
 *   - the Verilated falcon-accel SoC (build/soc-sim/soc_sim) with the
 *     firmware image (build/soc-fw/fw.elf), started as a child process:
 *     through its mailbox (the default, the fast simulation), or with
 *     $FALCON_ACCEL_SOC_LINK=uart through its UART on a pseudo-terminal
 *     (soc_sim --uart-pty: UART link frames, the code path of a board);
 *   - a board: $FALCON_ACCEL_SOC_PORT=/dev/ttyUSB0 (termios raw, 8N1,
 *     $FALCON_ACCEL_SOC_BAUD, default FA_SOC_LINK_BAUD = 115200; UART
 *     link frames with a CRC-32; no simulator).
 * Every call has a wall-clock timeout: when the SoC does not answer in
 * time the call fails (a simulator child is killed); the host never
 * waits forever. A reply frame with a bad CRC-32 or a malformed one fails
 * the call with a message saying so.
 *
 * Paths: $FALCON_ACCEL_SOC_SIM and $FALCON_ACCEL_SOC_FW, else the build
 * tree's defaults. $FALCON_ACCEL_SOC_TIMEOUT: seconds per request
 * (default 3600). $FALCON_ACCEL_SOC_CONSOLE: file for the firmware's
 * console (with the UART link: its CONSOLE frames) and the harness's
 * messages (default: discarded).
 */
#ifndef FA_SOC_CLIENT_H
#define FA_SOC_CLIENT_H

#include <stddef.h>
#include <stdint.h>

typedef struct fa_soc fa_soc;

/* One field of a request or a reply. */
typedef struct {
	const uint8_t *p;
	uint32_t len;
} fa_soc_field;

/* A parsed reply. fields point into the client's reply buffer (valid
   until the next call). */
typedef struct {
	unsigned op, status;
	uint32_t seq;
	int32_t lib_rc;
	uint64_t cycles, aux;
	uint32_t acc_compute, acc_bus, dma, kcalls;
	unsigned nfields;
	fa_soc_field fields[8];
} fa_soc_reply;

/* Start the simulation; NULL on failure with a message in err. */
/* Whether the simulator and the firmware that fa_soc_open would start
   exist (1) or not (0); `what` says which files, or what is missing and
   how to build it. */
int fa_soc_probe(char *what, size_t what_len);

fa_soc *fa_soc_open(char *err, size_t err_len);
/* The same with more simulator arguments (NULL-terminated list, at most
   12), e.g. "--flash", FILE, ... */
fa_soc *fa_soc_open_ex(const char *const *extra_args, char *err, size_t err_len);
void fa_soc_close(fa_soc *s);

/* One request (raw bytes: header and fields already encoded). Returns
   0 when a well-formed reply came back (whatever its status), -1 on a
   link failure or timeout (message in err; the SoC is then closed and
   unusable). */
int fa_soc_raw(fa_soc *s, const uint8_t *req, size_t req_len,
	fa_soc_reply *rsp, char *err, size_t err_len);

/* Encode and send op/logn/mode with n fields. Same returns; also -1 (the
   link stays open) when the SoC answers that the request's frame was bad
   (a FRAME_* status: the request was not run). */
int fa_soc_call(fa_soc *s, unsigned op, unsigned logn, unsigned mode,
	const fa_soc_field *in, unsigned n, fa_soc_reply *rsp,
	char *err, size_t err_len);

/* "OK", "BAD_LENGTH", ... for a reply status. */
const char *fa_soc_status_name(unsigned st);
/* "fw", "accel", "dma" -> mode; -1 if unknown. */
int fa_soc_mode_parse(const char *s);
const char *fa_soc_mode_name(unsigned mode);

#endif
