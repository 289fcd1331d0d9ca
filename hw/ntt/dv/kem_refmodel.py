"""Reference models of the ML-KEM (q = 3329) mode of the NTT unit.

lib(): the C library's own portable kernels (src/mlkem/mlkem_ntt.c, the
seam slots mlkem_ntt / mlkem_invntt / mlkem_basemul_acc) built into a
shared object under the hardware build directory and called with ctypes:
the Montgomery-scaled results (mont = 1) are checked against them.
ntt/intt/basemul below are FIPS 203's Algorithms 9, 10 and 12 written
out directly (an independent check of the plain modes, mont = 0).
"""
import ctypes
import os
import subprocess

Q = 3329
HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.abspath(os.path.join(HERE, "..", ".."))
ROOT = os.path.abspath(os.path.join(HW, ".."))
BUILD = os.environ.get("FA_HW_BUILD", os.path.join(HW, "build"))
SO = os.path.join(BUILD, "kem_ref", "libfa_kem_ref.so")
SRCS = [os.path.join(ROOT, "src", "mlkem", f) for f in ("mlkem_ntt.c", "mlkem_tables.c")]
_LIB = None


def _build():
    deps = SRCS + [os.path.join(ROOT, "src", "mlkem", "mlkem_inner.h"),
                   os.path.join(ROOT, "src", "kernels.h")]
    if os.path.exists(SO) and os.path.getmtime(SO) >= max(os.path.getmtime(p) for p in deps):
        return SO
    os.makedirs(os.path.dirname(SO), exist_ok=True)
    tmp = SO + ".tmp%d" % os.getpid()
    cmd = [os.environ.get("CC", "cc"), "-O1", "-shared", "-fPIC", "-std=c11",
           "-I" + os.path.join(ROOT, "include"), "-I" + os.path.join(ROOT, "src"),
           "-o", tmp] + SRCS
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("reference build failed:\n" + " ".join(cmd) + "\n" + r.stderr)
    os.replace(tmp, SO)
    return SO


def lib():
    global _LIB
    if _LIB is None:
        _LIB = ctypes.CDLL(_build())
        i16p = ctypes.POINTER(ctypes.c_int16)
        _LIB.fa_mlkem_ntt_portable.argtypes = [i16p]
        _LIB.fa_mlkem_invntt_portable.argtypes = [i16p]
        _LIB.fa_mlkem_basemul_acc_portable.argtypes = [i16p, i16p, i16p, ctypes.c_uint]
    return _LIB


def _arr(v):
    return (ctypes.c_int16 * len(v))(*v)


def c_ntt(a):
    """The library's mlkem_ntt (centred outputs)."""
    x = _arr(a)
    lib().fa_mlkem_ntt_portable(x)
    return list(x)


def c_invntt(a):
    """The library's mlkem_invntt: NTT^-1(a) * 2^16, centred."""
    x = _arr(a)
    lib().fa_mlkem_invntt_portable(x)
    return list(x)


def c_basemul(a, b):
    """The library's mlkem_basemul_acc with one product: a o b * 2^-16."""
    r = _arr([0] * 256)
    lib().fa_mlkem_basemul_acc_portable(r, _arr(a), _arr(b), 1)
    return list(r)


def _brv7(k):
    return int("{:07b}".format(k)[::-1], 2)


ZETA = [pow(17, _brv7(k), Q) for k in range(128)]
GAMMA = [pow(17, 2 * _brv7(i) + 1, Q) for i in range(128)]


def ntt(f):
    """FIPS 203, Algorithm 9."""
    f = list(f)
    i = 1
    ln = 128
    while ln >= 2:
        for start in range(0, 256, 2 * ln):
            z = ZETA[i]
            i += 1
            for j in range(start, start + ln):
                t = z * f[j + ln] % Q
                f[j + ln] = (f[j] - t) % Q
                f[j] = (f[j] + t) % Q
        ln >>= 1
    return f


def intt(f):
    """FIPS 203, Algorithm 10."""
    f = list(f)
    i = 127
    ln = 2
    while ln <= 128:
        for start in range(0, 256, 2 * ln):
            z = ZETA[i]
            i -= 1
            for j in range(start, start + ln):
                t = f[j]
                f[j] = (t + f[j + ln]) % Q
                f[j + ln] = z * (f[j + ln] - t) % Q
        ln <<= 1
    return [x * 3303 % Q for x in f]


def basemul(a, b):
    """FIPS 203, Algorithms 11 and 12."""
    r = []
    for i in range(128):
        a0, a1, b0, b1 = a[2 * i], a[2 * i + 1], b[2 * i], b[2 * i + 1]
        r += [(a0 * b0 + a1 * b1 * GAMMA[i]) % Q, (a0 * b1 + a1 * b0) % Q]
    return r


def pack(f):
    """256 coefficients -> 128 words {f_2i+1, f_2i} (each reduced mod q)."""
    return [(f[2 * i] % Q) | ((f[2 * i + 1] % Q) << 12) for i in range(128)]


def unpack(words):
    out = []
    for w in words:
        out += [w & 0xFFF, (w >> 12) & 0xFFF]
    return out
