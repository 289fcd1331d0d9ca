#!/bin/sh
# run_openssl.sh PROVIDER_DIR FALCON_ACCEL WORKDIR CMS_SIGN
#
# The falconaccel provider with the machine's real `openssl` command
# (Debian: OpenSSL 3.0), for falcon512, falcon1024, fndsa512, fndsa1024:
#  - genpkey, pkey -pubout, PEM/DER round trips byte-stable;
#  - pkeyutl -sign/-verify -rawin; each signature verified by the CLI
#    (libfalcon_accel) and by a second implementation (tests/peer: Rust,
#    pqcrypto-falcon 0.4.1 for round 3, fn-dsa 0.4.0 for FN-DSA; built with
#    cargo --offline), tampered signatures and messages rejected;
#  - keys made by the CLI (keygen --format pem|der) used by openssl, keys
#    made by openssl used by the CLI, signatures across both;
#  - X.509: self-signed CA (req -x509), CSR, CA -> leaf (x509 -req),
#    verify; the certificate signatures checked by the CLI and the peer
#    over the TBS bytes; tampered certificates rejected;
#  - CMS: `openssl cms -verify` of SignedData made through the provider
#    (cms -sign itself on OpenSSL >= 3.2; before, the tests/cms_sign.c
#    helper, since 3.0's CMS leaves signatureAlgorithm empty for provider
#    keys), tampered content rejected;
#  - strict decoding through openssl (a non-canonical key refused, the
#    culprit named); backend selection (FALCON_ACCEL_BACKEND, the
#    provider's "backend" parameter in openssl.cnf; soc refused).
# Needs python3 (DER slicing). Without cargo the peer checks are skipped,
# a failure under CI=true. Prints failures and "N passed, N failed".
set -u
provdir=$1
cli=$2
work=$3
cms_sign=$4
here=$(cd "$(dirname "$0")" && pwd)
pass=0
fail=0
skip=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

command -v openssl >/dev/null 2>&1 || { echo "openssl_provider: no openssl command"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "openssl_provider: python3 needed"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
unset FALCON_ACCEL_BACKEND
P="-provider-path $provdir -provider falconaccel -provider default"
ossl_ver=$(openssl version | awk '{print $2}')
echo "openssl: $(openssl version)"

# expect CODE WHAT -- CMD...
expect() {
	_want=$1; _what=$2; shift 3
	"$@" > last.out 2> last.err
	_got=$?
	if [ "$_got" -eq "$_want" ]; then ok; else
		ko "$_what: exit $_got, expected $_want: $(head -c 300 last.err)"; fi
}
# expect_fail WHAT PATTERN -- CMD...: non-zero exit, stderr matching PATTERN
expect_fail() {
	_what=$1; _pat=$2; shift 3
	"$@" > last.out 2> last.err
	_got=$?
	if [ "$_got" -ne 0 ] && grep -q -- "$_pat" last.err; then ok; else
		ko "$_what: exit $_got (want failure naming '$_pat'): $(head -c 300 last.err)"; fi
}
same() {   # same WHAT A B
	if cmp -s "$2" "$3"; then ok; else ko "$1: $2 and $3 differ"; fi
}
flipbit() {   # flipbit IN OUT OFFSET(negative: from the end)
	python3 -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
i = int(sys.argv[3]) % len(d)
d[i] ^= 0x04
open(sys.argv[2], 'wb').write(d)" "$1" "$2" "$3"
}

# ---- the second implementation (Rust peer)
peer=""
if command -v cargo >/dev/null 2>&1; then
	pdir=$(dirname "$work")/fap-peer
	# offline from the local registry cache; the first run may fetch
	if nice cargo build --release --offline -q --manifest-path "$here/peer/Cargo.toml" \
		--target-dir "$pdir" > peer-build.log 2>&1 \
		|| nice cargo build --release -q --manifest-path "$here/peer/Cargo.toml" \
		--target-dir "$pdir" >> peer-build.log 2>&1; then
		peer=$pdir/release/fap-peer
	else
		ko "peer build (cargo --offline): $(tail -n 3 peer-build.log)"
	fi
else
	if [ "${CI:-}" = true ]; then ko "cargo missing (CI=true): no peer checks"; fi
	echo "note: cargo missing, peer checks skipped"
	skip=$((skip + 1))
fi
# the sanitizer build: the module needs its runtime in the openssl
# process (set after the cargo build; the peer runs without it)
if [ -n "${FA_PROVIDER_PRELOAD:-}" ]; then
	export LD_PRELOAD="$FA_PROVIDER_PRELOAD"
fi
peer_check() {   # peer_check WHAT ALG PK_RAW SIG MSG WANT(0 valid, 1 invalid)
	[ -n "$peer" ] || return 0
	env -u LD_PRELOAD "$peer" "$2" "$3" "$4" "$5" > last.out 2> last.err
	_got=$?
	if [ "$_got" -eq "$6" ]; then ok; else ko "$1 (peer): exit $_got, expected $6 $(cat last.err)"; fi
}

# split a certificate (DER) into TBS, signature algorithm, signature value
certsplit() {   # certsplit CERT.pem PREFIX
	openssl x509 -in "$1" -outform DER -out "$2.der" 2>/dev/null
	python3 - "$2" <<'EOF'
import sys
p = sys.argv[1]
d = open(p + ".der", "rb").read()
def tlv(b, o):
    t, l = b[o], b[o + 1]
    h = 2
    if l & 0x80:
        n = l & 0x7F
        l = int.from_bytes(b[o + 2:o + 2 + n], "big")
        h = 2 + n
    return o + h, l, o + h + l   # content start, length, end
c, l, e = tlv(d, 0)
tc, tl, te = tlv(d, c)
open(p + ".tbs", "wb").write(d[c:te])
ac, al, ae = tlv(d, te)
open(p + ".alg", "wb").write(d[te:ae])
sc, sl, se = tlv(d, ae)
assert d[sc] == 0
open(p + ".sig", "wb").write(d[sc + 1:se])
EOF
}

pklen() { case $1 in *512) echo 897 ;; *) echo 1793 ;; esac; }
scheme() { case $1 in falcon*) echo falcon ;; *) echo fn-dsa ;; esac; }
degree() { case $1 in *512) echo 512 ;; *) echo 1024 ;; esac; }

echo "the quick brown fox" > msg.txt
head -c 10000 /dev/urandom > big.bin

for alg in falcon512 falcon1024 fndsa512 fndsa1024; do
	s=$(scheme $alg)
	n=$(pklen $alg)
	mkdir -p $alg && cd $alg || exit 1
	# ---- keys with openssl
	expect 0 "$alg genpkey" -- openssl genpkey $P -algorithm $alg -out k.pem
	expect 0 "$alg pkey -pubout" -- openssl pkey $P -in k.pem -pubout -out p.pem
	expect 0 "$alg private PEM -> DER" -- openssl pkey $P -in k.pem -outform DER -out k.der
	expect 0 "$alg private DER -> PEM" -- openssl pkey $P -in k.der -inform DER -out k2.pem
	same "$alg private PEM round trip" k.pem k2.pem
	expect 0 "$alg private DER -> DER" -- openssl pkey $P -in k.der -inform DER -outform DER -out k2.der
	same "$alg private DER round trip" k.der k2.der
	expect 0 "$alg public PEM -> DER" -- openssl pkey $P -pubin -in p.pem -outform DER -out p.der
	expect 0 "$alg public DER -> PEM" -- openssl pkey $P -pubin -inform DER -in p.der -out p2.pem
	same "$alg public PEM round trip" p.pem p2.pem
	expect 0 "$alg pubout from DER key" -- openssl pkey $P -in k.der -inform DER -pubout -out p3.pem
	same "$alg public key from the DER private key" p.pem p3.pem
	tail -c $n p.der > p.raw
	# the OID in the encodings
	oid=$(python3 -c "import json;print([a['oid'] for a in json.load(open('$here/../../../data/oids.json'))['algorithms'] if a['name']=='$alg'][0])")
	if openssl asn1parse -in p.pem | grep -q "OBJECT *:$alg\|OBJECT *:$oid"; then ok; else ko "$alg SPKI OID $oid: $(openssl asn1parse -in p.pem | head -3)"; fi

	# ---- pkeyutl -rawin, checked by the CLI and the peer
	for m in ../msg.txt ../big.bin; do
		expect 0 "$alg pkeyutl -sign -rawin $m" -- openssl pkeyutl -sign -rawin $P -inkey k.pem -in $m -out sig.bin
		expect 0 "$alg pkeyutl -verify -rawin $m" -- openssl pkeyutl -verify -rawin $P -pubin -inkey p.pem -in $m -sigfile sig.bin
		expect 0 "$alg CLI verifies the provider's signature ($m)" -- "$cli" verify --scheme $s --pk p.pem --sig sig.bin --in $m
		expect 0 "$alg CLI verifies with the DER public key" -- "$cli" verify --scheme $s --pk p.der --sig sig.bin --in $m
		peer_check "$alg peer verifies the provider's signature ($m)" $alg p.raw sig.bin $m 0
		flipbit sig.bin sig.bad 60
		expect 1 "$alg pkeyutl rejects a tampered signature" -- openssl pkeyutl -verify -rawin $P -pubin -inkey p.pem -in $m -sigfile sig.bad
		# invalid (exit 1), or not decodable (exit 2: the flipped bit may
		# break the encoding of s2)
		"$cli" verify --scheme $s --pk p.pem --sig sig.bad --in $m > last.out 2> last.err
		case $? in 1|2) ok ;; *) ko "$alg CLI accepted a tampered signature" ;; esac
		peer_check "$alg peer rejects a tampered signature" $alg p.raw sig.bad $m 1
		flipbit $m msg.bad 3
		expect 1 "$alg pkeyutl rejects a changed message" -- openssl pkeyutl -verify -rawin $P -pubin -inkey p.pem -in msg.bad -sigfile sig.bin
		peer_check "$alg peer rejects a changed message" $alg p.raw sig.bin msg.bad 1
	done
	# one-shot EVP_PKEY_sign (pkeyutl without -rawin): the same pure signature
	expect 0 "$alg pkeyutl -sign (no -rawin)" -- openssl pkeyutl -sign $P -inkey k.pem -in ../msg.txt -out sig1.bin
	expect 0 "$alg CLI verifies the one-shot signature" -- "$cli" verify --scheme $s --pk p.pem --sig sig1.bin --in ../msg.txt

	# ---- CLI keys in openssl, openssl keys in the CLI
	expect 0 "$alg CLI signs with the openssl key (PEM)" -- "$cli" sign --scheme $s --sk k.pem --in ../msg.txt --out csig.bin
	expect 0 "$alg CLI signs with the openssl key (DER)" -- "$cli" sign --scheme $s --sk k.der --in ../msg.txt --out csig2.bin
	expect 0 "$alg openssl verifies the CLI's signature" -- openssl pkeyutl -verify -rawin $P -pubin -inkey p.pem -in ../msg.txt -sigfile csig.bin
	peer_check "$alg peer verifies the CLI's signature" $alg p.raw csig.bin ../msg.txt 0
	for f in pem der; do
		expect 0 "$alg CLI keygen --format $f" -- "$cli" keygen --scheme $s --degree $(degree $alg) --format $f --sk ck.$f --pk cp.$f
		inf=$(echo $f | tr a-z A-Z)
		expect 0 "$alg openssl reads the CLI private key ($f)" -- openssl pkey $P -inform $inf -in ck.$f -outform $inf -out ck2.$f
		same "$alg CLI private key re-encoded by openssl ($f)" ck.$f ck2.$f
		expect 0 "$alg openssl reads the CLI public key ($f)" -- openssl pkey $P -pubin -inform $inf -in cp.$f -outform $inf -out cp2.$f
		same "$alg CLI public key re-encoded by openssl ($f)" cp.$f cp2.$f
		expect 0 "$alg openssl signs with the CLI key ($f)" -- openssl pkeyutl -sign -rawin $P -keyform $inf -inkey ck.$f -in ../msg.txt -out osig.bin
		expect 0 "$alg CLI verifies it" -- "$cli" verify --scheme $s --pk cp.$f --sig osig.bin --in ../msg.txt
	done

	# ---- strict DER through openssl: parameters present (NULL) in the SPKI
	python3 - p.der bad-params.der <<'EOF'
import sys
d = open(sys.argv[1], "rb").read()
# SEQUENCE { SEQUENCE { OID } BIT STRING } -> SEQUENCE { OID NULL }
hl = 4 if d[1] == 0x82 else 3
alg_len = d[hl + 1]
alg = d[hl + 2:hl + 2 + alg_len] + b"\x05\x00"
rest = d[hl + 2 + alg_len:]
body = bytes([0x30, len(alg)]) + alg + rest
n = len(body)
open(sys.argv[2], "wb").write(bytes([0x30, 0x82, n >> 8, n & 0xFF]) + body)
EOF
	# (OpenSSL 3.0's store drops the decoder's reason; the CLI shows it)
	expect_fail "$alg openssl refuses SPKI parameters" "Could not read" -- openssl pkey $P -pubin -inform DER -in bad-params.der -noout
	expect_fail "$alg CLI refuses SPKI parameters" "parameters" -- "$cli" verify --scheme $s --pk bad-params.der --sig sig.bin --in ../msg.txt
	cd .. || exit 1
done

# ---- X.509: CA -> leaf for every pair of (issuer, subject) algorithms
for ca in falcon512 fndsa1024; do
	expect 0 "self-signed CA $ca" -- openssl req -x509 -new $P -key $ca/k.pem -subj "/CN=CA $ca" -days 30 -out ca-$ca.pem
	expect 0 "CA $ca verifies itself" -- openssl verify $P -CAfile ca-$ca.pem ca-$ca.pem
	certsplit ca-$ca.pem cax
	expect 0 "CLI verifies the CA $ca self-signature" -- "$cli" verify --scheme $(scheme $ca) --pk $ca/p.pem --sig cax.sig --in cax.tbs
	peer_check "peer verifies the CA $ca self-signature" $ca $ca/p.raw cax.sig cax.tbs 0
	for leaf in falcon512 falcon1024 fndsa512 fndsa1024; do
		expect 0 "CSR $leaf" -- openssl req -new $P -key $leaf/k.pem -subj "/CN=leaf $leaf" -out leaf.csr
		expect 0 "CSR $leaf self-signature" -- openssl req -verify $P -in leaf.csr -noout
		printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n' > ext.cnf
		expect 0 "$ca signs leaf $leaf" -- openssl x509 -req $P -in leaf.csr -CA ca-$ca.pem -CAkey $ca/k.pem -CAcreateserial -days 10 -extfile ext.cnf -out leaf-$ca-$leaf.pem
		expect 0 "chain $ca -> $leaf verifies" -- openssl verify $P -CAfile ca-$ca.pem leaf-$ca-$leaf.pem
		certsplit leaf-$ca-$leaf.pem lx
		expect 0 "CLI verifies leaf $leaf signed by $ca" -- "$cli" verify --scheme $(scheme $ca) --pk $ca/p.pem --sig lx.sig --in lx.tbs
		peer_check "peer verifies leaf $leaf signed by $ca" $ca $ca/p.raw lx.sig lx.tbs 0
		# tampered: a bit of the signature, a bit of the subject's key
		python3 - lx.der bad-sig.der bad-tbs.der <<'EOF'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
s = bytearray(d); s[-9] ^= 0x01
open(sys.argv[2], "wb").write(s)
t = bytearray(d); t[len(d) // 3] ^= 0x01
open(sys.argv[3], "wb").write(t)
EOF
		openssl x509 -inform DER -in bad-sig.der -out bad-sig.pem 2>/dev/null
		openssl x509 -inform DER -in bad-tbs.der -out bad-tbs.pem 2>/dev/null
		expect 2 "tampered leaf signature ($ca -> $leaf) rejected" -- openssl verify $P -CAfile ca-$ca.pem bad-sig.pem
		expect 2 "tampered leaf TBS ($ca -> $leaf) rejected" -- openssl verify $P -CAfile ca-$ca.pem bad-tbs.pem
	done
	# a leaf under the other CA is not trusted
	other=$([ $ca = falcon512 ] && echo fndsa1024 || echo falcon512)
	if [ -f ca-$other.pem ]; then
		expect 2 "leaf of $ca refused under CA $other" -- openssl verify $P -CAfile ca-$other.pem leaf-$ca-fndsa512.pem
	fi
done

# ---- CMS SignedData (signed attributes, SHA-512 messageDigest)
major=$(echo "$ossl_ver" | cut -d. -f1); minor=$(echo "$ossl_ver" | cut -d. -f2)
for ca in falcon512 fndsa1024; do
	for leaf in falcon1024 fndsa512; do
		c=leaf-$ca-$leaf.pem
		if [ "$major" -gt 3 ] || [ "$minor" -ge 2 ]; then
			expect 0 "cms -sign ($leaf)" -- openssl cms -sign $P -md sha512 -binary -in big.bin -signer $c -inkey $leaf/k.pem -outform DER -out m.cms
		else
			# OpenSSL 3.0/3.1: the command cannot encode the SignerInfo
			expect_fail "cms -sign on $ossl_ver fails as documented ($leaf)" "zero content" -- openssl cms -sign $P -md sha512 -binary -in big.bin -signer $c -inkey $leaf/k.pem -outform DER -out m.cms
			expect 0 "CMS signed through the provider ($leaf, cms_sign helper)" -- "$cms_sign" "$provdir" $c $leaf/k.pem big.bin m.cms
		fi
		expect 0 "cms -verify ($ca -> $leaf)" -- openssl cms -verify $P -binary -inform DER -in m.cms -CAfile ca-$ca.pem -out m.out
		same "cms content ($leaf)" big.bin m.out
		if openssl cms -cmsout -print $P -inform DER -in m.cms | grep -A1 "signatureAlgorithm:" | grep -q "algorithm: $leaf"; then
			ok; else ko "cms signatureAlgorithm is not $leaf"; fi
		expect 0 "cms detached sign ($leaf)" -- "$cms_sign" "$provdir" $c $leaf/k.pem msg.txt d.cms
		flipbit m.cms m.bad -20
		expect 4 "cms -verify rejects a tampered signature ($leaf)" -- openssl cms -verify $P -binary -inform DER -in m.bad -CAfile ca-$ca.pem -out /dev/null
		expect 4 "cms -verify refuses the wrong CA ($leaf)" -- openssl cms -verify $P -binary -inform DER -in m.cms -CAfile ca-$([ $ca = falcon512 ] && echo fndsa1024 || echo falcon512).pem -out /dev/null
	done
done

# ---- backends
expect 0 "FALCON_ACCEL_BACKEND=portable signs" -- env FALCON_ACCEL_BACKEND=portable openssl pkeyutl -sign -rawin $P -inkey falcon512/k.pem -in msg.txt -out pb.sig
expect 0 "portable's signature verifies with the default backend" -- openssl pkeyutl -verify -rawin $P -pubin -inkey falcon512/p.pem -in msg.txt -sigfile pb.sig
expect_fail "FALCON_ACCEL_BACKEND=soc refused" "soc" -- env FALCON_ACCEL_BACKEND=soc openssl genpkey $P -algorithm falcon512
expect_fail "an unknown backend refused" "nosuch" -- env FALCON_ACCEL_BACKEND=nosuch openssl genpkey $P -algorithm falcon512
cat > prov.cnf <<EOF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
falconaccel = fa_sect
[default_sect]
activate = 1
[fa_sect]
module = $provdir/falconaccel.so
backend = portable
activate = 1
EOF
expect 0 "provider parameter backend=portable (openssl.cnf)" -- env OPENSSL_CONF=prov.cnf openssl pkeyutl -sign -rawin -inkey fndsa512/k.pem -in msg.txt -out cb.sig
expect 0 "its signature verifies" -- "$cli" verify --scheme fn-dsa --pk fndsa512/p.pem --sig cb.sig --in msg.txt
sed 's/backend = portable/backend = soc/' prov.cnf > prov-soc.cnf
# (3.0 does not report a provider that fails to activate from openssl.cnf;
# FALCON_ACCEL_BACKEND=soc above shows the provider's reason)
expect_fail "provider parameter backend=soc: provider not activated" "unsupported" -- env OPENSSL_CONF=prov-soc.cnf openssl genpkey -algorithm falcon512

echo "openssl_provider: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
