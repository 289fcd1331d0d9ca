#!/bin/sh
# pki.sh EXE WORKDIR
#
# Keys in standard encodings in the CLI (falcon-accel): keygen --format
# raw|der|pem for both schemes; every --sk / --pk reads raw, DER or PEM
# (detected) in sign, verify and pubkey; the encodings are the same key
# (raw key inside, re-encoding byte-identical through another keygen of
# the same seed); errors name the culprit: a public key given as --sk and
# the reverse, a key of the other scheme (OID), a non-canonical DER (long
# form length) with its byte offset, a PEM with a bad line, a round-3
# PKCS#8 whose appended public key is not the private key's, a bad
# --format. Needs python3 for the byte surgery. Prints failures and
# "pki: N passed, N failed".
set -u
exe=$1
dir=$2
pass=0
fail=0
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
unset FALCON_ACCEL_BACKEND
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect() {   # expect CODE WHAT -- CMD...
	_want=$1; _what=$2; shift 3
	"$@" > last.out 2> last.err
	_got=$?
	if [ "$_got" -eq "$_want" ]; then ok; else
		ko "$_what: exit $_got, expected $_want ($(head -n 1 last.err))"; fi
}
expect_err() {   # expect_err WHAT PATTERN -- CMD...: exit 2 and stderr matching
	_what=$1; _pat=$2; shift 3
	"$@" > last.out 2> last.err
	_got=$?
	if [ "$_got" -eq 2 ] && grep -q -- "$_pat" last.err; then ok; else
		ko "$_what: exit $_got, want 2 and '$_pat' ($(head -n 1 last.err))"; fi
}
same() { if cmp -s "$2" "$3"; then ok; else ko "$1: $2 and $3 differ"; fi; }
command -v python3 >/dev/null 2>&1 || { echo "pki: python3 needed"; exit 1; }

echo "message for the PKI test" > msg
seed32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
for scheme in falcon fn-dsa; do
	for deg in 512 1024; do
		t=$scheme-$deg
		for f in raw der pem; do
			expect 0 "$t keygen --format $f" -- "$exe" keygen --scheme $scheme --degree $deg --seed $seed32 --format $f --sk $t.sk.$f --pk $t.pk.$f
		done
		# the same key in three encodings
		if [ $scheme = falcon ]; then
			for f in der pem; do
				expect 0 "$t pubkey --sk $f" -- "$exe" pubkey --sk $t.sk.$f --pk pk-from-$f.raw
				same "$t pubkey of the $f private key" $t.pk.raw pk-from-$f.raw
			done
		fi
		n=$(wc -c < $t.pk.raw)
		tail -c $n $t.pk.der > pk-in-der
		same "$t raw public key inside the SPKI" $t.pk.raw pk-in-der
		if [ "$(head -c 27 $t.sk.pem)" = "-----BEGIN PRIVATE KEY-----" ]; then ok; else ko "$t PEM label"; fi
		if [ "$(head -c 26 $t.pk.pem)" = "-----BEGIN PUBLIC KEY-----" ]; then ok; else ko "$t PEM public label"; fi
		# sign with each encoding, verify with each
		for fs in raw der pem; do
			expect 0 "$t sign --sk $fs" -- "$exe" sign --scheme $scheme --sk $t.sk.$fs --in msg --out sig.$fs
			for fp in raw der pem; do
				expect 0 "$t verify --pk $fp (key $fs)" -- "$exe" verify --scheme $scheme --pk $t.pk.$fp --sig sig.$fs --in msg
			done
		done
		# wrong kind / scheme
		expect_err "$t public key as --sk (PEM)" "PEM public key, not a private key" -- "$exe" sign --scheme $scheme --sk $t.pk.pem --in msg --out x
		expect_err "$t public key as --sk (DER)" "SubjectPublicKeyInfo" -- "$exe" sign --scheme $scheme --sk $t.pk.der --in msg --out x
		expect_err "$t private key as --pk (DER)" "PrivateKeyInfo" -- "$exe" verify --scheme $scheme --pk $t.sk.der --sig sig.raw --in msg
		other=$([ $scheme = falcon ] && echo fn-dsa || echo falcon)
		expect_err "$t key given to --scheme $other" "use --scheme $scheme" -- "$exe" verify --scheme $other --pk $t.pk.pem --sig sig.raw --in msg
		# non-canonical DER: the outer length in long form 0x83 00 xx xx
		python3 - $t.pk.der bad-len.der <<'EOF'
import sys
d = open(sys.argv[1], "rb").read()
assert d[1] == 0x82
open(sys.argv[2], "wb").write(bytes([0x30, 0x83, 0x00]) + d[2:])
EOF
		expect_err "$t leading zero length octet" "byte 1 (SubjectPublicKeyInfo): non-minimal length" -- "$exe" verify --scheme $scheme --pk bad-len.der --sig sig.raw --in msg
		cp $t.pk.der trail.der && printf '\000' >> trail.der
		expect_err "$t trailing byte" "trailing bytes" -- "$exe" verify --scheme $scheme --pk trail.der --sig sig.raw --in msg
		# PEM: a line of 63 characters
		python3 - $t.pk.pem bad.pem <<'EOF'
import sys
l = open(sys.argv[1]).read().split("\n")
l[1] = l[1][:-1]
open(sys.argv[2], "w").write("\n".join(l))
EOF
		expect_err "$t PEM short inner line" "PEM line" -- "$exe" verify --scheme $scheme --pk bad.pem --sig sig.raw --in msg
		sed 's/$/\r/' $t.pk.pem > crlf.pem
		expect_err "$t PEM with CRLF" "PEM line" -- "$exe" verify --scheme $scheme --pk crlf.pem --sig sig.raw --in msg
	done
done

# round 3 PKCS#8: the appended public key must be the private key's
"$exe" keygen --degree 512 --format der --sk a.der --pk a.pk > /dev/null 2>&1
"$exe" keygen --degree 512 --format der --sk b.der --pk b.pk > /dev/null 2>&1
python3 - a.der b.der mixed.der <<'EOF'
import sys
a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
open(sys.argv[3], "wb").write(a[:-897] + b[-897:])
EOF
expect_err "PKCS#8 with another key's public key" "is not its public key" -- "$exe" sign --sk mixed.der --in msg --out x
expect_err "keygen --format bad" "--format must be raw, der or pem" -- "$exe" keygen --degree 512 --format jwk --sk x --pk y
# the default stays raw, byte-identical for a seed
expect 0 "keygen default (raw)" -- "$exe" keygen --degree 512 --seed $seed32 --sk d.sk --pk d.pk
same "default format is raw" d.sk falcon-512.sk.raw

echo "pki: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
