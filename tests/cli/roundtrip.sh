#!/bin/sh
# roundtrip.sh EXE WORKDIR [SHARED_DIR]
#
# Command-line round trip of falcon-accel: keygen (seeded and from the
# OS), pubkey, sign in every format (message from a file and from stdin),
# verify, and the failure paths with their exit codes:
#   0 success, 1 invalid signature, 2 usage/format/other error.
# Keys and signatures of NIST KAT records are checked too (pubkey,
# verify): records 0 and 99 of SHARED_DIR/kat (or $FA_SHARED_DIR/kat)
# when the full files are there, else records 0 and 2 of the first
# records kept in tests/kat/ (needs python3; under CI=true a missing
# python3 is a failure).
# Prints failures and "roundtrip: N passed, N failed".
set -u

exe=$1
dir=$2
shared=${FA_SHARED_DIR:-${3:-}}
here=$(cd "$(dirname "$0")" && pwd)
facts=$(cd "$here/.." && pwd)/kat
case $shared in
/*|'') ;;
*) shared=$(pwd)/$shared ;;
esac
pass=0
fail=0

rm -rf "$dir"
mkdir -p "$dir" || exit 1
cd "$dir" || exit 1
# The tests pick backends explicitly where it matters.
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

# expect_in CODE DESCRIPTION INPUT -- COMMAND...  (stdin from INPUT)
expect_in() {
	_want=$1
	_what=$2
	_input=$3
	shift 4
	"$@" < "$_input" > last.out 2> last.err
	_got=$?
	if [ "$_got" -eq "$_want" ]; then
		ok
	else
		ko "$_what: exit $_got, expected $_want ($(head -n 1 last.err))"
	fi
}

# Errors print exactly one line on stderr.
one_line_err() {
	_n=$(wc -l < last.err)
	if [ "$_n" -eq 1 ]; then ok; else ko "$1: $_n stderr lines"; fi
}

# (helpers use _-prefixed variables: sh functions share the globals)
size_is() {
	_sz=$(wc -c < "$1")
	if [ "$_sz" -eq "$2" ]; then ok; else
		ko "size of $1 is $_sz, expected $2"; fi
}

size_at_most() {
	_sz=$(wc -c < "$1")
	if [ "$_sz" -le "$2" ] && [ "$_sz" -gt 41 ]; then ok; else
		ko "size of $1 is $_sz, expected 42..$2"; fi
}

first_byte_is() {
	_b=$(od -An -tx1 -N1 "$1" | tr -d ' \n')
	if [ "$_b" = "$2" ]; then ok; else
		ko "first byte of $1 is $_b, expected $2"; fi
}

same() {
	if cmp -s "$1" "$2"; then ok; else ko "$1 and $2 differ"; fi
}

differ() {
	if cmp -s "$1" "$2"; then ko "$1 and $2 are equal"; else ok; fi
}

# Copy of $1 with byte at offset $2 xor 0x01 -> $3.
flip_byte() {
	cp "$1" "$3"
	_b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' \n')
	_nb=$(( _b ^ 1 ))
	printf "$(printf '\\%03o' "$_nb")" | dd of="$3" bs=1 seek="$2" \
		conv=notrunc 2> /dev/null
}

printf 'The quick brown fox jumps over the lazy dog' > msg
printf 'The quick brown fox jumps over the lazy cog' > msg.bad
: > empty

seed=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
for degree in 512 1024; do
	case $degree in
	512)  pk=897;   sk=1281; padded=666;  ct=809;  comp=752;
	      h=39; hct=59; hsk=59; hpk=09 ;;
	1024) pk=1793; sk=2305; padded=1280; ct=1577; comp=1462;
	      h=3a; hct=5a; hsk=5a; hpk=0a ;;
	esac
	d=d$degree

	# Key generation: seeded (deterministic) and from the OS.
	expect 0 "keygen $degree seeded" -- \
		"$exe" keygen --degree $degree --seed $seed --sk $d.sk --pk $d.pk
	size_is $d.sk $sk
	size_is $d.pk $pk
	first_byte_is $d.sk $hsk
	first_byte_is $d.pk $hpk
	expect 0 "keygen $degree same seed" -- \
		"$exe" keygen --degree=$degree --seed=$seed --sk $d.sk2 --pk $d.pk2
	same $d.sk $d.sk2
	same $d.pk $d.pk2
	expect 0 "keygen $degree other seed" -- \
		"$exe" keygen --degree $degree --seed 00 --sk $d.sk3 --pk $d.pk3
	differ $d.sk $d.sk3
	expect 0 "keygen $degree from the OS" -- \
		"$exe" keygen --degree $degree --sk $d.osk --pk $d.opk
	differ $d.sk $d.osk

	# Public key from the private key.
	expect 0 "pubkey $degree" -- "$exe" pubkey --sk $d.sk --pk $d.pkx
	same $d.pk $d.pkx
	expect 0 "pubkey $degree (OS key)" -- \
		"$exe" pubkey --sk $d.osk --pk $d.opkx
	same $d.opk $d.opkx

	for fmt in compressed padded ct; do
		s=$d.$fmt.sig
		expect 0 "sign $degree $fmt" -- \
			"$exe" sign --sk $d.sk --format $fmt --in msg --out $s
		case $fmt in
		compressed) size_at_most $s $comp; first_byte_is $s $h ;;
		padded)     size_is $s $padded;    first_byte_is $s $h ;;
		ct)         size_is $s $ct;        first_byte_is $s $hct ;;
		esac
		expect 0 "verify $degree $fmt" -- \
			"$exe" verify --pk $d.pk --sig $s --in msg
		expect_in 0 "verify $degree $fmt, message on stdin" msg -- \
			"$exe" verify --pk $d.pk --sig $s
		expect 1 "verify $degree $fmt, tampered message" -- \
			"$exe" verify --pk $d.pk --sig $s --in msg.bad
		one_line_err "verify tampered message"
		expect 1 "verify $degree $fmt, other key" -- \
			"$exe" verify --pk $d.pk3 --sig $s --in msg
		flip_byte $s 5 $s.nonce
		expect 1 "verify $degree $fmt, tampered nonce" -- \
			"$exe" verify --pk $d.pk --sig $s.nonce --in msg
		# Signature from stdin message, with the portable backend.
		expect_in 0 "sign $degree $fmt, message on stdin" msg -- \
			"$exe" --backend portable sign --sk $d.sk --format $fmt \
			--out $s.2
		expect 0 "verify $degree $fmt (stdin-signed)" -- \
			"$exe" verify --pk $d.pk --sig $s.2 --in msg --backend portable
		# Two signatures of the same message differ (fresh nonce).
		differ $s $s.2
	done

	# Empty message.
	expect 0 "sign $degree empty message" -- \
		"$exe" sign --sk $d.sk --in empty --out $d.empty.sig
	expect 0 "verify $degree empty message" -- \
		"$exe" verify --pk $d.pk --sig $d.empty.sig --in empty
	expect 1 "verify $degree empty-message signature on msg" -- \
		"$exe" verify --pk $d.pk --sig $d.empty.sig --in msg
done

# Known answers: keys and signatures of the NIST KAT files (first and
# last record available of each degree), converted to our detached format.
if command -v python3 > /dev/null 2>&1; then
	for degree in 512 1024; do
		if [ -n "$shared" ] && [ -r "$shared/kat/falcon$degree-KAT.rsp" ]
		then
			katfile=$shared/kat/falcon$degree-KAT.rsp
			recs="0 99"
		else
			katfile=$facts/falcon$degree-KAT.first3.rsp
			recs="0 2"
		fi
		for rec in $recs; do
			k=kat$degree.$rec
			if python3 "$here/kat_extract.py" "$katfile" $rec $k; then
				ok
			else
				ko "kat_extract $degree $rec"; continue
			fi
			expect 0 "pubkey of KAT $degree record $rec" -- \
				"$exe" pubkey --sk $k.sk --pk $k.pkx
			same $k.pk $k.pkx
			expect 0 "verify KAT $degree record $rec" -- \
				"$exe" verify --pk $k.pk --sig $k.sig --in $k.msg
			expect 1 "verify KAT $degree record $rec, other message" -- \
				"$exe" verify --pk $k.pk --sig $k.sig --in msg
			# Signing with a KAT key verifies under the KAT public key.
			expect 0 "sign with KAT $degree key $rec" -- \
				"$exe" sign --sk $k.sk --format ct --in msg --out $k.ct
			expect 0 "verify own signature, KAT $degree key $rec" -- \
				"$exe" verify --pk $k.pk --sig $k.ct --in msg
		done
	done
elif [ "${CI:-}" = true ]; then
	ko "python3 missing: KAT key checks cannot run (CI=true)"
else
	echo "note: python3 missing, KAT key checks skipped"
fi

# Garbage and malformed inputs: exit 2.
printf '\377garbage signature bytes' > garbage.sig
expect 2 "garbage signature" -- \
	"$exe" verify --pk d512.pk --sig garbage.sig --in msg
one_line_err "garbage signature"
expect 2 "empty signature" -- \
	"$exe" verify --pk d512.pk --sig empty --in msg
head -c 30 d512.compressed.sig > short.sig
expect 2 "truncated signature" -- \
	"$exe" verify --pk d512.pk --sig short.sig --in msg
expect 2 "public key given as signature key" -- \
	"$exe" sign --sk d512.pk --in msg --out x.sig
expect 2 "private key given as public key" -- \
	"$exe" verify --pk d512.sk --sig d512.compressed.sig --in msg
head -c 100 d512.pk > short.pk
expect 2 "truncated public key" -- \
	"$exe" verify --pk short.pk --sig d512.compressed.sig --in msg
expect 2 "pubkey from garbage" -- "$exe" pubkey --sk garbage.sig --pk x.pk
expect 2 "missing file" -- \
	"$exe" verify --pk no-such-file --sig d512.compressed.sig --in msg
one_line_err "missing file"
# Degree mismatch between key and signature: not valid (1 or 2).
"$exe" verify --pk d1024.pk --sig d512.compressed.sig --in msg \
	> last.out 2> last.err
rc=$?
if [ $rc -eq 1 ] || [ $rc -eq 2 ]; then ok; else
	ko "degree mismatch: exit $rc, expected 1 or 2"; fi

# Usage errors: exit 2.
expect 2 "no arguments" -- "$exe"
one_line_err "no arguments"
expect 2 "unknown command" -- "$exe" frobnicate
one_line_err "unknown command"
expect 0 "help" -- "$exe" help
expect 2 "keygen bad degree" -- \
	"$exe" keygen --degree 513 --sk x.sk --pk x.pk
one_line_err "keygen bad degree"
expect 2 "keygen missing --pk" -- "$exe" keygen --degree 512 --sk x.sk
expect 2 "keygen bad seed" -- \
	"$exe" keygen --degree 512 --seed 0g --sk x.sk --pk x.pk
expect 2 "keygen odd seed" -- \
	"$exe" keygen --degree 512 --seed 123 --sk x.sk --pk x.pk
expect 2 "unknown option" -- \
	"$exe" keygen --degree 512 --colour red --sk x.sk --pk x.pk
expect 2 "option without value" -- "$exe" sign --sk
expect 2 "stray argument" -- "$exe" verify d512.pk
expect 2 "sign bad format" -- \
	"$exe" sign --sk d512.sk --format fancy --in msg --out x.sig
expect 2 "kat bad count" -- "$exe" kat --degree 512 --count 0 --out x.rsp
expect 2 "kat missing --out" -- "$exe" kat --degree 512
expect 2 "bench bad runs" -- "$exe" bench --runs -3
expect 2 "unknown backend option" -- \
	"$exe" --backend no-such-backend keygen --degree 512 --sk x.sk --pk x.pk
one_line_err "unknown backend"
expect 2 "unknown backend in subcommand" -- \
	"$exe" verify --backend no-such-backend --pk d512.pk \
	--sig d512.compressed.sig --in msg
FALCON_ACCEL_BACKEND=no-such-backend
export FALCON_ACCEL_BACKEND
expect 2 "unknown backend from the environment" -- \
	"$exe" sign --sk d512.sk --in msg --out x.sig
expect 0 "--backend overrides the environment" -- \
	"$exe" --backend portable verify --pk d512.pk \
	--sig d512.compressed.sig --in msg
FALCON_ACCEL_BACKEND=portable
expect 0 "backend portable from the environment" -- \
	"$exe" verify --pk d512.pk --sig d512.compressed.sig --in msg
unset FALCON_ACCEL_BACKEND

# Every registered and available backend accepts the same signature and
# rejects a wrong message (verification only: a simulated backend can be
# slow, above all in sanitizer builds).
"$exe" backends > backends.txt 2>&1 || ko "backends listing"
grep -q '^portable  *available' backends.txt && ok || ko "portable listed"
# (kernel backends: soc runs whole operations for bench and kat only)
for be in $(awk '$2 == "available" && $1 != "soc" { print $1 }' backends.txt); do
	expect 0 "verify with backend $be" -- "$exe" --backend "$be" \
		verify --pk d1024.pk --sig d1024.ct.sig --in msg
	expect 1 "verify with backend $be, tampered message" -- \
		"$exe" --backend "$be" \
		verify --pk d512.pk --sig d512.padded.sig --in msg.bad
done
# The portable backend (the reference) gives the same keys as the default
# one, and the first KAT records.
expect 0 "keygen with backend portable" -- "$exe" --backend portable \
	keygen --degree 512 --seed $seed --sk be.sk --pk be.pk
same d512.sk be.sk
same d512.pk be.pk
FALCON_ACCEL_BACKEND=portable
export FALCON_ACCEL_BACKEND
expect 0 "kat 1024 with backend portable" -- \
	"$exe" kat --degree 1024 --count 2 --out portable.rsp
unset FALCON_ACCEL_BACKEND
head -n 20 "$facts/falcon1024-KAT.first3.rsp" > ref2.rsp
same ref2.rsp portable.rsp

# bench --json: one JSON object with every op (short run).
expect 0 "bench --json" -- "$exe" bench --json --degree 512 --runs 3
if [ "$(wc -l < last.out)" -eq 1 ] && grep -q \
	'^{"implementation":"falcon-accel","backend":"[^"]*","threads":1,"machine":"[^"]*","results":\[' \
	last.out; then ok; else ko "bench --json output shape"; fi
for op in fft ifft ntt intt poly_add poly_sub poly_mul_fft \
	poly_muladj_fft poly_mulselfadj_fft poly_mulconst samplerz \
	ffsampling keygen expand sign_dyn sign_tree verify; do
	if grep -q "{\"op\":\"$op\",\"degree\":512,\"median_us\":[0-9.]*,\"runs\":3}" \
		last.out; then ok; else ko "bench --json lacks $op"; fi
done
if command -v python3 > /dev/null 2>&1; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); \
kem = [r for r in d["results"] if r["op"].startswith("kem_")]; \
assert len(d["results"]) - len(kem) == 17 and all(r["median_us"] > 0 for r in d["results"]); \
assert sorted((r["op"], r["degree"]) for r in kem) == sorted((o, l) for o in ("kem_keygen", "kem_encaps", "kem_decaps") for l in (512, 768, 1024))' \
		last.out; then ok; else ko "bench --json is not valid JSON"; fi
fi
# --threads N: batch operations when the tool has the edge library.
expect 0 "bench --threads 2" -- \
	"$exe" bench --json --degree 512 --runs 2 --threads 2
if grep -q '"threads":2,' last.out; then
	for op in sign_dyn_batch sign_tree_batch verify_batch; do
		if grep -q "{\"op\":\"$op\",\"degree\":512,\"median_us\":[0-9.]*,\"runs\":2}" \
			last.out; then ok; else ko "bench --threads lacks $op"; fi
	done
elif grep -q '"threads":1,' last.out; then
	echo "note: falcon-accel built without the edge library (--threads)"
else
	ko "bench --threads 2: no threads field"
fi
expect 0 "bench table" -- "$exe" bench --degree 512 --runs 2
if grep -q '^sign_tree  *512 ' last.out; then ok; else
	ko "bench table lacks sign_tree"; fi

echo "roundtrip: $pass passed, $fail failed"
[ $fail -eq 0 ]
