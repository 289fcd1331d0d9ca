/*
 * backend.c -- the registry of kernel tables ("backends"), among them the
 * portable backend, which fills no slot: the dispatchers of the kernel
 * seam (src/kernels.h) run the portable kernels for every slot a backend
 * leaves NULL or declines, so "portable" is the reference and always
 * complete.
 *
 * Optional backends are compiled in by their CMake parts, which define
 * FA_HAVE_BACKEND_<NAME> for this library. Selection: fa_backend_find(name),
 * or fa_backend_default(): $FALCON_ACCEL_BACKEND when set and available,
 * else the first available entry of the preference list (fastest first;
 * simulators such as "rtl" are never chosen by default).
 */

#include "inner.h"

#if !FA_FREESTANDING
#include <stdlib.h>
#endif

static int always_available(void)
{
	return 1;
}

/* Every slot NULL: the dispatchers (kernels.h) run the portable kernels. */
const struct fa_kernels fa_backend_portable = {
	.name = "portable",
	.available = always_available,
	.simulated = 0,
};

#ifdef FA_HAVE_BACKEND_AVX2
extern const struct fa_kernels fa_backend_avx2;
#endif
#ifdef FA_HAVE_BACKEND_RTL
extern const struct fa_kernels fa_backend_rtl;
#endif

/* Preference order: fastest first. */
static const struct fa_kernels *const registry[] = {
#ifdef FA_HAVE_BACKEND_AVX2
	&fa_backend_avx2,
#endif
	&fa_backend_portable,
#ifdef FA_HAVE_BACKEND_RTL
	&fa_backend_rtl,
#endif
};

#define REGISTRY_LEN (sizeof registry / sizeof registry[0])

size_t fa_backend_count(void)
{
	return REGISTRY_LEN;
}

const fa_backend *fa_backend_at(size_t i)
{
	return i < REGISTRY_LEN ? registry[i] : NULL;
}

int fa_backend_available(const fa_backend *be)
{
	return be != NULL && be->available();
}

const char *fa_backend_name(const fa_backend *be)
{
	return be != NULL ? be->name : "(none)";
}

static int name_eq(const char *a, const char *b)
{
	while (*a != 0 && *a == *b) {
		a ++;
		b ++;
	}
	return *a == *b;
}

const fa_backend *fa_backend_find(const char *name)
{
	size_t i;

	if (name == NULL) {
		return NULL;
	}
	for (i = 0; i < REGISTRY_LEN; i ++) {
		if (name_eq(registry[i]->name, name)) {
			return registry[i]->available() ? registry[i] : NULL;
		}
	}
	return NULL;
}

const fa_backend *fa_backend_default(void)
{
	size_t i;

#if !FA_FREESTANDING
	const char *env = getenv("FALCON_ACCEL_BACKEND");

	if (env != NULL && *env != 0) {
		const fa_backend *be = fa_backend_find(env);

		if (be != NULL) {
			return be;
		}
	}
#endif
	for (i = 0; i < REGISTRY_LEN; i ++) {
		if (registry[i]->available() && !registry[i]->simulated) {
			return registry[i];
		}
	}
	return &fa_backend_portable;
}

const struct fa_kernels *fa_kernels_resolve(const fa_backend *be)
{
	return be != NULL ? be : fa_backend_default();
}
