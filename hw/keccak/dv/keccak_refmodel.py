"""The C library as the reference model of the Keccak RTL (hw/keccak).

Uses the shared object that hw/sampler/dv/sampler_refmodel.py builds from
src/*.c (the library's own Keccak-f[1600] and SHAKE256, nothing
re-implemented here) and wraps the two entry points the tests need:
the permutation on 25 lanes and SHAKE256. SHA3-256/512 and SHAKE128 are
the same permutation with other rates and padding: the tests drive them
through the RTL with sponge() below and compare with hashlib (an
independent implementation).
"""
import ctypes
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "sampler", "dv"))
import sampler_refmodel  # noqa: E402

# name -> (rate in bytes, domain/padding byte)
SPONGES = {"shake128": (168, 0x1F), "shake256": (136, 0x1F),
           "sha3_256": (136, 0x06), "sha3_512": (72, 0x06)}

_LIB = None


class _Shake256Ctx(ctypes.Structure):
    # fa_shake256_ctx (include/falcon_accel.h)
    _fields_ = [("st", ctypes.c_uint64 * 25), ("dptr", ctypes.c_uint64),
                ("flipped", ctypes.c_uint64)]


def lib():
    global _LIB
    if _LIB is None:
        _LIB = sampler_refmodel.lib()
        u64p = ctypes.POINTER(ctypes.c_uint64)
        _LIB.fa_keccak_f1600.argtypes = [u64p]
        _LIB.fa_keccak_f1600.restype = None
        p = ctypes.POINTER(_Shake256Ctx)
        _LIB.fa_shake256_init.argtypes = [p]
        _LIB.fa_shake256_inject.argtypes = [p, ctypes.c_char_p, ctypes.c_size_t]
        _LIB.fa_shake256_flip.argtypes = [p]
        _LIB.fa_shake256_extract.argtypes = [p, ctypes.c_char_p, ctypes.c_size_t]
    return _LIB


def permute(lanes):
    """Keccak-f[1600] of 25 lanes (lane (x, y) at index x + 5y) by the
    library's fa_keccak_f1600."""
    st = (ctypes.c_uint64 * 25)(*lanes)
    lib().fa_keccak_f1600(st)
    return list(st)


def shake256(data, outlen):
    """SHAKE256(data) by the library's fa_shake256_*."""
    sc = _Shake256Ctx()
    lib().fa_shake256_init(ctypes.byref(sc))
    lib().fa_shake256_inject(ctypes.byref(sc), data, len(data))
    lib().fa_shake256_flip(ctypes.byref(sc))
    out = ctypes.create_string_buffer(outlen)
    lib().fa_shake256_extract(ctypes.byref(sc), out, outlen)
    return out.raw


def padded_blocks(data, rate, pad):
    """FIPS 202 pad10*1 with the domain bits in `pad`: the message as whole
    rate-byte blocks."""
    m = bytearray(data)
    m.append(pad)
    while len(m) % rate:
        m.append(0)
    m[-1] |= 0x80
    return [bytes(m[i:i + rate]) for i in range(0, len(m), rate)]


def words(block):
    """A block as little-endian 32-bit words (rates are multiples of 8)."""
    return [int.from_bytes(block[i:i + 4], "little") for i in range(0, len(block), 4)]


def lanes_to_words(lanes):
    w = []
    for v in lanes:
        w += [v & 0xFFFFFFFF, v >> 32]
    return w


def words_to_lanes(w):
    return [w[2 * i] | w[2 * i + 1] << 32 for i in range(25)]
