"""The C library as the reference model of the sampler RTL.

Builds the core library (src/*.c, src/mlkem/*.c, as CMake does) plus
dv/sampler_ref.c into a shared object (emulated FP,
FA_FPEMU=1: binary64 with subnormals flushed, as hw/fp64) under the hardware
build directory and wraps it with ctypes. Nothing here re-implements the
sampler: every expected z, byte count and refill comes from the library.
"""
import ctypes
import glob
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.abspath(os.path.join(HERE, "..", ".."))
ROOT = os.path.abspath(os.path.join(HW, ".."))
BUILD = os.environ.get("FA_HW_BUILD", os.path.join(HW, "build"))
SO = os.path.join(BUILD, "sampler_ref", "libfa_sampler_ref.so")

_LIB = None


def _sources():
    # (the whole core: FN-DSA's pre-hash calls ML-KEM's SHA3-256)
    return sorted(glob.glob(os.path.join(ROOT, "src", "*.c"))) + sorted(
        glob.glob(os.path.join(ROOT, "src", "mlkem", "*.c"))) + [
        os.path.join(HERE, "sampler_ref.c")]


def build():
    """(Re)build the shared object when a source is newer than it."""
    srcs = _sources()
    deps = srcs + glob.glob(os.path.join(ROOT, "src", "*.h")) + glob.glob(
        os.path.join(ROOT, "include", "*.h"))
    if os.path.exists(SO) and os.path.getmtime(SO) >= max(os.path.getmtime(p) for p in deps):
        return SO
    os.makedirs(os.path.dirname(SO), exist_ok=True)
    tmp = SO + ".tmp%d" % os.getpid()
    cmd = [os.environ.get("CC", "cc"), "-O1", "-shared", "-fPIC", "-std=c11",
           "-DFA_FPEMU=1", "-I" + os.path.join(ROOT, "include"),
           "-I" + os.path.join(ROOT, "src"), "-o", tmp] + srcs
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("reference build failed:\n" + " ".join(cmd) + "\n" + r.stderr)
    os.replace(tmp, SO)
    return SO


def lib():
    global _LIB
    if _LIB is None:
        _LIB = ctypes.CDLL(build())
        u8p = ctypes.POINTER(ctypes.c_uint8)
        u32p = ctypes.POINTER(ctypes.c_uint32)
        _LIB.fa_hwref_prng_refill.argtypes = [u8p, u8p, u32p]
        _LIB.fa_hwref_samplerz.argtypes = [u8p, u8p, u32p, ctypes.c_uint64,
                                           ctypes.c_uint64, ctypes.c_uint64]
        _LIB.fa_hwref_samplerz.restype = ctypes.c_int
        _LIB.fa_hwref_sigma_min.restype = ctypes.c_uint64
        _LIB.fa_hwref_sigma_min.argtypes = [ctypes.c_uint]
        _LIB.fa_hwref_inv_sigma.restype = ctypes.c_uint64
        _LIB.fa_hwref_inv_sigma.argtypes = [ctypes.c_uint]
        u64p = ctypes.POINTER(ctypes.c_uint64)
        _LIB.fa_hwref_expanded_tree.argtypes = [ctypes.c_uint, ctypes.c_char_p,
                                                ctypes.c_size_t, u64p]
        _LIB.fa_hwref_expanded_tree.restype = ctypes.c_int
        _LIB.fa_hwref_ffsamp.argtypes = [u8p, u8p, u32p, ctypes.c_uint64, u64p, u64p,
                                         u64p, ctypes.c_uint, u64p, u64p]
        _LIB.fa_hwref_ffsamp.restype = ctypes.c_int
    return _LIB


class RefPrng:
    """fa_prng (src/inner.h) held by the library: state[56], buf[512], ptr."""

    def __init__(self, state, ptr=0):
        """state: 56 bytes (key/IV words 4..15, counter cc). As the RTL's
        LOAD: the buffer is filled from blocks cc..cc+7 and ptr is set."""
        assert len(state) == 56 and 0 <= ptr < 512
        self.state = (ctypes.c_uint8 * 56)(*state)
        self.buf = (ctypes.c_uint8 * 512)()
        self.ptr = ctypes.c_uint32(0)
        lib().fa_hwref_prng_refill(self.state, self.buf, ctypes.byref(self.ptr))
        self.ptr.value = ptr

    @property
    def counter(self):
        return int.from_bytes(bytes(self.state[48:56]), "little")

    def samplerz(self, mu, isigma, sigma_min):
        """(z, counter after, ptr after) for bit patterns mu, isigma, sigma_min."""
        z = lib().fa_hwref_samplerz(self.state, self.buf, ctypes.byref(self.ptr),
                                    mu, isigma, sigma_min)
        return z, self.counter, self.ptr.value

    def ffsamp(self, tree, t0, t1, logn):
        """(z0, z1) bit patterns (n each) of the library's ffsamp_tree with
        the LDL tree `tree` ((logn + 1) 2^logn bit patterns) and the
        targets t0, t1; the PRNG state advances as in a signature."""
        n = 1 << logn
        assert len(tree) == (logn + 1) * n and len(t0) == n and len(t1) == n
        arr = ctypes.c_uint64 * n
        z0, z1 = arr(), arr()
        rc = lib().fa_hwref_ffsamp(self.state, self.buf, ctypes.byref(self.ptr),
                                   sigma_min(logn), (ctypes.c_uint64 * len(tree))(*tree),
                                   arr(*t0), arr(*t1), logn, z0, z1)
        assert rc == 0
        return list(z0), list(z1)


def sigma_min(logn):
    return lib().fa_hwref_sigma_min(logn)


def inv_sigma(logn):
    return lib().fa_hwref_inv_sigma(logn)


def expanded_tree(logn, seed):
    """The LDL tree of the library's expanded key for a keygen seeded with
    `seed` (bytes): (logn + 1) 2^logn binary64 bit patterns, the layout
    fa_expand_privkey writes after b00, b01, b10, b11."""
    size = (logn + 1) << logn
    tree = (ctypes.c_uint64 * size)()
    assert lib().fa_hwref_expanded_tree(logn, seed, len(seed), tree) == 0
    return list(tree)
