/*
 * transport_uio.c -- memory-mapped transport for a board: the core's
 * AXI4-Lite slave mapped through a Linux UIO device (/dev/uioN, map 0) or
 * /dev/mem at a physical address. No burst path (it would need a DMA
 * engine on the AXI-Stream ports): the driver uses the memory windows.
 * UNTESTED on hardware (no board was available); compiled only.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif
#include <string.h>

#include "fa_rtl.h"

#define FA_RTL_MAP_SIZE 0x10000u

static int u_wr(void *ctx, uint32_t off, uint32_t v)
{
	volatile uint32_t *base = (volatile uint32_t *)ctx;

	base[off >> 2] = v;
	return 0;
}

static int u_rd(void *ctx, uint32_t off, uint32_t *v)
{
	volatile uint32_t *base = (volatile uint32_t *)ctx;

	*v = base[off >> 2];
	return 0;
}

/* path: "/dev/uioN" (phys ignored) or "/dev/mem" (phys = base address). */
int fa_rtl_uio_open(fa_rtl_transport *t, const char *path, uint64_t phys)
{
#if defined(__linux__)
	int fd;
	void *p;

	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0) {
		return -1;
	}
	p = mmap(NULL, FA_RTL_MAP_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		fd, (off_t)phys);
	close(fd);
	if (p == MAP_FAILED) {
		return -1;
	}
	memset(t, 0, sizeof *t);
	t->ctx = p;
	t->wr = u_wr;
	t->rd = u_rd;
	t->name = "uio";
	return 0;
#else
	(void)t; (void)path; (void)phys;
	return -1;
#endif
}
