/*
 * fw_string.c -- memcpy and memset for the firmware images, in place of
 * picolibc's (Debian's picolibc-riscv64-unknown-elf copies byte by byte:
 * 4 KiB, one Falcon-512 polynomial in FFT form, took ~32,800 cycles on
 * the Ibex, 8 cycles a byte). Word-aligned buffers move 32 bytes per loop
 * (eight lw/sw pairs), the rest byte by byte: ~0.7 cycle a byte on
 * aligned data. The library's fpr arrays, the kernel operands and the
 * DMA buffers are all word aligned. Linked ahead of libc, these
 * definitions are the ones every object of the image uses.
 *
 * Built with -fno-builtin -fno-tree-loop-distribute-patterns (soc/fw/Makefile)
 * so that the compiler does not turn these loops back into calls of
 * themselves.
 */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t len)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
		uint32_t *dw = (uint32_t *)(void *)d;
		const uint32_t *sw = (const uint32_t *)(const void *)s;

		while (len >= 32) {
			uint32_t a0 = sw[0], a1 = sw[1], a2 = sw[2], a3 = sw[3];
			uint32_t a4 = sw[4], a5 = sw[5], a6 = sw[6], a7 = sw[7];

			dw[0] = a0;
			dw[1] = a1;
			dw[2] = a2;
			dw[3] = a3;
			dw[4] = a4;
			dw[5] = a5;
			dw[6] = a6;
			dw[7] = a7;
			sw += 8;
			dw += 8;
			len -= 32;
		}
		while (len >= 4) {
			*dw ++ = *sw ++;
			len -= 4;
		}
		d = (uint8_t *)dw;
		s = (const uint8_t *)sw;
	}
	while (len -- > 0) {
		*d ++ = *s ++;
	}
	return dst;
}

void *memset(void *dst, int c, size_t len)
{
	uint8_t *d = dst;

	if (((uintptr_t)d & 3u) == 0) {
		uint32_t v = (uint8_t)c * 0x01010101u;
		uint32_t *dw = (uint32_t *)(void *)d;

		while (len >= 32) {
			dw[0] = v;
			dw[1] = v;
			dw[2] = v;
			dw[3] = v;
			dw[4] = v;
			dw[5] = v;
			dw[6] = v;
			dw[7] = v;
			dw += 8;
			len -= 32;
		}
		while (len >= 4) {
			*dw ++ = v;
			len -= 4;
		}
		d = (uint8_t *)dw;
	}
	while (len -- > 0) {
		*d ++ = (uint8_t)c;
	}
	return dst;
}
