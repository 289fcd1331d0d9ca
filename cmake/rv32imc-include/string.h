/*
 * string.h for the freestanding rv32imc build (cmake/rv32imc.cmake): the
 * Debian cross compiler has no C library headers, and the core library may
 * use only these four functions from libc. The firmware that links the
 * library provides them. Anything else from <string.h> fails to compile
 * here on purpose.
 */
#ifndef FA_RV32_FREESTANDING_STRING_H
#define FA_RV32_FREESTANDING_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t len);
void *memmove(void *dst, const void *src, size_t len);
void *memset(void *dst, int c, size_t len);
int memcmp(const void *a, const void *b, size_t len);

#endif
