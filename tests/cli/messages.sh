#!/bin/sh
# messages.sh EXE WORKDIR README
#
# The falcon-accel tool's first-contact surface:
#  - every error names its culprit (the option and the file, the
#    argument, the environment variable) in one line on stderr, exit 2;
#  - `--version` prints the version the Python package carries too;
#  - the synopsis in README (the first code block under "## Command-line
#    tool") is exactly the output of `--help`.
# Prints failures and "messages: N passed, N failed".
set -u

exe=$1
dir=$2
readme=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

rm -rf "$dir"
mkdir -p "$dir" || exit 1
cd "$dir" || exit 1
unset FALCON_ACCEL_BACKEND

# err WHAT EXPECTED-TEXT -- COMMAND...: exit 2, one stderr line that
# contains EXPECTED-TEXT (a fixed string).
err() {
	_what=$1
	_want=$2
	shift 3
	"$@" > last.out 2> last.err
	_rc=$?
	_n=$(wc -l < last.err)
	if [ $_rc -ne 2 ]; then
		ko "$_what: exit $_rc, expected 2 ($(head -n 1 last.err))"
	elif [ "$_n" -ne 1 ]; then
		ko "$_what: $_n stderr lines, expected 1"
	elif ! grep -qF -- "$_want" last.err; then
		ko "$_what: got '$(cat last.err)', expected it to contain '$_want'"
	else
		ok
	fi
}

"$exe" keygen --degree 512 --seed 01 --sk k512.sk --pk k512.pk || exit 1
"$exe" keygen --degree 1024 --seed 01 --sk k1024.sk --pk k1024.pk || exit 1
printf 'message' > msg
"$exe" sign --sk k512.sk --in msg --out c512.sig || exit 1
"$exe" sign --sk k512.sk --format ct --in msg --out ct512.sig || exit 1
head -c 500 k512.pk > short.pk
head -c 1000 k512.sk > short.sk
head -c 30 c512.sig > short.sig
head -c 800 ct512.sig > short.ct
: > empty
printf '\377\001\002' > junk

# Decode errors name the option and the file.
err "short public key" \
	"verify: --pk short.pk: wrong encoded length 500, expected 897 for Falcon-512" -- \
	"$exe" verify --pk short.pk --sig c512.sig --in msg
err "short private key" \
	"sign: --sk short.sk: wrong encoded length 1000, expected 1281 for Falcon-512" -- \
	"$exe" sign --sk short.sk --in msg --out x.sig
err "short private key (pubkey)" \
	"pubkey: --sk short.sk: wrong encoded length 1000, expected 1281 for Falcon-512" -- \
	"$exe" pubkey --sk short.sk --pk x.pk
err "short signature" \
	"verify: --sig short.sig: wrong encoded length 30, expected 42 to 752 for Falcon-512" -- \
	"$exe" verify --pk k512.pk --sig short.sig --in msg
err "short CT signature" \
	"verify: --sig short.ct: wrong encoded length 800, expected 809 for Falcon-512 (constant-time format)" -- \
	"$exe" verify --pk k512.pk --sig short.ct --in msg
err "empty signature" \
	"verify: --sig empty: empty file, expected a Falcon signature" -- \
	"$exe" verify --pk k512.pk --sig empty --in msg
err "junk public key" \
	"verify: --pk junk: not a Falcon public key (header byte 0xFF)" -- \
	"$exe" verify --pk junk --sig c512.sig --in msg
err "junk private key" \
	"sign: --sk junk: not a Falcon private key (header byte 0xFF)" -- \
	"$exe" sign --sk junk --in msg --out x.sig

# A key or signature in the wrong place is named as what it is.
err "private key as --pk" \
	"verify: --pk k512.sk: this is a private key (header 0x59, Falcon-512), not a public key" -- \
	"$exe" verify --pk k512.sk --sig c512.sig --in msg
err "public key as --sk" \
	"sign: --sk k512.pk: this is a public key (header 0x09, Falcon-512), not a private key" -- \
	"$exe" sign --sk k512.pk --in msg --out x.sig
err "public key as --sk (pubkey)" \
	"pubkey: --sk k1024.pk: this is a public key (header 0x0A, Falcon-1024), not a private key" -- \
	"$exe" pubkey --sk k1024.pk --pk x.pk
err "private key as --sig" \
	"verify: --sig k512.sk: this is a private key (header 0x59, Falcon-512), not a signature" -- \
	"$exe" verify --pk k512.pk --sig k512.sk --in msg
err "public key as --sig" \
	"verify: --sig k512.pk: this is a public key (header 0x09, Falcon-512), not a signature" -- \
	"$exe" verify --pk k512.pk --sig k512.pk --in msg
err "signature as --pk" \
	"verify: --pk c512.sig: this is a signature (header 0x39, Falcon-512), not a public key" -- \
	"$exe" verify --pk c512.sig --sig c512.sig --in msg
err "CT signature as --sk" \
	"sign: --sk ct512.sig: this is a signature (constant-time format, header 0x59, Falcon-512), not a private key" -- \
	"$exe" sign --sk ct512.sig --in msg --out x.sig
err "degree mismatch" \
	"verify: --sig c512.sig is a Falcon-512 signature, --pk k1024.pk a Falcon-1024 public key" -- \
	"$exe" verify --pk k1024.pk --sig c512.sig --in msg
# A coefficient out of range (past the header and length checks): the
# library's error, with the file it comes from. Public key: the first
# 14-bit coefficient set to 16383 > q.
cp k512.pk range.pk
printf '\377\374' | dd of=range.pk bs=1 seek=1 conv=notrunc 2> /dev/null
err "public key coefficient out of range" \
	"verify: --pk range.pk: coefficient out of range" -- \
	"$exe" verify --pk range.pk --sig c512.sig --in msg

# Files that cannot be read name the option.
err "missing public key file" "verify: --pk no-such.pk: cannot open:" -- \
	"$exe" verify --pk no-such.pk --sig c512.sig --in msg
err "missing message file" "sign: --in no-such.msg: cannot open:" -- \
	"$exe" sign --sk k512.sk --in no-such.msg --out x.sig

# --seed: what is wrong with it.
err "odd seed" "keygen: --seed: odd number of hex digits (3)" -- \
	"$exe" keygen --degree 512 --seed 123 --sk x.sk --pk x.pk
err "non-hex seed" "keygen: --seed: 'g' (character 2) is not a hex digit" -- \
	"$exe" keygen --degree 512 --seed 0g --sk x.sk --pk x.pk
err "empty seed" "keygen: --seed: empty value" -- \
	"$exe" keygen --degree 512 --seed= --sk x.sk --pk x.pk

# Backends: an unknown name is rejected by every command, backends too,
# naming where it came from.
for cmd in backends "keygen --degree 512 --sk x.sk --pk x.pk" \
	"verify --pk k512.pk --sig c512.sig --in msg" \
	"kat --degree 512 --count 1 --out x.rsp" "bench --runs 1"; do
	# shellcheck disable=SC2086
	err "$cmd: unknown --backend" "--backend nosuch: unknown backend (available here: " -- \
		"$exe" --backend nosuch $cmd
	# shellcheck disable=SC2086
	err "$cmd: unknown FALCON_ACCEL_BACKEND" \
		"FALCON_ACCEL_BACKEND=nosuch: unknown backend (available here: " -- \
		env FALCON_ACCEL_BACKEND=nosuch "$exe" $cmd
done
err "backends: unknown option" "backends: unknown option --frob" -- \
	"$exe" backends --frob 1
"$exe" --backend portable backends > last.out 2> last.err
if [ $? -eq 0 ] && grep -q '^portable  *available' last.out; then ok; else
	ko "backends with --backend portable: $(cat last.err)"; fi

# --backend soc: bench and kat only; the other commands say so, by name of
# the option or the variable; `backends` lists soc with its state and its
# default mode (dma, the fastest).
if "$exe" backends > last.out 2> last.err && grep -q '^soc ' last.out; then
	if grep -q '^soc  *\(un\)\{0,1\}available (bench and kat only; mode dma; ' last.out; then ok; else
		ko "backends: soc line: $(grep '^soc ' last.out)"; fi
	err "keygen --backend soc refused" \
		"--backend soc: only bench and kat run on the SoC" -- \
		"$exe" keygen --backend soc --degree 512 --sk soc.sk --pk soc.pk
	err "sign with FALCON_ACCEL_BACKEND=soc refused" \
		"FALCON_ACCEL_BACKEND=soc: only bench and kat run on the SoC" -- \
		env FALCON_ACCEL_BACKEND=soc "$exe" sign --sk soc.sk --out soc.sig
	if [ ! -e soc.sk ] && [ ! -e soc.pk ] && [ ! -e soc.sig ]; then ok; else
		ko "a refused --backend soc left a file"; fi
	if FALCON_ACCEL_SOC_MODE=fw "$exe" backends | grep -q '^soc .*; mode fw;'; then ok; else
		ko "backends: FALCON_ACCEL_SOC_MODE=fw not shown"; fi
fi

# --version: the version the Python package carries too.
"$exe" --version > last.out 2> last.err || ko "--version: exit $?"
want=$(sed -n 's/^version *= *"\(.*\)"$/\1/p' "$root/service/python/pyproject.toml" | head -n 1)
if [ -n "$want" ] && grep -q "^falcon-accel $want " last.out; then ok; else
	ko "--version: '$(cat last.out)', service/python/pyproject.toml says '$want'"; fi

# The README synopsis is the output of --help, line for line.
"$exe" --help > help.txt || ko "--help: exit $?"
awk '
	/^## Command-line tool/ { sect = 1; next }
	sect && /^```/ { if (inblock) exit; inblock = 1; next }
	inblock { print }' "$readme" > readme.txt
if [ -s readme.txt ] && cmp -s help.txt readme.txt; then ok; else
	ko "README synopsis differs from --help:"
	diff help.txt readme.txt | head -n 20
fi

echo "messages: $pass passed, $fail failed"
[ $fail -eq 0 ]
