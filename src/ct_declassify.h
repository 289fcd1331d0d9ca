/*
 * ct_declassify.h -- declassification points for the constant-time test
 * (tests/ct/). The test marks secret inputs as undefined for valgrind's
 * memcheck, which then reports every branch or memory index that depends
 * on them. Where the code branches on data that is public by design (a
 * rejected candidate, an accepted signature, a key-validity verdict), the
 * value is declared defined here. These macros expand to nothing unless
 * the library is compiled with FA_CT_VALGRIND=1 (the tests/ct build only);
 * README.md lists every point.
 */
#ifndef FA_CT_DECLASSIFY_H
#define FA_CT_DECLASSIFY_H

#if defined(FA_CT_VALGRIND) && FA_CT_VALGRIND
#include <valgrind/memcheck.h>
#define FA_DECLASSIFY(p, len) \
	((void)VALGRIND_MAKE_MEM_DEFINED((p), (len)))
#else
#define FA_DECLASSIFY(p, len) ((void)0)
#endif

/* The value x, declared public. */
static inline int fa_declassify_int(int x)
{
#if defined(FA_CT_VALGRIND) && FA_CT_VALGRIND
	volatile int v = x;

	FA_DECLASSIFY((const void *)&v, sizeof v);
	return v;
#else
	return x;
#endif
}

static inline uint32_t fa_declassify_u32(uint32_t x)
{
#if defined(FA_CT_VALGRIND) && FA_CT_VALGRIND
	volatile uint32_t v = x;

	FA_DECLASSIFY((const void *)&v, sizeof v);
	return v;
#else
	return x;
#endif
}

#endif
