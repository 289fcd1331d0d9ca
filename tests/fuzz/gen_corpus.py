#!/usr/bin/env python3
"""Write the checked-in seed corpora of the decoder fuzz targets.

    python3 tests/fuzz/gen_corpus.py     # rewrites tests/fuzz/corpus/*

Each input starts with the selector byte(s) the target expects (see the
fuzz_*.c headers): byte 0 -> logn = 1 + b % 10; for the trim target,
byte 1 -> bit 7: i16, low 7 bits -> width. The encoders below follow the
Falcon specification (v1.2, 3.11) directly; valid_* inputs must decode,
bad_* inputs exercise one error class each.
"""
import os
import sys
import random

Q = 12289
HERE = os.path.dirname(os.path.abspath(__file__))


def pack(bits):
    bits = bits + [0] * (-len(bits) % 8)
    return bytes(int("".join(map(str, bits[i:i + 8])), 2)
                 for i in range(0, len(bits), 8))


def to_bits(v, w):
    return [(v >> (w - 1 - i)) & 1 for i in range(w)]


def modq(vals):
    return pack(sum((to_bits(v, 14) for v in vals), []))


def trim(vals, w):
    return pack(sum((to_bits(v & ((1 << w) - 1), w) for v in vals), []))


def comp_bits(vals):
    out = []
    for v in vals:
        a = abs(v)
        out += [1 if v < 0 else 0] + to_bits(a & 127, 7) + [0] * (a >> 7) + [1]
    return out


def comp(vals):
    return pack(comp_bits(vals))


def sel_logn(logn):
    return bytes([logn - 1])


def sel_trim(wide, w):
    return bytes([(0x80 if wide else 0) | (w - 2)])


CORPUS = os.path.join(HERE, "corpus")


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    rng = random.Random(20240611)
    for target in ("modq", "trim", "comp"):
        d = os.path.join(CORPUS, target)
        if os.path.isdir(d):
            for f in os.listdir(d):
                os.remove(os.path.join(d, f))

    for logn in (1, 2, 3, 5, 9, 10):
        n = 1 << logn
        # modq
        h = [rng.randrange(Q) for _ in range(n)]
        write("modq", "valid_logn%d" % logn, sel_logn(logn) + modq(h))
        bad = list(h)
        bad[rng.randrange(n)] = Q
        write("modq", "bad_range_logn%d" % logn, sel_logn(logn) + modq(bad))
        write("modq", "bad_short_logn%d" % logn,
              sel_logn(logn) + modq(h)[:-1])
        # trim: f/g widths of the private key, F (8), CT signatures
        fgb = 8 if logn <= 5 else 7 if logn <= 7 else 6 if logn <= 9 else 5
        ctb = 10 if logn == 1 else 11 if logn <= 3 else 12
        for wide, w in ((0, fgb), (0, 8), (1, ctb)):
            m = (1 << (w - 1)) - 1
            v = [rng.randint(-m, m) for _ in range(n)]
            tag = "%s%d_logn%d" % ("i16_" if wide else "i8_", w, logn)
            write("trim", "valid_" + tag, sel_logn(logn) + sel_trim(wide, w)
                  + trim(v, w))
            bad = list(v)
            bad[rng.randrange(n)] = -(1 << (w - 1))
            write("trim", "bad_min_" + tag, sel_logn(logn) + sel_trim(wide, w)
                  + trim(bad, w))
        # comp: signature-like values, plus the extremes
        s = [max(-2047, min(2047, int(rng.gauss(0, 165)))) for _ in range(n)]
        s[0] = 2047
        s[-1] = -2047
        write("comp", "valid_logn%d" % logn, sel_logn(logn) + comp(s))
        bits = comp_bits(s)
        # minus zero as the second value
        mz = comp_bits(s[:1]) + [1] + [0] * 7 + [1] + comp_bits(s[2:])
        write("comp", "bad_minus_zero_logn%d" % logn, sel_logn(logn) + pack(mz))
        # |x| = 2048: 16 zeros in the unary part of the first value
        big = [0] + [1] * 7 + [0] * 16 + [1] + comp_bits(s[1:])
        write("comp", "bad_range_logn%d" % logn, sel_logn(logn) + pack(big))
        # non-zero unused bits
        if len(bits) % 8:
            pad = bits + [0] * (-len(bits) % 8)
            pad[-1] = 1
            write("comp", "bad_padding_logn%d" % logn,
                  sel_logn(logn) + pack(pad))
        write("comp", "bad_short_logn%d" % logn,
              sel_logn(logn) + comp(s)[:-1])


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        def _gen(tmp):
            global CORPUS
            CORPUS = tmp
            main()
        sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
        import genutil
        d = genutil.check_corpus(_gen, ("modq", "trim", "comp"), os.path.join(HERE, "corpus"))
        for x in d:
            print("gen_corpus: " + x, file=sys.stderr)
        sys.exit(1 if d else 0)
    main()
