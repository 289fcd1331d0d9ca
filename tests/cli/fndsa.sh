#!/bin/sh
# fndsa.sh EXE WORKDIR VECTORS
#
# `falcon-accel keygen|sign|verify --scheme fn-dsa` (FN-DSA as fn-dsa
# 0.4.0): round trips at 512 and 1024 in pure and pre-hash modes, with and
# without a context; the vectors made by the crate (tests/fndsa/): every
# pure / ctx / sha256 / sha512 record of the first two keys of each degree
# signed from its stored key and 40-byte seed must give the stored
# signature byte for byte, and verify; every key (10 per degree) made
# from its 32-byte seed must equal the stored one; the failure paths (a round-3 key or
# signature given with --scheme fn-dsa, FN-DSA options without it, bad
# seeds): exit 2 with one stderr line naming the culprit.
# Needs python3 (hex to bytes). Prints failures and "fndsa: N passed, N failed".
set -u

exe=$1
dir=$2
vec=$3
pass=0
fail=0

rm -rf "$dir"
mkdir -p "$dir" || exit 1
cd "$dir" || exit 1
unset FALCON_ACCEL_BACKEND

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE DESCRIPTION -- COMMAND...
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
# containing PATTERN
expect_err() {
	_what=$1
	_pat=$2
	shift 3
	"$@" > last.out 2> last.err
	_got=$?
	if [ "$_got" -ne 2 ]; then
		ko "$_what: exit $_got, expected 2"
	elif [ "$(wc -l < last.err)" -ne 1 ]; then
		ko "$_what: $(wc -l < last.err) stderr lines"
	elif ! grep -q -- "$_pat" last.err; then
		ko "$_what: '$(cat last.err)' lacks '$_pat'"
	else
		ok
	fi
}

same() {
	if cmp -s "$1" "$2"; then ok; else ko "$3: $1 and $2 differ"; fi
}

unhex() { python3 -c 'import sys; h = sys.argv[1]; sys.stdout.buffer.write(b"" if h == "-" else bytes.fromhex(h))' "$1"; }

# ---- round trips ----------------------------------------------------------
printf 'a message' > m
printf 'another message' > m2
for d in 512 1024; do
	expect 0 "keygen $d" -- "$exe" keygen --scheme fn-dsa --degree $d \
		--sk k$d.sk --pk k$d.pk
	for ph in "" sha256 sha512; do
		for ctx in "" 0a0b0c; do
			o=""
			[ -n "$ph" ] && o="$o --prehash $ph"
			[ -n "$ctx" ] && o="$o --context $ctx"
			# shellcheck disable=SC2086
			expect 0 "sign $d '$o'" -- "$exe" sign --scheme fn-dsa \
				--sk k$d.sk --in m --out s $o
			# shellcheck disable=SC2086
			expect 0 "verify $d '$o'" -- "$exe" verify --scheme fn-dsa \
				--pk k$d.pk --sig s --in m $o
			# shellcheck disable=SC2086
			expect 1 "verify other message $d '$o'" -- "$exe" verify \
				--scheme fn-dsa --pk k$d.pk --sig s --in m2 $o
			expect 1 "verify other context $d '$o'" -- "$exe" verify \
				--scheme fn-dsa --pk k$d.pk --sig s --in m \
				--context ff ${ph:+--prehash $ph}
		done
	done
	expect 1 "pure signature checked as pre-hash $d" -- "$exe" verify \
		--scheme fn-dsa --pk k$d.pk --sig s --in m --prehash sha512
done
[ "$(wc -c < k512.sk)" -eq 1345 ] && [ "$(wc -c < k512.pk)" -eq 897 ] \
	&& [ "$(wc -c < k1024.sk)" -eq 2369 ] && ok || ko "key sizes"
"$exe" sign --scheme fn-dsa --sk k512.sk --in m --out s512 2>/dev/null
[ "$(wc -c < s512)" -eq 666 ] && ok || ko "signature size 512"

# ---- the crate's vectors ----------------------------------------------------
grep -v '^#' "$vec" > vec.txt
keys9=0
keys10=0
n=0
while read -r logn mode kseed sseed ctx msg pk sk sig; do
	if [ "$kseed" != "=" ]; then
		if [ "$logn" -eq 9 ]; then keys9=$((keys9 + 1)); k=$keys9; else
			keys10=$((keys10 + 1)); k=$keys10; fi
		unhex "$pk" > v.pk
		unhex "$sk" > v.sk
		deg=$((1 << logn))
		expect 0 "keygen from the seed of $deg key $k" -- \
			"$exe" keygen --scheme fn-dsa --degree $deg \
			--seed "$kseed" --sk g.sk --pk g.pk
		same g.sk v.sk "$deg key $k from its seed (sk)"
		same g.pk v.pk "$deg key $k from its seed (pk)"
	fi
	[ "$k" -le 2 ] || continue
	case $mode in
	pure) o="" ;;
	ctx) o="--context $ctx" ;;
	sha256|sha512) o="--prehash $mode"; [ "$ctx" != "-" ] && o="$o --context $ctx" ;;
	*) continue ;;
	esac
	unhex "$msg" > v.msg
	unhex "$sig" > v.sig
	# shellcheck disable=SC2086
	expect 0 "vector $logn $mode sign" -- "$exe" sign --scheme fn-dsa \
		--sk v.sk --in v.msg --out s --seed "$sseed" $o
	same s v.sig "vector $logn $mode key $k: signature from seed"
	# shellcheck disable=SC2086
	expect 0 "vector $logn $mode verify" -- "$exe" verify --scheme fn-dsa \
		--pk v.pk --sig v.sig --in v.msg $o
	n=$((n + 1))
done < vec.txt
[ "$n" -eq 16 ] && ok || ko "$n vector records signed (16 expected)"

# ---- failure paths ------------------------------------------------------------
"$exe" keygen --degree 512 --seed 01 --sk r3.sk --pk r3.pk 2>/dev/null
"$exe" sign --sk r3.sk --in m --out r3.sig --format padded 2>/dev/null
"$exe" sign --sk r3.sk --in m --out r3.ct --format ct 2>/dev/null
expect_err "round-3 sk with --scheme fn-dsa" "round-3" -- "$exe" sign \
	--scheme fn-dsa --sk r3.sk --in m --out x
expect_err "round-3 pk with --scheme fn-dsa" "round-3" -- "$exe" verify \
	--scheme fn-dsa --pk r3.pk --sig s512 --in m
expect_err "round-3 padded signature with --scheme fn-dsa" "round-3" -- \
	"$exe" verify --scheme fn-dsa --pk k512.pk --sig r3.sig --in m
expect_err "round-3 ct signature with --scheme fn-dsa" "round-3" -- \
	"$exe" verify --scheme fn-dsa --pk k512.pk --sig r3.ct --in m
expect_err "FN-DSA sk without --scheme" "expected 1281" -- "$exe" sign \
	--sk k512.sk --in m --out x
expect_err "--context without --scheme fn-dsa" "FN-DSA option" -- "$exe" \
	sign --sk r3.sk --in m --out x --context 00
expect_err "--prehash without --scheme fn-dsa" "FN-DSA option" -- "$exe" \
	verify --pk r3.pk --sig r3.sig --in m --prehash sha256
expect_err "unknown scheme" "falcon or fn-dsa" -- "$exe" keygen \
	--scheme rsa --degree 512 --sk x --pk y
expect_err "keygen seed of 31 bytes" "32-byte seed" -- "$exe" keygen \
	--scheme fn-dsa --degree 512 --seed "$(printf '%062d' 0)" --sk x --pk y
expect_err "sign seed of 39 bytes" "40-byte seed" -- "$exe" sign \
	--scheme fn-dsa --sk k512.sk --in m --out x --seed "$(printf '%078d' 0)"
expect_err "context of 256 bytes" "at most 255" -- "$exe" sign \
	--scheme fn-dsa --sk k512.sk --in m --out x \
	--context "$(printf '%0512d' 0)"
expect_err "unknown prehash" "sha256 or sha512" -- "$exe" sign \
	--scheme fn-dsa --sk k512.sk --in m --out x --prehash md5
expect_err "--format with fn-dsa" "round-3 option" -- "$exe" sign \
	--scheme fn-dsa --sk k512.sk --in m --out x --format ct
expect_err "public key as --sk" "this is a public key" -- "$exe" sign \
	--scheme fn-dsa --sk k512.pk --in m --out x
expect_err "degree mismatch" "FN-DSA-512 signature" -- "$exe" verify \
	--scheme fn-dsa --pk k1024.pk --sig s512 --in m
[ ! -e x ] && ok || ko "a failed command left an output"

echo "fndsa: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
