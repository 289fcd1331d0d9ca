/*
 * rv32_user_rt.h -- the little runtime of the freestanding rv32imc test
 * programs that run under qemu-riscv32 in Linux user mode
 * (tests/fndsa/rv32_check.c, tests/fpr_asm/fpr_asm_diff.c,
 * soc/boards/fwcheck/stack_use.c): a system call (ecall with the number
 * in a7), text to stdout, and the four memory functions that the core
 * library (cmake/rv32imc-include/string.h) and the compiler call. Each
 * program includes it once, from its one C file (the memory functions
 * are external definitions), and has its own _start.
 */
#ifndef FA_TESTS_RV32_USER_RT_H
#define FA_TESTS_RV32_USER_RT_H

#include <stddef.h>
#include <stdint.h>

/* Linux rv32 system call n with three arguments (64 = write, 93 = exit). */
static long sys3(long n, long a, long b, long c)
{
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	register long a7 __asm__("a7") = n;
	__asm__ volatile ("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
	return a0;
}

/* s (NUL-terminated) to stdout. */
static void out(const char *s)
{
	size_t n = 0;
	while (s[n] != 0) {
		n++;
	}
	sys3(64, 1, (long)s, (long)n);
}

/* v in decimal to stdout. */
static __attribute__((unused)) void out_uint(unsigned long v)
{
	char b[24];
	int i = 23;
	b[i] = 0;
	do {
		b[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	out(b + i);
}

void *memcpy(void *d, const void *s, size_t n)
{
	uint8_t *p = d;
	const uint8_t *q = s;
	while (n-- > 0) {
		*p++ = *q++;
	}
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	uint8_t *p = d;
	const uint8_t *q = s;
	if (p < q) {
		while (n-- > 0) {
			*p++ = *q++;
		}
	} else {
		while (n-- > 0) {
			p[n] = q[n];
		}
	}
	return d;
}

void *memset(void *d, int c, size_t n)
{
	uint8_t *p = d;
	while (n-- > 0) {
		*p++ = (uint8_t)c;
	}
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *p = a, *q = b;
	size_t i;
	for (i = 0; i < n; i++) {
		if (p[i] != q[i]) {
			return p[i] < q[i] ? -1 : 1;
		}
	}
	return 0;
}

#endif
