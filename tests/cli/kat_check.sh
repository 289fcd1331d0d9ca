#!/bin/sh
# kat_check.sh EXE DEGREE COUNT OUTDIR [SHARED_DIR]
#
# Generates the first COUNT records of the NIST KAT file for Falcon-DEGREE
# with `EXE kat` into OUTDIR and checks them against what the repository
# keeps about the NIST files (tests/kat/, see tests/kat/README.md):
#  - the records it stores (the first 3): byte equality with the same
#    records of the output (on a mismatch the record and field are named);
#  - COUNT = 100: the SHA-256 of the output against tests/kat/SHA256SUMS.
# When SHARED_DIR/kat/falconDEGREE-KAT.rsp (the full file) is present it
# adds: the stored facts agree with it (its SHA-256, its first records),
# byte equality with its first COUNT records and a record-level diff on
# a mismatch. SHARED_DIR: $FA_SHARED_DIR if set, else the 5th argument.
# A COUNT between 4 and 99 needs the full file.
# Exit 0 pass, 1 fail, 77 cannot check (a failure, 1, under CI=true).
set -u

exe=$1
degree=$2
count=$3
outdir=$4
shared=${FA_SHARED_DIR:-${5:-}}
here=$(cd "$(dirname "$0")" && pwd)
facts=$(cd "$here/.." && pwd)/kat

name="falcon${degree}-KAT.rsp"
out="$outdir/kat${count}-$name"
stored="$facts/falcon${degree}-KAT.first3.rsp"
sums="$facts/SHA256SUMS"
full="$shared/kat/$name"
status=0

fail() { echo "FAIL: $*"; status=1; }
cannot_check() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: $* (CI=true: a check that cannot run fails)"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}
sha256() { sha256sum "$1" | awk '{ print $1 }'; }
# Records in a KAT file (lines "count = N").
records() { grep -c '^count = ' "$1"; }

# first_diff REF LINES: names the first line of the first LINES lines of
# REF that differs from $out (record, field, both values).
first_diff() {
	head -n "$2" "$1" | awk -v gen="$out" '
		BEGIN { rec = "header" }
		{
			refline = $0
			if ((getline genline < gen) <= 0) {
				genline = "<end of file>"
			}
			if (refline ~ /^count = /) { rec = substr(refline, 9) }
			if (refline != genline) {
				split(refline, f, " ")
				printf "  first difference: record %s, field \"%s\" (line %d)\n", rec, f[1], NR
				printf "  expected: %.100s\n", refline
				printf "  got:      %.100s\n", genline
				exit
			}
		}'
}

# compare_prefix REF N: the first N records of $out equal those of REF.
compare_prefix() {
	_lines=$((2 + 9 * $2))
	head -n "$_lines" "$1" > "$out.want"
	head -n "$_lines" "$out" > "$out.got"
	if cmp -s "$out.want" "$out.got"; then
		return 0
	fi
	first_diff "$1" "$_lines"
	return 1
}

for f in "$stored" "$sums"; do
	[ -r "$f" ] || cannot_check "$f is missing (the repository's KAT facts)"
done
want=$(awk -v n="$name" '$2 == n { print $1 }' "$sums")
[ -n "$want" ] || cannot_check "no SHA-256 for $name in $sums"
nstored=$(records "$stored")
have_full=0
[ -n "$shared" ] && [ -r "$full" ] && have_full=1

# The stored facts agree with the full file wherever it is present.
if [ $have_full -eq 1 ]; then
	if [ "$(sha256 "$full")" != "$want" ]; then
		fail "SHA-256 of $full is $(sha256 "$full"), $sums says $want"
	fi
	if ! head -n $((2 + 9 * nstored)) "$full" | cmp -s - "$stored"; then
		fail "$stored is not the first $nstored records of $full"
	fi
fi

mkdir -p "$outdir" || exit 1
rm -f "$out"
start=$(date +%s.%N 2>/dev/null || date +%s)
"$exe" kat --degree "$degree" --count "$count" --out "$out"
rc=$?
end=$(date +%s.%N 2>/dev/null || date +%s)
if [ $rc -ne 0 ]; then
	echo "FAIL: falcon-accel kat --degree $degree --count $count exited $rc"
	exit 1
fi
echo "kat --degree $degree --count $count: $(awk "BEGIN{printf \"%.2f\", $end - $start}") s"
got_records=$(records "$out")
if [ "$got_records" -ne "$count" ]; then
	fail "$out holds $got_records records, expected $count"
fi

# 1. The stored first records, byte for byte.
k=$count
[ "$k" -gt "$nstored" ] && k=$nstored
if compare_prefix "$stored" "$k"; then
	echo "PASS: records 0..$((k - 1)) equal to $stored"
else
	fail "records 0..$((k - 1)) differ from $stored"
fi

# 2. A full file: its SHA-256.
if [ "$count" -eq 100 ]; then
	got=$(sha256 "$out")
	if [ "$got" = "$want" ]; then
		echo "PASS: SHA-256 $got matches $sums"
	else
		fail "SHA-256 of $out is $got, $sums says $want"
		if [ $have_full -eq 0 ]; then
			echo "  (put the NIST files in ../shared/kat or \$FA_SHARED_DIR/kat for a record-level diff)"
		fi
	fi
fi

# 3. With the full file: byte equality with its first COUNT records.
if [ $have_full -eq 1 ] && [ "$count" -gt "$nstored" ]; then
	if compare_prefix "$full" "$count"; then
		echo "PASS: $count records equal to $full"
	else
		fail "records differ from $full"
	fi
elif [ "$count" -gt "$nstored" ] && [ "$count" -ne 100 ]; then
	[ $status -ne 0 ] && exit 1
	cannot_check "records $nstored..$((count - 1)) need the full file $full"
fi
exit $status
