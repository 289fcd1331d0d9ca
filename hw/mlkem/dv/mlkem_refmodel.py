"""Reference model of the ML-KEM encaps sequencer: the C library itself.

lib(): src/*.c and src/mlkem/*.c built into a shared object under the
hardware build directory (rebuilt when a source is newer) and called with
ctypes on the portable backend: fa_kem_keygen_derand and
fa_kem_encaps_derand (FIPS 203 Algorithms 16 and 17). vectors(): the
ML-KEM-768 encaps records of tests/vectors/mlkem/mlkem_vectors.txt.gz
(NIST ACVP encapDecap and Wycheproof; SOURCES.md there)."""
import ctypes
import glob
import gzip
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.abspath(os.path.join(HERE, "..", ".."))
ROOT = os.path.abspath(os.path.join(HW, ".."))
BUILD = os.environ.get("FA_HW_BUILD", os.path.join(HW, "build"))
SO = os.path.join(BUILD, "mlkem_ref", "libfa_mlkem_ref.so")
VECTORS = os.path.join(ROOT, "tests", "vectors", "mlkem", "mlkem_vectors.txt.gz")
_LIB = None


def _sources():
    return sorted(glob.glob(os.path.join(ROOT, "src", "*.c"))) + sorted(
        glob.glob(os.path.join(ROOT, "src", "mlkem", "*.c")))


def build():
    srcs = _sources()
    deps = srcs + glob.glob(os.path.join(ROOT, "src", "*.h")) + glob.glob(
        os.path.join(ROOT, "src", "mlkem", "*.h")) + glob.glob(os.path.join(ROOT, "include", "*.h"))
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
        _LIB.fa_kem_keygen_derand.restype = ctypes.c_int
        _LIB.fa_kem_encaps_derand.restype = ctypes.c_int
    return _LIB


def _be():
    return ctypes.c_void_p(ctypes.addressof(ctypes.c_char.in_dll(lib(), "fa_backend_portable")))


TMP = 64 * 1024
EK, CT = 1184, 1088


def keygen(d, z):
    """(ek, dk) of ML-KEM-768 from the seeds d, z."""
    ek = ctypes.create_string_buffer(EK)
    dk = ctypes.create_string_buffer(2400)
    tmp = ctypes.create_string_buffer(TMP)
    rc = lib().fa_kem_keygen_derand(_be(), ctypes.c_uint(768), ek, ctypes.c_size_t(EK), dk,
                                    ctypes.c_size_t(2400), bytes(d), bytes(z), tmp,
                                    ctypes.c_size_t(TMP))
    assert rc == 0, "keygen rc %d" % rc
    return ek.raw, dk.raw


def encaps(ek, m):
    """(rc, ct, K) of ML-KEM-768 Encaps_internal(ek, m) (rc != 0: rejected ek)."""
    ct = ctypes.create_string_buffer(CT)
    ss = ctypes.create_string_buffer(32)
    tmp = ctypes.create_string_buffer(TMP)
    rc = lib().fa_kem_encaps_derand(_be(), ctypes.c_uint(768), ct, ctypes.c_size_t(CT), ss,
                                    bytes(ek), ctypes.c_size_t(len(ek)), bytes(m), tmp,
                                    ctypes.c_size_t(TMP))
    return rc, ct.raw, ss.raw


def vectors():
    """ML-KEM-768 encaps records: dicts with id, ek, m, c_h, K, valid."""
    out = []
    with gzip.open(VECTORS, "rt") as f:
        for line in f:
            p = line.split()
            if len(p) < 3 or p[0] != "encaps" or p[1] != "768":
                continue
            kv = dict(x.split("=", 1) for x in p[3:])
            out.append({"id": p[2], "ek": bytes.fromhex(kv["ek"]), "m": bytes.fromhex(kv["m"]),
                        "c_h": kv.get("c_h"), "K": kv.get("K"),
                        "valid": kv.get("result") == "valid"})
    return out
