#!/bin/sh
# kem.sh EXE WORKDIR
#
# The `falcon-accel kem` subcommand (ML-KEM, FIPS 203): a seeded key pair
# equal to NIST ACVP keyGen case tcId 26 (ML-KEM-768, ACVP-Server commit
# 65370b86; SHA-256 of the expected ek and dk below, computed from the
# ACVP JSON), keygen/encaps/decaps round trips at every level, implicit
# rejection of a modified ciphertext, and the failure paths: exit 2 with
# one stderr line naming the culprit.
# Prints failures and "kem: N passed, N failed".
set -u

exe=$1
dir=$2
pass=0
fail=0

rm -rf "$dir"
mkdir -p "$dir" || exit 1
cd "$dir" || exit 1
unset FALCON_ACCEL_BACKEND

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE DESCRIPTION -- COMMAND...  (stdout/stderr to last.out/.err)
expect() {
	_want=$1
	_what=$2
	shift 3
	"$@" > last.out 2> last.err
	_got=$?
	if [ "$_got" -eq "$_want" ]; then
		ok
	else
		ko "$_what: exit $_got, expected $_want ($(head -n 1 last.err))"
	fi
}

# expect_err DESCRIPTION PATTERN -- COMMAND...: exit 2, one stderr line
# containing PATTERN (the culprit).
expect_err() {
	_what=$1
	_pat=$2
	shift 3
	expect 2 "$_what" -- "$@"
	_n=$(wc -l < last.err)
	if [ "$_n" -eq 1 ]; then ok; else ko "$_what: $_n stderr lines"; fi
	if grep -q -- "$_pat" last.err; then ok; else
		ko "$_what: stderr lacks '$_pat': $(cat last.err)"; fi
}

size_is() {
	_sz=$(wc -c < "$1")
	if [ "$_sz" -eq "$2" ]; then ok; else
		ko "size of $1 is $_sz, expected $2"; fi
}

sha_is() {
	_h=$(sha256sum "$1" | cut -d' ' -f1)
	if [ "$_h" = "$2" ]; then ok; else ko "SHA-256 of $1: $_h"; fi
}

# flip_byte IN OFFSET OUT: OUT = IN with the low bit of byte OFFSET flipped
# (always a different file; overwriting the byte with a fixed value left it
# unchanged whenever it already held that value, one run in 256)
flip_byte() {
	_b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	{ head -c "$2" "$1"; printf "\\$(printf '%03o' $((_b ^ 1)))"
	  tail -c +"$(($2 + 2))" "$1"; } > "$3"
	if cmp -s "$1" "$3"; then ko "flip_byte: $3 equals $1"; fi
}

# ACVP ML-KEM-keyGen-FIPS203 tcId 26: seed = d || z.
seed=E34A701C4C87582F42264EE422D3C684D97611F2523EFE0C998AF05056D693DC\
A85768F3486BD32A01BF9A8F21EA938E648EAE4E5448C34C3EB88820B159EEDD
expect 0 "kem keygen --seed (ACVP tcId 26)" -- \
	"$exe" kem keygen --level 768 --seed "$seed" --dk acvp.dk --ek acvp.ek
sha_is acvp.ek 7799c9d8eef172aa78c073514f2f039c240de8c5cb61bca82ba0bc46041ce279
sha_is acvp.dk 104b3444c3de2b81143788d27e17648f45c80f617f906156db2258da96dead40
expect 0 "kem keygen --seed again" -- \
	"$exe" kem keygen --level 768 --seed "$seed" --dk again.dk --ek again.ek
if cmp -s acvp.dk again.dk && cmp -s acvp.ek again.ek; then ok; else
	ko "seeded keygen is not deterministic"; fi

for lv in 512 768 1024; do
	case $lv in
	512) ek=800; dk=1632; ct=768 ;;
	768) ek=1184; dk=2400; ct=1088 ;;
	1024) ek=1568; dk=3168; ct=1568 ;;
	esac
	expect 0 "kem keygen $lv" -- \
		"$exe" kem keygen --level $lv --dk k$lv.dk --ek k$lv.ek
	size_is k$lv.ek $ek
	size_is k$lv.dk $dk
	expect 0 "kem encaps $lv" -- \
		"$exe" kem encaps --ek k$lv.ek --ct c$lv.ct --ss s$lv.enc
	size_is c$lv.ct $ct
	size_is s$lv.enc 32
	expect 0 "kem decaps $lv" -- \
		"$exe" kem decaps --dk k$lv.dk --ct c$lv.ct --ss s$lv.dec
	if cmp -s s$lv.enc s$lv.dec; then ok; else
		ko "ML-KEM-$lv: decapsulated secret differs"; fi
	# a modified ciphertext decapsulates (exit 0) to another secret
	flip_byte c$lv.ct 0 bad$lv.ct
	expect 0 "kem decaps modified ct $lv" -- \
		"$exe" kem decaps --dk k$lv.dk --ct bad$lv.ct --ss s$lv.bad
	if cmp -s s$lv.enc s$lv.bad; then
		ko "ML-KEM-$lv: modified ciphertext gave the same secret"
	else ok; fi
	if [ "$(stat -c %a k$lv.dk)" = 600 ] && [ "$(stat -c %a s$lv.dec)" = 600 ]
	then ok; else ko "secrets not mode 0600"; fi
done

# failure paths
expect_err "kem without operation" "kem: missing operation" -- "$exe" kem
expect_err "kem unknown operation" "'sign'" -- "$exe" kem sign
expect_err "keygen bad level" "--level" -- \
	"$exe" kem keygen --level 500 --dk x.dk --ek x.ek
expect_err "keygen missing --ek" "--ek" -- "$exe" kem keygen --level 512 --dk x.dk
expect_err "keygen short seed" "--seed" -- \
	"$exe" kem keygen --level 512 --seed 0011 --dk x.dk --ek x.ek
expect_err "keygen non-hex seed" "--seed" -- \
	"$exe" kem keygen --level 512 --seed "$(echo "$seed" | tr 'E' 'G')" \
	--dk x.dk --ek x.ek
expect_err "keygen unknown option" "kem keygen: .*--degree" -- \
	"$exe" kem keygen --degree 512 --dk x.dk --ek x.ek
head -c 1000 k768.ek > short.ek
expect_err "encaps truncated ek" "--ek short.ek" -- \
	"$exe" kem encaps --ek short.ek --ct x.ct --ss x.ss
{ printf '\377\377'; tail -c +3 k768.ek; } > unreduced.ek
expect_err "encaps unreduced ek" "modulus check" -- \
	"$exe" kem encaps --ek unreduced.ek --ct x.ct --ss x.ss
expect_err "encaps missing file" "missing.ek" -- \
	"$exe" kem encaps --ek missing.ek --ct x.ct --ss x.ss
expect_err "decaps ct of another level" "--ct c512.ct" -- \
	"$exe" kem decaps --dk k768.dk --ct c512.ct --ss x.ss
expect_err "decaps ek given as dk" "--dk k768.ek" -- \
	"$exe" kem decaps --dk k768.ek --ct c768.ct --ss x.ss
# flip a byte of the stored H(ek) (offset 2400 - 64 = 2336)
flip_byte k768.dk 2336 badhash.dk
size_is badhash.dk 2400
expect_err "decaps dk hash check" "hash check" -- \
	"$exe" kem decaps --dk badhash.dk --ct c768.ct --ss x.ss
if [ -e x.ss ]; then ko "a failed command wrote x.ss"; else ok; fi

echo "kem: $pass passed, $fail failed"
[ $fail -eq 0 ]
