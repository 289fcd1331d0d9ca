# Convenience targets; the README's scripts are the reference commands.
.PHONY: all test run bench-compare rv32 synth

all:
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release
	cmake --build build/release -j2

test:
	scripts/test.sh

run:
	scripts/run.sh

# Our bench and the Rust peers (fn-dsa, pqcrypto-falcon) in one run, one table
# with ratios (needs cargo and crates.io for the first build).
bench-compare:
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DFA_RTL=OFF
	cmake --build build/release -j2 --target falcon-accel
	cargo build --release --locked --manifest-path bench/peers/Cargo.toml --target-dir build/peers
	python3 bench/compare.py --falcon-accel build/release/tools/falcon-accel \
	  --peers build/peers/release/falcon-accel-peers --markdown

rv32:
	scripts/build_rv32.sh

synth:
	$(MAKE) -C hw synth
