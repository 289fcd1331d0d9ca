#!/bin/sh
# atomic_outputs.sh EXE WORKDIR
#
# Output files of falcon-accel are published all together or not at all
# (issue 27 item 7): a failed command (unwritable second output, full
# disk simulated with RLIMIT_FSIZE, a parent that is a regular file, a
# rename refused on an immutable target) exits 2 with one stderr line
# "cannot write PATH: <reason>" and leaves the directory exactly as it
# was: no new file, no temporary file, pre-existing files unchanged
# (content, mode, inode). Also: two outputs naming the same file are
# refused; private keys and shared secrets end mode 0600 even over an
# existing 0644 file; "-" (stdout) write errors give their reason;
# symbolic links and /dev/null as outputs still work.
# Runs as root in CI (permission bits do not stop root, hence the other
# ways to make writes fail). Prints failures and
# "atomic_outputs: N passed, N failed".
set -u

exe=$1
dir=$2
pass=0
fail=0

# an interrupted earlier run may have left its immutable file
chattr -i "$dir/imm.pk" 2> /dev/null
rm -rf "$dir"
mkdir -p "$dir" || exit 1
cd "$dir" || exit 1
unset FALCON_ACCEL_BACKEND
umask 022

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# The directory's files (but this script's own last.* and snap.*): name,
# type, inode, mode, size and checksum; hidden files included.
state() {
	ls -A | grep -v '^last\.\|^snap\.' | while IFS= read -r _f; do
		if [ -f "$_f" ] && [ ! -L "$_f" ]; then
			printf '%s %s %s\n' "$_f" "$(stat -c '%i %a %s' "$_f")" \
				"$(cksum < "$_f")"
		else
			printf '%s %s\n' "$_f" "$(stat -c '%F %i %a' "$_f")"
		fi
	done
}

# check_failed DESCRIPTION PATTERN RC: exit RC was 2, last.err is one
# line containing PATTERN, the directory is as in snap.before.
check_failed() {
	if [ "$3" -eq 2 ]; then ok; else
		ko "$1: exit $3, expected 2 ($(head -n 1 last.err))"; fi
	_n=$(wc -l < last.err)
	if [ "$_n" -eq 1 ]; then ok; else ko "$1: $_n stderr lines"; fi
	if grep -q -- "$2" last.err; then ok; else
		ko "$1: stderr lacks '$2': $(cat last.err)"; fi
	state > snap.after
	if cmp -s snap.before snap.after; then ok; else
		ko "$1: the directory changed:" \
			"$(diff snap.before snap.after | grep '^[<>]' | tr '\n' ';')"
	fi
}

# fails DESCRIPTION PATTERN -- COMMAND...
fails() {
	_what=$1
	_pat=$2
	shift 3
	state > snap.before
	"$@" > last.out 2> last.err
	check_failed "$_what" "$_pat" $?
}

# fails_fsize BLOCKS DESCRIPTION PATTERN -- COMMAND...: with RLIMIT_FSIZE
# at BLOCKS (ulimit -f units) and SIGXFSZ ignored, a write past the limit
# fails with EFBIG as on a full disk. stderr goes through a pipe (the
# limit applies to every regular file the command writes).
fails_fsize() {
	_blocks=$1
	_what=$2
	_pat=$3
	shift 4
	state > snap.before
	_res=$( (trap '' XFSZ; ulimit -f "$_blocks" || exit 99
		"$@" 2>&1 > /dev/null; echo "rc=$?") )
	printf '%s\n' "$_res" | sed '$d' > last.err
	_rc=$(printf '%s\n' "$_res" | sed -n '$s/^rc=//p')
	check_failed "$_what" "$_pat" "${_rc:-99}"
}

# fails_full DESCRIPTION PATTERN -- COMMAND...: stdout is /dev/full.
fails_full() {
	_what=$1
	_pat=$2
	shift 3
	state > snap.before
	"$@" > /dev/full 2> last.err
	check_failed "$_what" "$_pat" $?
}

# expect0 DESCRIPTION -- COMMAND...
expect0() {
	_what=$1
	shift 2
	"$@" > last.out 2> last.err
	_rc=$?
	if [ $_rc -eq 0 ]; then ok; else
		ko "$_what: exit $_rc ($(head -n 1 last.err))"; fi
}

mode_is() {
	_m=$(stat -c %a "$1")
	if [ "$_m" = "$2" ]; then ok; else ko "mode of $1 is $_m, expected $2"; fi
}

size_is() {
	_sz=$(wc -c < "$1")
	if [ "$_sz" -eq "$2" ]; then ok; else
		ko "size of $1 is $_sz, expected $2"; fi
}

no_temp_files() {
	_left=$(ls -A | grep '\.tmp\.\|\.bak\.\|^\.falcon-accel')
	if [ -z "$_left" ]; then ok; else ko "$1: files left: $_left"; fi
}

# --- fixtures ---
seed=000102030405060708090A0B0C0D0E0F
expect0 "keygen 512" -- "$exe" keygen --degree 512 --seed "$seed" \
	--sk k.sk --pk k.pk
expect0 "keygen 1024" -- "$exe" keygen --degree 1024 --seed "$seed" \
	--sk k1024.sk --pk k1024.pk
expect0 "kem keygen" -- "$exe" kem keygen --level 512 --dk k.dk --ek k.ek
expect0 "kem keygen 1024" -- \
	"$exe" kem keygen --level 1024 --dk k1024.dk --ek k1024.ek
echo "a message" > m
echo "a regular file" > afile
cp k.sk old.sk
cp k.pk old.pk
no_temp_files "fixtures"

# --- 1. second output unwritable: no first output left behind ---
fails "keygen, --pk in a missing directory" \
	"cannot write /nonexistent-dir/pk: No such file or directory" -- \
	"$exe" keygen --degree 512 --sk new.sk --pk /nonexistent-dir/pk
fails "kem keygen, --ek in a missing directory" \
	"cannot write /nonexistent-dir/ek: No such file or directory" -- \
	"$exe" kem keygen --level 512 --dk new.dk --ek /nonexistent-dir/ek
fails "kem encaps, --ss in a missing directory" \
	"cannot write /nonexistent-dir/ss: No such file or directory" -- \
	"$exe" kem encaps --ek k.ek --ct new.ct --ss /nonexistent-dir/ss

# --- 2. pre-existing outputs unchanged by a failed command ---
fails "keygen over old keys, --pk under a regular file" \
	"cannot write afile/pk: Not a directory" -- \
	"$exe" keygen --degree 512 --sk old.sk --pk afile/pk
# Falcon-1024 keys (2305 and 1793 bytes) exceed 1 block (512 or 1024).
fails_fsize 1 "keygen 1024 over old keys, file size limit" \
	"cannot write old.sk: File too large" -- \
	"$exe" keygen --degree 1024 --sk old.sk --pk old.pk
if cmp -s old.sk k.sk && cmp -s old.pk k.pk; then ok; else
	ko "old.sk/old.pk changed"; fi
# The last rename refused (immutable target): the first one is undone.
cp k.pk imm.pk
if chattr +i imm.pk 2> /dev/null; then
	fails "keygen, rename over an immutable --pk" \
		"cannot write imm.pk: Operation not permitted" -- \
		"$exe" keygen --degree 512 --sk old.sk --pk imm.pk
	fails "kem keygen, rename over an immutable --ek" \
		"cannot write imm.pk: Operation not permitted" -- \
		"$exe" kem keygen --level 512 --dk old.sk --ek imm.pk
	fails "kem encaps, rename over an immutable --ss" \
		"cannot write imm.pk: Operation not permitted" -- \
		"$exe" kem encaps --ek k.ek --ct old.pk --ss imm.pk
	chattr -i imm.pk
	if cmp -s old.sk k.sk && cmp -s old.pk k.pk; then ok; else
		ko "old.sk/old.pk changed by a failed rename"; fi
else
	# (under CI=true a check that cannot run is a failure)
	if [ "${CI:-}" = true ]; then ko "chattr +i unsupported: rollback not checked"
	else echo "note: chattr +i unsupported here, rollback checks skipped"; fi
fi

# --- 3. the same file for two outputs ---
cp k.pk X
fails "keygen --sk X --pk X" "keygen: --sk X and --pk X" -- \
	"$exe" keygen --degree 512 --sk X --pk X
fails "keygen --sk ./X --pk X" "keygen: --sk ./X and --pk X" -- \
	"$exe" keygen --degree 512 --sk ./X --pk X
mkdir sub
fails "keygen --sk X --pk sub/../X" "keygen: --sk X and --pk sub/../X" -- \
	"$exe" keygen --degree 512 --sk X --pk sub/../X
ln X X.link
fails "keygen --sk X --pk (hard link to X)" "keygen: --sk X and --pk X.link" \
	-- "$exe" keygen --degree 512 --sk X --pk X.link
rm X.link
ln -s X X.sym
fails "keygen --sk X --pk (symlink to X)" "keygen: --sk X and --pk X.sym" \
	-- "$exe" keygen --degree 512 --sk X --pk X.sym
rm X.sym
fails "keygen --sk Y --pk ./Y (Y missing)" "keygen: --sk Y and --pk ./Y" -- \
	"$exe" keygen --degree 512 --sk Y --pk ./Y
fails "kem keygen --dk X --ek X" "kem keygen: --dk X and --ek X" -- \
	"$exe" kem keygen --level 512 --dk X --ek X
fails "kem encaps --ct X --ss ./X" "kem encaps: --ct X and --ss ./X" -- \
	"$exe" kem encaps --ek k.ek --ct X --ss ./X
if cmp -s X k.pk; then ok; else ko "X changed"; fi

# --- 4. secrets 0600 over an existing 0644 file, public 0644 ---
for f in p.sk p.pk p.dk p.ek p.ct p.ss q.ss; do
	echo old > $f
	chmod 644 $f
done
expect0 "keygen over 0644 files" -- \
	"$exe" keygen --degree 512 --sk p.sk --pk p.pk
mode_is p.sk 600
mode_is p.pk 644
expect0 "kem keygen over 0644 files" -- \
	"$exe" kem keygen --level 512 --dk p.dk --ek p.ek
mode_is p.dk 600
mode_is p.ek 644
expect0 "kem encaps over 0644 files" -- \
	"$exe" kem encaps --ek p.ek --ct p.ct --ss p.ss
mode_is p.ct 644
mode_is p.ss 600
expect0 "kem decaps over a 0644 file" -- \
	"$exe" kem decaps --dk p.dk --ct p.ct --ss q.ss
mode_is q.ss 600
if cmp -s p.ss q.ss; then ok; else ko "kem round trip over old files"; fi
expect0 "verify with keys written over old files" -- \
	"$exe" sign --sk p.sk --in m --out p.sig
expect0 "verify" -- "$exe" verify --pk p.pk --sig p.sig --in m
no_temp_files "after successful commands"

# --- 5. full disk (RLIMIT_FSIZE: EFBIG) ---
expect0 "sign padded 1024" -- \
	"$exe" sign --sk k1024.sk --format padded --in m --out pad.sig
size_is pad.sig 1280
rm pad.sig
fails_fsize 0 "sign, no byte can be written" \
	"cannot write s0.sig: File too large" -- \
	"$exe" sign --sk k.sk --in m --out s0.sig
fails_fsize 1 "sign padded 1024 (1280 bytes) past 1 block" \
	"cannot write s1.sig: File too large" -- \
	"$exe" sign --sk k1024.sk --format padded --in m --out s1.sig
cp k.pk old.sig
fails_fsize 1 "sign over an existing file past 1 block" \
	"cannot write old.sig: File too large" -- \
	"$exe" sign --sk k1024.sk --format padded --in m --out old.sig
fails_fsize 1 "kat past 1 block" "cannot write kat.rsp: File too large" -- \
	"$exe" kat --degree 512 --count 2 --out kat.rsp
fails_fsize 1 "kem encaps 1024: --ct (1568 bytes) past 1 block" \
	"cannot write new.ct: File too large" -- \
	"$exe" kem encaps --ek k1024.ek --ct new.ct --ss new.ss

# --- 6. "-" (stdout) write errors give the reason ---
if [ -c /dev/full ]; then
	fails_full "sign --out - to /dev/full" \
		"cannot write stdout: No space left on device" -- \
		"$exe" sign --sk k.sk --in m --out -
	fails_full "kat --out - to /dev/full" \
		"cannot write stdout: No space left on device" -- \
		"$exe" kat --degree 512 --count 1 --out -
	fails_full "keygen --sk - to /dev/full: no --pk file either" \
		"cannot write stdout: No space left on device" -- \
		"$exe" keygen --degree 512 --sk - --pk new.pk
else
	if [ "${CI:-}" = true ]; then ko "no /dev/full: stdout checks not run"
	else echo "note: no /dev/full, stdout checks skipped"; fi
fi
expect0 "keygen --sk - --pk FILE" -- \
	"$exe" keygen --degree 512 --seed "$seed" --sk - --pk dash.pk
if cmp -s last.out k.sk && cmp -s dash.pk k.pk; then ok; else
	ko "keygen --sk - wrote other bytes"; fi

# --- 7. a parent that is a regular file (ENOTDIR) ---
fails "kat --out afile/kat" "cannot write afile/kat: Not a directory" -- \
	"$exe" kat --degree 512 --count 1 --out afile/kat
fails "sign --out afile/sig" "cannot write afile/sig: Not a directory" -- \
	"$exe" sign --sk k.sk --in m --out afile/sig
fails "kem keygen --ek afile/ek" "cannot write afile/ek: Not a directory" -- \
	"$exe" kem keygen --level 512 --dk new.dk --ek afile/ek
fails "keygen --pk sub (a directory)" "cannot write sub: Is a directory" -- \
	"$exe" keygen --degree 512 --sk new.sk --pk sub

# --- outputs that are not plain files still work ---
cp k.pk target.pk
ln -s target.pk link.pk
expect0 "pubkey --pk through a symbolic link" -- \
	"$exe" pubkey --sk k1024.sk --pk link.pk
if [ -L link.pk ] && cmp -s target.pk k1024.pk; then ok; else
	ko "symbolic link output: link replaced or target not written"; fi
expect0 "sign --out /dev/null" -- "$exe" sign --sk k.sk --in m --out /dev/null
if [ -c /dev/null ]; then ok; else ko "/dev/null is no longer a device"; fi
no_temp_files "at the end"

echo "atomic_outputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
