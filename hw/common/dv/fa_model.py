"""Golden models for the falcon-accel RTL (bit-exact with src/fft.c and the
NTT representation of src/inner.h).

Python floats are IEEE-754 binary64 with round-to-nearest-even, so the
same operation sequence as the C kernels gives the same bits. The RTL
flushes subnormals to zero (inputs and results); fadd/fmul below model that
too (identical to plain float arithmetic on every value Falcon produces).
NaN results are the canonical quiet NaN in the RTL.
"""
import os
import re
import struct

Q = 12289
QNAN = 0x7FF8000000000000
SIGN = 1 << 63
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def f2b(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def b2f(b):
    return struct.unpack("<d", struct.pack("<Q", b & (2**64 - 1)))[0]


def is_nan(b):
    return ((b >> 52) & 0x7FF) == 0x7FF and (b & ((1 << 52) - 1)) != 0


def ftz(b):
    """Subnormal -> zero of the same sign."""
    if (b >> 52) & 0x7FF == 0:
        return b & SIGN
    return b


def _finish(r):
    b = f2b(r)
    if is_nan(b):
        return QNAN
    return ftz(b)


def fadd(a, b):
    a, b = ftz(a), ftz(b)
    if is_nan(a) or is_nan(b):
        return QNAN
    return _finish(b2f(a) + b2f(b))


def fsub(a, b):
    return fadd(a, b ^ SIGN)


def fmul(a, b):
    a, b = ftz(a), ftz(b)
    if is_nan(a) or is_nan(b):
        return QNAN
    return _finish(b2f(a) * b2f(b))


def fneg(a):
    return a ^ SIGN


def brv(k, bits):
    r = 0
    for _ in range(bits):
        r = (r << 1) | (k & 1)
        k >>= 1
    return r


# ---------------------------------------------------------------- FFT roots
_ROOTS = None


def fft_roots():
    """fa_fft_roots from src/tables.c (the exact table the C kernels use):
    list of (cos_bits, sin_bits) for k = 0..1023."""
    global _ROOTS
    if _ROOTS is None:
        txt = open(os.path.join(ROOT, "src", "tables.c")).read()
        body = txt.split("fa_fft_roots[2048] = {", 1)[1].split("};", 1)[0]
        vals = [int(v, 16) for v in re.findall(r"0x([0-9A-Fa-f]+)u", body)]
        assert len(vals) == 2048
        _ROOTS = [(vals[2 * k], vals[2 * k + 1]) for k in range(1024)]
    return _ROOTS


def cmul(ar, ai, br, bi):
    """(ar + i ai)(br + i bi), order of src/fft.c."""
    return (fsub(fmul(ar, br), fmul(ai, bi)), fadd(fmul(ar, bi), fmul(ai, br)))


def fft(f, logn):
    """src/fft.c fa_fft_portable on a list of n bit patterns."""
    f = list(f)
    hn = (1 << logn) >> 1
    ht = hn
    roots = fft_roots()
    m = 2
    for _u in range(1, logn):
        t = ht
        ht = t >> 1
        for b in range(m >> 1):
            sr, si = roots[m + b]
            for j in range(b * t, b * t + ht):
                xr, xi = f[j], f[j + hn]
                tr, ti = cmul(f[j + ht], f[j + ht + hn], sr, si)
                f[j] = fadd(xr, tr)
                f[j + hn] = fadd(xi, ti)
                f[j + ht] = fsub(xr, tr)
                f[j + ht + hn] = fsub(xi, ti)
        m <<= 1
    return f


def ifft(f, logn):
    f = list(f)
    n = 1 << logn
    hn = n >> 1
    ht = 1
    roots = fft_roots()
    m = hn
    for _u in range(logn - 1, 0, -1):
        t = ht << 1
        for b in range(m >> 1):
            sr, si = roots[m + b]
            si = fneg(si)
            for j in range(b * t, b * t + ht):
                xr, xi = f[j], f[j + hn]
                yr, yi = f[j + ht], f[j + ht + hn]
                dr, di = fsub(xr, yr), fsub(xi, yi)
                f[j] = fadd(xr, yr)
                f[j + hn] = fadd(xi, yi)
                f[j + ht], f[j + ht + hn] = cmul(dr, di, sr, si)
        ht = t
        m >>= 1
    if logn > 1:
        sc = f2b(2.0 ** (1 - logn))
        f = [fmul(v, sc) for v in f]
    return f


def vec_op(op, a, b, logn, c=0):
    """FFT-domain vector ops of src/fft.c on lists of n bit patterns."""
    n = 1 << logn
    hn = n >> 1
    a = list(a)
    if op == "add":
        return [fadd(a[u], b[u]) for u in range(n)]
    if op == "sub":
        return [fsub(a[u], b[u]) for u in range(n)]
    if op == "neg":
        return [fneg(v) for v in a]
    if op == "adj":
        return a[:hn] + [fneg(v) for v in a[hn:]]
    if op == "mulconst":
        return [fmul(v, c) for v in a]
    out = list(a)
    for u in range(hn):
        ar, ai = a[u], a[u + hn]
        if op == "mul":
            out[u], out[u + hn] = cmul(ar, ai, b[u], b[u + hn])
        elif op == "muladj":
            br, bi = b[u], b[u + hn]
            out[u] = fadd(fmul(ar, br), fmul(ai, bi))
            out[u + hn] = fsub(fmul(ai, br), fmul(ar, bi))
        elif op == "mulselfadj":
            out[u] = fadd(fmul(ar, ar), fmul(ai, ai))
            out[u + hn] = 0
        else:
            raise ValueError(op)
    return out


# ---------------------------------------------------------------- NTT
def ntt_direct(a, logn):
    """Definition (src/inner.h): slot j = a(psi_n^(2 brv(j) + 1)) mod q,
    psi_n = 7^(1024/n). O(n^2), the independent reference."""
    n = 1 << logn
    psi = pow(7, 1024 // n, Q)
    out = []
    for j in range(n):
        x = pow(psi, 2 * brv(j, logn) + 1, Q)
        acc, p = 0, 1
        for c in a:
            acc = (acc + c * p) % Q
            p = p * x % Q
        out.append(acc)
    return out


def intt_direct(a, logn):
    """Inverse of ntt_direct: a_i = n^-1 sum_j A_j x_j^-i (x_j^2n = 1)."""
    n = 1 << logn
    psi = pow(7, 1024 // n, Q)
    ninv = pow(n, Q - 2, Q)
    out = []
    xs = [pow(psi, 2 * brv(j, logn) + 1, Q) for j in range(n)]
    for i in range(n):
        acc = 0
        for j in range(n):
            acc = (acc + a[j] * pow(xs[j], (2 * n - i) % (2 * n), Q)) % Q
        out.append(acc * ninv % Q)
    return out


def ntt_twiddle(k):
    """GMb[k] = 7^brv_10(k) mod q (7 has order 2048 mod q)."""
    return pow(7, brv(k, 10), Q)


def ntt(a, logn):
    """Cooley-Tukey network used by the RTL: level k = 0..logn-1, blocks
    b < 2^k of length t = n/2^k, twiddle GMb[2^k + b]."""
    a = list(a)
    n = 1 << logn
    t = n
    m = 1
    while m < n:
        ht = t >> 1
        for b in range(m):
            s = ntt_twiddle(m + b)
            for j in range(b * t, b * t + ht):
                u, v = a[j], a[j + ht] * s % Q
                a[j], a[j + ht] = (u + v) % Q, (u - v) % Q
        t = ht
        m <<= 1
    return a


def intt(a, logn):
    a = list(a)
    n = 1 << logn
    t = 1
    m = n
    while m > 1:
        hm = m >> 1
        dt = t << 1
        for b in range(hm):
            s = pow(ntt_twiddle(hm + b), Q - 2, Q)
            for j in range(b * dt, b * dt + t):
                u, v = a[j], a[j + t]
                a[j], a[j + t] = (u + v) % Q, (u - v) * s % Q
        t = dt
        m = hm
    ninv = pow(n, Q - 2, Q)
    return [x * ninv % Q for x in a]
