/*
 * fido2_soc_dev.c -- the FIDO2 authenticator as a device that is fed one
 * CTAPHID report at a time (fido2_soc.h): the apps/fido2/core core (CTAPHID,
 * CTAP2, page store) on a RAM region standing for NOR flash, with an
 * entropy pool filled by the host. Freestanding; the same file runs in
 * the SoC firmware and in the bridge's in-process core.
 */
#include <string.h>

#include "fido2_soc.h"
#include "fido2_sha256.h"
#include "inner.h"   /* fa_shake256_*_k, fa_kernels_resolve */

/* ---- NOR flash on RAM: erase sets 0xFF, programming only clears bits. */

static int fl_read(void *user, uint32_t addr, void *buf, uint32_t len)
{
	fido2_soc_dev *d = user;

	if (addr > FIDO2_SOC_FLASH_SIZE || len > FIDO2_SOC_FLASH_SIZE - addr) {
		return -1;
	}
	memcpy(buf, d->flash + addr, len);
	return 0;
}

static int fl_program(void *user, uint32_t addr, const void *buf, uint32_t len)
{
	fido2_soc_dev *d = user;
	const uint8_t *p = buf;
	uint32_t i;

	if (addr > FIDO2_SOC_FLASH_SIZE || len > FIDO2_SOC_FLASH_SIZE - addr) {
		return -1;
	}
	for (i = 0; i < len; i ++) {
		d->flash[addr + i] &= p[i];
	}
	return 0;
}

static int fl_erase(void *user, uint32_t page)
{
	fido2_soc_dev *d = user;

	if (page >= FIDO2_SOC_FLASH_PAGES) {
		return -1;
	}
	memset(d->flash + page * FIDO2_SOC_FLASH_PAGE, 0xFF, FIDO2_SOC_FLASH_PAGE);
	return 0;
}

/* ---- platform of the CTAP2 core */

/* Bytes from the pool's current stream (re-keyed with every report). */
static int dev_rng(void *user, void *buf, size_t len)
{
	fido2_soc_dev *d = user;

	fa_shake256_extract_k(fa_kernels_resolve(d->be), &d->pool, buf, len);
	return 0;
}

static uint32_t dev_now_ms(void *user)
{
	fido2_soc_dev *d = user;

	return d->now_ms(d->user);
}

/* No button on the SoC: presence is approved (the auto policy). */
static int dev_presence(void *user, const char *what, const uint8_t *rp,
	size_t rp_len)
{
	(void)user;
	(void)what;
	(void)rp;
	(void)rp_len;
	return FIDO2_UP_APPROVED;
}

static const fido2_platform dev_platform = { dev_rng, dev_now_ms, dev_presence };

/* ---- CTAPHID callbacks */

static void dev_send(void *user, const uint8_t rpt[64])
{
	fido2_soc_dev *d = user;

	if (d->out_len + 64u > FIDO2_SOC_OUT_MAX) {
		d->out_dropped ++;
		return;
	}
	memcpy(d->out + d->out_len, rpt, 64);
	d->out_len += 64;
}

/* CBOR: the CTAP2 core. MSG (CTAP1/U2F APDUs, not implemented): status
   word INS_NOT_SUPPORTED, as the host daemon answers. */
static size_t dev_handle(void *user, fido2_hid *hid, uint8_t cmd,
	const uint8_t *req, size_t req_len, uint8_t *resp)
{
	fido2_soc_dev *d = user;
	size_t n;

	(void)hid;
	if (cmd == FIDO2_HID_MSG) {
		resp[0] = 0x6d;
		resp[1] = 0x00;
		return 2;
	}
	n = fido2_ctap2_handle(&d->auth, req, req_len, resp, FIDO2_HID_MAX_MSG);
	d->ctap_cmd = req_len > 0 ? req[0] : 0;
	d->ctap_status = resp[0];
	return n;
}

void fido2_soc_dev_setup(fido2_soc_dev *d, const fa_backend *be,
	uint8_t *flash, void *tmp, uint32_t (*now_ms)(void *user), void *user)
{
	memset(d, 0, sizeof *d);
	d->be = be;
	d->flash = flash;
	d->tmp = tmp;
	d->now_ms = now_ms;
	d->user = user;
	d->fl.page_size = FIDO2_SOC_FLASH_PAGE;
	d->fl.npages = FIDO2_SOC_FLASH_PAGES;
	d->fl.user = d;
	d->fl.read = fl_read;
	d->fl.program = fl_program;
	d->fl.erase = fl_erase;
	fa_shake256_init(&d->pool);
	fa_shake256_flip(&d->pool);
}

static void dev_apply_ek_cache(fido2_soc_dev *d)
{
	if (d->ek_persistent) {
		fido2_auth_set_ek_cache_persistent(&d->auth, d->ek, d->ek_len,
			d->ek_changed);
	} else {
		fido2_auth_set_ek_cache(&d->auth, d->ek, d->ek_len, d->ek_changed);
	}
}

void fido2_soc_dev_set_ek_cache(fido2_soc_dev *d, void *buf, size_t len,
	void (*changed)(void *user), int persistent)
{
	d->ek = buf;
	d->ek_len = len;
	d->ek_changed = changed;
	d->ek_persistent = persistent != 0;
	if (d->started) {
		dev_apply_ek_cache(d);
	}
}

int fido2_soc_dev_report(fido2_soc_dev *d, const uint8_t *entropy,
	size_t entropy_len, const uint8_t rpt[64], uint8_t *out,
	uint32_t *out_len)
{
	/* the pool's permutations on the backend's keccak_f1600 slot (the
	   Keccak unit in the accelerator modes): the same bytes */
	const struct fa_kernels *k = fa_kernels_resolve(d->be);
	uint8_t key[64];

	/* pool' = SHAKE256(64 bytes of the old stream || entropy); the new
	   stream's first 64 bytes key the next report, the rest serve this
	   one. */
	fa_shake256_extract_k(k, &d->pool, key, sizeof key);
	fa_shake256_init(&d->pool);
	fa_shake256_inject_k(k, &d->pool, key, sizeof key);
	fa_shake256_inject_k(k, &d->pool, entropy, entropy_len);
	fa_shake256_flip(&d->pool);
	fido2_wipe(key, sizeof key);

	d->out = out;
	d->out_len = 0;
	d->out_dropped = 0;
	d->ctap_cmd = -1;
	*out_len = 0;
	if (!d->started) {
		if (fido2_flash_store_mount(&d->fs, &d->fl) != 0
			|| fido2_auth_init(&d->auth, &fido2_flash_store_ops, &d->fs,
				&dev_platform, d, d->be, d->tmp, FIDO2_TMP_SIZE) != 0)
		{
			return -1;
		}
		dev_apply_ek_cache(d);
		fido2_hid_init(&d->hid, dev_send, dev_handle, NULL, dev_rng, d);
		d->started = 1;
	}
	fido2_hid_tick(&d->hid, d->now_ms(d->user));
	fido2_hid_input(&d->hid, rpt, d->now_ms(d->user));
	*out_len = d->out_len;
	return 0;
}

const char *fido2_soc_cmd_name(int cmd)
{
	switch (cmd) {
	case CTAP2_CMD_MAKE_CREDENTIAL:
		return "makeCredential";
	case CTAP2_CMD_GET_ASSERTION:
		return "getAssertion";
	case CTAP2_CMD_GET_INFO:
		return "getInfo";
	case CTAP2_CMD_RESET:
		return "reset";
	case CTAP2_CMD_GET_NEXT_ASSERTION:
		return "getNextAssertion";
	case CTAP2_CMD_SELECTION:
		return "selection";
	default:
		return "other";
	}
}
