#!/usr/bin/env python3
"""kat_extract.py RSP COUNT PREFIX

Writes record COUNT of a NIST Falcon KAT file as raw files for the
falcon-accel tool: PREFIX.sk, PREFIX.pk, PREFIX.msg and PREFIX.sig, the
last being the detached compressed signature of our format
(0x30+logn || nonce || compressed s2), rebuilt from the KAT "sm" field
(L || nonce || msg || 0x20+logn || compressed s2, L = 1 + |s2|).
"""
import sys


def read_record(path, count):
    rec = None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            key, _, value = line.partition(' = ')
            if key == 'count':
                if rec is not None and rec['count'] == str(count):
                    return rec
                rec = {}
            rec[key] = value
    if rec is not None and rec.get('count') == str(count):
        return rec
    raise SystemExit(f'record {count} not found in {path}')


def main():
    path, count, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rec = read_record(path, count)
    sk = bytes.fromhex(rec['sk'])
    pk = bytes.fromhex(rec['pk'])
    msg = bytes.fromhex(rec['msg'])
    sm = bytes.fromhex(rec['sm'])
    mlen = int(rec['mlen'])
    assert len(msg) == mlen and len(sm) == int(rec['smlen'])
    esig_len = (sm[0] << 8) | sm[1]
    nonce = sm[2:42]
    assert sm[42:42 + mlen] == msg, 'message not embedded in sm'
    esig = sm[42 + mlen:]
    assert len(esig) == esig_len, 'sm length field'
    logn = pk[0]
    assert esig[0] == 0x20 + logn, 'sm signature header'
    sig = bytes([0x30 + logn]) + nonce + esig[1:]
    for ext, data in (('sk', sk), ('pk', pk), ('msg', msg), ('sig', sig)):
        with open(f'{prefix}.{ext}', 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
