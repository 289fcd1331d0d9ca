#!/usr/bin/env python3
"""Select the ML-KEM test vectors that tests/test_mlkem.c reads and write
them as tests/vectors/mlkem/mlkem_vectors.txt.gz (one record per line).

Not run by CI: it needs the source JSON files, which are not stored here
(see tests/vectors/mlkem/SOURCES.md for their origin and SHA-256).

Usage:
    python3 tests/vectors/mlkem/gen_mlkem_vectors.py ACVP_DIR WYCHEPROOF_DIR \
        | gzip -9n > tests/vectors/mlkem/mlkem_vectors.txt.gz

ACVP_DIR holds ML-KEM-keyGen-FIPS203.json and ML-KEM-encapDecap-FIPS203.json
(the internalProjection.json files); WYCHEPROOF_DIR holds
mlkem_{512,768,1024}_{test,encaps_test,semi_expanded_decaps_test,keygen_seed_test}.json.

Record format: KIND LEVEL ID key=hex ... ; keys ending in _h are SHA3-256
digests of the named value (large outputs are compared through their
digest to keep the file small); result=valid|invalid.
  keygen: d z ek_h dk_h            KeyGen_internal(d, z)
  encaps: ek m c_h K result        Encaps_internal(ek, m); invalid = rejected ek
  decaps: dk c K result            Decaps(dk, c); invalid = rejected input
                                   (dk=^: the dk of the previous decaps record)
  seed:   d z ek_h c K result      KeyGen_internal(d, z) then Decaps(dk, c)
"""
import hashlib
import json
import os
import sys

LEVEL = {"ML-KEM-512": 512, "ML-KEM-768": 768, "ML-KEM-1024": 1024}


def h(x):
    return hashlib.sha3_256(bytes.fromhex(x)).hexdigest()


_last_dk = [None]


def out(kind, level, ident, **kv):
    if kind == "decaps":
        # "dk=^": the same dk as the previous decaps record
        if kv["dk"] == _last_dk[0]:
            kv["dk"] = "^"
        else:
            _last_dk[0] = kv["dk"]
    parts = [kind, str(level), ident]
    parts += ["%s=%s" % (k, v.lower() if k != "result" else v)
              for k, v in kv.items()]
    print(" ".join(parts))


def acvp(d):
    kg = json.load(open(os.path.join(d, "ML-KEM-keyGen-FIPS203.json")))
    for g in kg["testGroups"]:
        lv = LEVEL[g["parameterSet"]]
        for t in g["tests"]:   # all 25 per level (digests only)
            out("keygen", lv, "acvp-kg:%d" % t["tcId"], d=t["d"], z=t["z"],
                ek_h=h(t["ek"]), dk_h=h(t["dk"]))
    ed = json.load(open(os.path.join(d, "ML-KEM-encapDecap-FIPS203.json")))
    for g in ed["testGroups"]:
        lv = LEVEL[g["parameterSet"]]
        if g["function"] == "encapsulation":
            for t in g["tests"][:6]:
                out("encaps", lv, "acvp-ed:%d" % t["tcId"], ek=t["ek"],
                    m=t["m"], c_h=h(t["c"]), K=t["k"], result="valid")
        else:
            for t in g["tests"][:5]:
                out("decaps", lv, "acvp-ed:%d" % t["tcId"], dk=g["dk"],
                    c=t["c"], K=t["k"], result="valid")


def first_by_comment(tests, per):
    seen = {}
    for t in tests:
        key = (t.get("comment", "").split(" seeds ")[0], t["result"])
        if seen.get(key, 0) < per:
            seen[key] = seen.get(key, 0) + 1
            yield t


def wycheproof(d):
    for lv in (512, 768, 1024):
        j = json.load(open(os.path.join(d, "mlkem_%d_keygen_seed_test.json" % lv)))
        tests = [t for g in j["testGroups"] for t in g["tests"]][:8]
        for t in tests:
            out("keygen", lv, "wp-kgseed:%d" % t["tcId"], d=t["seed"][:64],
                z=t["seed"][64:], ek_h=h(t["ek"]), dk_h=h(t["dk"]))
        j = json.load(open(os.path.join(d, "mlkem_%d_test.json" % lv)))
        tests = [t for g in j["testGroups"] for t in g["tests"]]
        for t in first_by_comment(tests, 2):
            if len(t["seed"]) != 128:
                continue   # seed-format length errors: not this API's input
            out("seed", lv, "wp-test:%d" % t["tcId"], d=t["seed"][:64],
                z=t["seed"][64:], ek_h=h(t["ek"]), c=t["c"], K=t["K"],
                result=t["result"])
        j = json.load(open(os.path.join(d, "mlkem_%d_encaps_test.json" % lv)))
        tests = [t for g in j["testGroups"] for t in g["tests"]]
        for t in first_by_comment(tests, 2):
            kv = dict(ek=t["ek"], m=t["m"])
            if t["result"] == "valid":
                kv.update(c_h=h(t["c"]), K=t["K"])
            out("encaps", lv, "wp-encaps:%d" % t["tcId"], result=t["result"], **kv)
        j = json.load(open(os.path.join(d, "mlkem_%d_semi_expanded_decaps_test.json" % lv)))
        for g in j["testGroups"]:
            for t in g["tests"]:
                out("decaps", lv, "wp-decaps:%d" % t["tcId"], dk=t["dk"],
                    c=t["c"], K=t.get("K", ""), result=t["result"])


if __name__ == "__main__":
    acvp(sys.argv[1])
    wycheproof(sys.argv[2])
