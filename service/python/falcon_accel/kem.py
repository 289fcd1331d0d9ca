"""ML-KEM (FIPS 203) from the falcon-accel C library (include/falcon_accel_kem.h).

    from falcon_accel import kem
    ek, dk = kem.keygen(768)              # d, z from the OS
    ct, ss = kem.encaps(ek)               # level read from len(ek)
    assert kem.decaps(dk, ct) == ss

Keys and ciphertexts are the raw FIPS 203 byte strings. Deterministic
variants (known-answer tests): ``keygen(level, seed=d + z)`` with a 64-byte
seed, ``encaps(ek, m=m)`` with a 32-byte m. Errors raise
:class:`falcon_accel.FalconError` with the library's code: ``LENGTH`` (wrong
key or ciphertext length), ``COEFF_RANGE`` (the encapsulation key fails the
modulus check), ``KEY`` (the decapsulation key fails the hash check),
``BADARG`` (level). A ciphertext of the right length always decapsulates
(a wrong one gives the implicit-rejection secret, as FIPS 203 requires).

The declarations are this module's own cffi instance (generated from the
headers, _cdef.py) on the same shared library as :mod:`falcon_accel.core`
(it exports the ML-KEM functions too). Calls release the GIL.
"""
from __future__ import annotations

from typing import Optional, Tuple, Union

from cffi import FFI

from . import _cdef, _ffi
from .core import FalconError, Backend, error_for
from ._errors import FA_ERR_BADARG, FA_ERR_LENGTH

# Generated from include/falcon_accel.h and include/falcon_accel_kem.h
# (see _cdef.py).
CDEF = _cdef.cdef_text(_cdef.KEM_HEADERS)

_kffi = FFI()
_kffi.cdef(CDEF)
_klib = _kffi.dlopen(_ffi._find_library())

LEVELS = (512, 768, 1024)
SHARED_SECRET_SIZE = 32
SEED_SIZE = 64          # d || z
MESSAGE_SIZE = 32       # m of encaps

_K = {512: 2, 768: 3, 1024: 4}

BytesLike = Union[bytes, bytearray, memoryview]
BackendLike = Union[None, str, Backend]


def _level(level: int) -> int:
    if level not in _K:
        raise FalconError(FA_ERR_BADARG,
                          f"ML-KEM level must be 512, 768 or 1024, not {level!r}")
    return int(level)


def encaps_key_size(level: int) -> int:
    """Bytes of an encapsulation key (800, 1184, 1568)."""
    return 384 * _K[_level(level)] + 32


def decaps_key_size(level: int) -> int:
    """Bytes of a decapsulation key (1632, 2400, 3168)."""
    return 768 * _K[_level(level)] + 96


def ciphertext_size(level: int) -> int:
    """Bytes of a ciphertext (768, 1088, 1568)."""
    return {512: 768, 768: 1088, 1024: 1568}[_level(level)]


def _tmp_size(level: int) -> int:
    k = _K[level]
    return (k * k + 3 * k + 2) * 512 + 1568 + 16   # FA_KEM_TMPSIZE


def _level_of(data: BytesLike, size_fn, what: str) -> int:
    for lv in LEVELS:
        if len(data) == size_fn(lv):
            return lv
    raise FalconError(FA_ERR_LENGTH,
                      f"{what}: {len(data)} bytes is no ML-KEM size")


def _be(be: BackendLike):
    if be is None:
        return _kffi.NULL
    if isinstance(be, str):
        from .core import backend as _lookup
        be = _lookup(be)
    if not isinstance(be, Backend) or be._ptr is None:
        raise FalconError(FA_ERR_BADARG, f"not a backend: {be!r}")
    # the same C pointer, seen through this module's cffi instance
    addr = int(_ffi.ffi.cast("uintptr_t", be._ptr))
    return _kffi.cast("const fa_backend *", addr)


def _check(code: int, what: str) -> None:
    if code != 0:
        raise error_for(code, what)


def _fixed(data: Optional[BytesLike], size: int, what: str):
    if len(data) != size:
        raise FalconError(FA_ERR_LENGTH,
                          f"{what} must be {size} bytes, not {len(data)}")
    return _kffi.from_buffer(data)


def keygen(level: int = 768, seed: Optional[BytesLike] = None,
           backend: BackendLike = None) -> Tuple[bytes, bytes]:
    """(ek, dk) for ML-KEM-`level`; with `seed` (64 bytes, d || z:
    ML-KEM.KeyGen_internal) deterministic, else d, z from the OS."""
    lv = _level(level)
    ek = _kffi.new("uint8_t[]", encaps_key_size(lv))
    dk = _kffi.new("uint8_t[]", decaps_key_size(lv))
    tmp = _kffi.new("uint8_t[]", _tmp_size(lv))
    if seed is None:
        rc = _klib.fa_kem_keygen(_be(backend), lv, ek, len(ek), dk, len(dk),
                                 tmp, len(tmp))
    else:
        s = _fixed(seed, SEED_SIZE, "seed (d || z)")
        rc = _klib.fa_kem_keygen_derand(_be(backend), lv, ek, len(ek), dk,
                                        len(dk), s, s + 32, tmp, len(tmp))
    _check(rc, "kem keygen")
    return bytes(_kffi.buffer(ek)), bytes(_kffi.buffer(dk))


def encaps(ek: BytesLike, m: Optional[BytesLike] = None,
           backend: BackendLike = None) -> Tuple[bytes, bytes]:
    """(ciphertext, shared secret) for the encapsulation key `ek` (after
    its length and modulus checks); `m` (32 bytes) makes it deterministic."""
    lv = _level_of(ek, encaps_key_size, "encapsulation key")
    ct = _kffi.new("uint8_t[]", ciphertext_size(lv))
    ss = _kffi.new("uint8_t[]", SHARED_SECRET_SIZE)
    tmp = _kffi.new("uint8_t[]", _tmp_size(lv))
    ekp = _kffi.from_buffer(ek)
    if m is None:
        rc = _klib.fa_kem_encaps(_be(backend), lv, ct, len(ct), ss, ekp,
                                 len(ek), tmp, len(tmp))
    else:
        rc = _klib.fa_kem_encaps_derand(_be(backend), lv, ct, len(ct), ss,
                                        ekp, len(ek),
                                        _fixed(m, MESSAGE_SIZE, "m"), tmp,
                                        len(tmp))
    _check(rc, "kem encaps")
    return bytes(_kffi.buffer(ct)), bytes(_kffi.buffer(ss))


def decaps(dk: BytesLike, ct: BytesLike,
           backend: BackendLike = None) -> bytes:
    """The shared secret of ciphertext `ct` under decapsulation key `dk`
    (after the length and hash checks)."""
    lv = _level_of(dk, decaps_key_size, "decapsulation key")
    if len(ct) != ciphertext_size(lv):
        raise FalconError(FA_ERR_LENGTH,
                          f"ciphertext: {len(ct)} bytes, ML-KEM-{lv} has "
                          f"{ciphertext_size(lv)}")
    ss = _kffi.new("uint8_t[]", SHARED_SECRET_SIZE)
    tmp = _kffi.new("uint8_t[]", _tmp_size(lv))
    rc = _klib.fa_kem_decaps(_be(backend), lv, ss, _kffi.from_buffer(ct),
                             len(ct), _kffi.from_buffer(dk), len(dk), tmp,
                             len(tmp))
    _kffi.memmove(tmp, b"\0" * len(tmp), len(tmp))
    _check(rc, "kem decaps")
    return bytes(_kffi.buffer(ss))


def check_encaps_key(ek: BytesLike) -> None:
    """Raise unless `ek` passes the FIPS 203 encapsulation-key checks."""
    lv = _level_of(ek, encaps_key_size, "encapsulation key")
    _check(_klib.fa_kem_check_ek(lv, _kffi.from_buffer(ek), len(ek)),
           "encapsulation key")


def check_decaps_key(dk: BytesLike) -> None:
    """Raise unless `dk` passes the FIPS 203 decapsulation-key checks."""
    lv = _level_of(dk, decaps_key_size, "decapsulation key")
    _check(_klib.fa_kem_check_dk(lv, _kffi.from_buffer(dk), len(dk)),
           "decapsulation key")


__all__ = ["LEVELS", "SHARED_SECRET_SIZE", "SEED_SIZE", "MESSAGE_SIZE",
           "keygen", "encaps", "decaps", "check_encaps_key",
           "check_decaps_key", "encaps_key_size", "decaps_key_size",
           "ciphertext_size"]
