# Convenience targets; the README's scripts are the reference commands.
.PHONY: all test run gen check-gen bench-compare bench-compare-kem bench-pool rv32 synth fuzz-campaign fuzz-corpus \
	fido2-soc-e2e fido2-soc-host-e2e fido2-soc-smoke

all:
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release
	cmake --build build/release -j2

test:
	scripts/test.sh

run:
	scripts/run.sh

# Every generator of the repository (tables, ROMs, register and address
# maps, microcode, error names, fuzz corpora): scripts/autogen.py, the one
# entry point; check-gen fails naming each stale generated file (CI runs it
# once, in scripts/test.sh).
gen:
	python3 scripts/autogen.py

check-gen:
	python3 scripts/autogen.py --check

# Our bench and the Rust peers (fn-dsa, pqcrypto-falcon) in one run, one table
# with ratios (needs cargo and crates.io for the first build).
bench-compare:
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF
	cmake --build build/release -j2 --target falcon-accel
	cargo build --release --locked --manifest-path bench/peers/Cargo.toml --target-dir build/peers
	python3 bench/compare.py --falcon-accel build/release/tools/falcon-accel \
	  --peers build/peers/release/falcon-accel-peers --markdown

# ML-KEM: our kem_* timings (portable, avx2) and the Rust peers
# libcrux-ml-kem and pqcrypto-mlkem, interleaved over rounds, one table.
bench-compare-kem:
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF
	cmake --build build/release -j2 --target falcon-accel
	cargo build --release --locked --manifest-path bench/peers/Cargo.toml --target-dir build/peers
	python3 bench/compare_kem.py --falcon-accel build/release/tools/falcon-accel \
	  --peers build/peers/release/falcon-accel-peers --markdown

# Worker-pool scaling of the batch API: 1, 2, 4, ... threads, large batches.
bench-pool:
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF
	cmake --build build/release -j2 --target falcon_accel falcon_accel_edge
	$(CC) -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude bench/pool/pool_scaling.c \
	  build/release/libfalcon_accel_edge.a build/release/libfalcon_accel.a -lpthread \
	  -o build/release/pool_scaling
	build/release/pool_scaling $${THREADS:-2} $${ITEMS:-512} $${REPS:-7}

rv32:
	scripts/build_rv32.sh

synth:
	$(MAKE) -C hw synth

# Public-API libFuzzer campaign (tests/fuzz/fuzz_api*.c; scripts/fuzz_api.sh):
# each target in FUZZ_TARGETS (default: the six per-function targets and
# the whole-API one) for FUZZ_SECONDS (default 1200) seconds, FUZZ_SAN
# (default undefined: faster than address,undefined), FUZZ_MAXLEN
# (default 3000). Result: README "Robustness".
fuzz-campaign:
	FUZZ_TARGETS="$${FUZZ_TARGETS:-verify prepared make_public expand sign_dyn sign_tree api}" \
	  scripts/fuzz_api.sh $${FUZZ_SECONDS:-1200} $${FUZZ_SAN:-undefined} $${FUZZ_MAXLEN:-3000}

# Cost of the private-key check per part and degree (bench/keycheck/);
# PEER=<git revision> adds that revision's fa_ntru_equation_ok, compiled
# with the library's Release flags and measured in the same run.
# BENCH_BACKEND (default portable).
bench-keycheck:
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF
	cmake --build build/release -j2 --target falcon_accel
	if [ -n "$(PEER)" ]; then \
	  git show $(PEER):src/privkey_check.c > build/release/privkey_check_peer.c && \
	  $(CC) -O3 -DNDEBUG -ffp-contract=off -fno-math-errno -Iinclude -Isrc \
	    -Dfa_ntru_equation_ok=fa_ntru_equation_ok_peer \
	    -Dfa_expanded_key_checksum=fa_expanded_key_checksum_peer -Dfa_fg_norm_ok=fa_fg_norm_ok_peer \
	    -c build/release/privkey_check_peer.c -o build/release/privkey_check_peer.o && \
	  $(CC) -O2 -DPEER -Iinclude -Isrc bench/keycheck/bench_privkey_check.c \
	    build/release/privkey_check_peer.o build/release/libfalcon_accel.a -lm -lpthread \
	    -o build/release/bench_privkey_check; \
	else \
	  $(CC) -O2 -Iinclude -Isrc bench/keycheck/bench_privkey_check.c \
	    build/release/libfalcon_accel.a -lm -lpthread -o build/release/bench_privkey_check; \
	fi
	build/release/bench_privkey_check 7 200 2 10 $${BENCH_BACKEND:-portable}

# Regenerate the fuzz_api seed corpus (tests/fuzz/corpus/api).
fuzz-corpus:
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF
	cmake --build build/release -j2 --target falcon_accel
	$(CC) -O2 -Iinclude tests/fuzz/gen_api_corpus.c build/release/libfalcon_accel.a -lm -o build/release/gen_api_corpus
	build/release/gen_api_corpus tests/fuzz/corpus/api

# The FIDO2 key as SoC firmware (apps/fido2/fw/fido2_main.c via falcon-accel-fido2-soc):
# the whole e2e suite on the simulated SoC (hours), the same suite on the
# firmware's device code in-process (seconds), and the CI smoke.
fido2-soc-e2e:
	apps/fido2/tests/run_soc_e2e.sh soc

fido2-soc-host-e2e:
	apps/fido2/tests/run_soc_e2e.sh soc-host

fido2-soc-smoke:
	apps/fido2/tests/run_soc_smoke.sh
