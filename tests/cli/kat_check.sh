#!/bin/sh
# kat_check.sh EXE DEGREE COUNT OUTDIR [SHARED_DIR]
#
# Generates the first COUNT records of the NIST KAT file for Falcon-DEGREE
# with `EXE kat` into OUTDIR, then checks it:
#  - COUNT = 100: its SHA-1 against SHARED_DIR/kat/SHA1SUMS;
#  - any COUNT: byte equality with the first COUNT records of
#    SHARED_DIR/kat/falconDEGREE-KAT.rsp when that file is present (on a
#    mismatch the first differing record and field are named).
# SHARED_DIR: $FA_SHARED_DIR if set, else the 5th argument.
# Exit 0 pass, 1 fail, 77 skip (no reference data at all).
set -u

exe=$1
degree=$2
count=$3
outdir=$4
shared=${FA_SHARED_DIR:-${5:-}}

name="falcon${degree}-KAT.rsp"
out="$outdir/kat${count}-$name"
ref="$shared/kat/$name"
sums="$shared/kat/SHA1SUMS"

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

checked=0
status=0

# Byte comparison with the prefix of the reference file (header: 2 lines,
# each record: 9 lines).
if [ -r "$ref" ]; then
	checked=1
	lines=$((2 + 9 * count))
	if head -n "$lines" "$ref" | cmp -s - "$out"; then
		echo "PASS: $count records equal to $ref"
	else
		status=1
		head -n "$lines" "$ref" | awk -v gen="$out" '
			BEGIN { rec = "header" }
			{
				refline = $0
				if ((getline genline < gen) <= 0) {
					genline = "<end of file>"
				}
				if (refline ~ /^count = /) { rec = substr(refline, 9) }
				if (refline != genline) {
					split(refline, f, " ")
					printf "FAIL: first difference in record %s, field \"%s\" (line %d)\n", rec, f[1], NR
					printf "  expected: %.100s\n", refline
					printf "  got:      %.100s\n", genline
					exit
				}
			}
			END { }'
		if [ "$(wc -l < "$out")" -ne "$lines" ]; then
			echo "FAIL: $out has $(wc -l < "$out") lines, expected $lines"
		fi
	fi
fi

# SHA-1 of a full file against SHA1SUMS.
if [ "$count" -eq 100 ] && [ -r "$sums" ]; then
	checked=1
	want=$(awk -v n="$name" '$2 == n { print $1 }' "$sums")
	got=$(sha1sum "$out" | awk '{ print $1 }')
	if [ -z "$want" ]; then
		echo "FAIL: no SHA-1 for $name in $sums"
		status=1
	elif [ "$want" = "$got" ]; then
		echo "PASS: SHA-1 $got matches $sums"
	else
		echo "FAIL: SHA-1 $got, expected $want ($sums)"
		status=1
	fi
fi

if [ $checked -eq 0 ]; then
	echo "SKIP: no reference data under '$shared/kat'"
	exit 77
fi
exit $status
