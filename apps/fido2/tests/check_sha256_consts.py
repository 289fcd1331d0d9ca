#!/usr/bin/env python3
"""Re-derives the SHA-256 constants of src/sha2.c (the library's SHA-256, which
the FIDO2 core uses) from their
definition (FIPS 180-4, 4.2.2 and 5.3.3): the first 32 bits of the
fractional parts of the cube roots of the first 64 primes (K) and of the
square roots of the first 8 primes (initial H). Exit 1 on any mismatch."""
import re
import sys


def primes(n):
    out, c = [], 2
    while len(out) < n:
        if all(c % p for p in out if p * p <= c):
            out.append(c)
        c += 1
    return out


def iroot(x, k):
    """floor(x ** (1/k)) for integers."""
    lo, hi = 0, 1 << (x.bit_length() // k + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid ** k <= x:
            lo = mid
        else:
            hi = mid - 1
    return lo


def frac32(p, k):
    # floor(p^(1/k) * 2^32) mod 2^32, exactly.
    return iroot(p << (32 * k), k) & 0xffffffff


def main(path):
    src = open(path).read()

    def table(name):
        m = re.search(name + r"\[\d+\]\s*=\s*\{(.*?)\};", src, re.S)
        return [int(x, 16) for x in re.findall(r"0x[0-9a-fA-F]+", m.group(1))]

    k = [frac32(p, 3) for p in primes(64)]
    h = [frac32(p, 2) for p in primes(8)]
    ok = table("K256") == k and table("H256_INIT") == h
    print("SHA-256 constants %s" % ("match FIPS 180-4" if ok else "DIFFER"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
