#!/bin/sh
# extract.sh [KAT_DIR]
#
# Writes the facts the repository keeps about the NIST KAT files of
# Falcon-512 and Falcon-1024 (round 3) into tests/kat/:
#   SHA256SUMS                  SHA-256 of both full files (100 records each)
#   falcon<N>-KAT.first3.rsp    their first 3 records, byte for byte (the
#                               header line, a blank line, 9 lines a record)
# from the full files in KAT_DIR (default ../shared/kat), after checking
# them against KAT_DIR/SHA1SUMS. Run it again only if the files change;
# tests/cli/kat_check.sh checks these facts against KAT_DIR whenever the
# full files are present.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$here/../../../shared/kat}
cd "$src"
sha1sum -c SHA1SUMS
sha256sum falcon1024-KAT.rsp falcon512-KAT.rsp > "$here/SHA256SUMS"
for n in 512 1024; do
	head -n $((2 + 9 * 3)) "falcon$n-KAT.rsp" > "$here/falcon$n-KAT.first3.rsp"
done
echo "wrote $here/SHA256SUMS and the first 3 records of each file"
