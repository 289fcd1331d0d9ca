//! Peer benchmark for falcon-accel: the Falcon implementations a user
//! would otherwise pick, timed like `falcon-accel bench` times ours.
//!
//!  - fn-dsa 0.4 (Thomas Pornin's Rust FN-DSA, AVX2 detected at run time);
//!  - pqcrypto-falcon 0.4 (PQClean's Falcon, AVX2 variant selected at run
//!    time when the CPU has AVX2).
//!
//! Operations, per degree (512, 1024), single thread:
//!  - keygen:   a new key pair from the implementation's usual RNG
//!              (fn-dsa: a SHAKE256 stream, as falcon-accel bench uses;
//!              pqcrypto: the OS RNG, which is all its API offers);
//!  - sign_dyn: one signature of the bench message (32 bytes 00..1F) with
//!              a private key loaded once. fn-dsa signs from a decoded
//!              SigningKey (decoding and the FFT basis are done once, before
//!              timing, as its API encourages); pqcrypto signs from the
//!              encoded key (its only API: decoding is in every call);
//!  - sign_with_decode (fn-dsa only): decode the encoded private key and
//!              sign, in every call (as falcon-accel's fa_fndsa_sign does:
//!              the sign_dyn reference of bench/compare.py --scheme fn-dsa);
//!  - verify:   decode the encoded public key and verify one signature
//!              (the same work as falcon-accel's fa_verify, which also
//!              starts from the encoded key).
//! Messages are signed without pre-hashing (fn-dsa: HASH_ID_RAW,
//! DOMAIN_NONE).
//!
//! Method (as tools/bench.c): warm-up, then R samples of one call each,
//! median in microseconds. Defaults: up to 101 samples per operation,
//! stopped after at least 5 once the operation has used 3 s. `--runs R`
//! gives exactly R samples.
//!
//! Output: one JSON object per implementation per line, the shape of
//! `falcon-accel bench --json`:
//! {"implementation":"fn-dsa","version":"0.4.0","machine":"...",
//!  "results":[{"op":"keygen","degree":512,"median_us":..,"runs":..},...]}
//!
//! ML-KEM (FIPS 203), selected with --impl, ops kem_keygen, kem_encaps,
//! kem_decaps with "degree" = the level (512, 768, 1024), as
//! `falcon-accel bench --json` reports them:
//!  - libcrux-ml-kem 0.0.11 (Cryspen; its build enables the AVX2 code on
//!    x86-64, chosen at run time): keygen from a 64-byte seed (d || z,
//!    varied per call), encaps with a 32-byte m, decaps; the packed-key
//!    API, which does not run the FIPS 203 input checks (ek modulus
//!    check, dk hash check) that falcon-accel's encaps/decaps include;
//!  - pqcrypto-mlkem 0.1.1 (PQClean's ML-KEM, AVX2 variant when the CPU
//!    has it): keypair() and encapsulate() draw from the OS RNG (its only
//!    API), decapsulate().
//!
//! Usage: falcon-accel-peers [--runs R] [--degree 512|1024]
//!                           [--impl fn-dsa|pqcrypto-falcon|libcrux-ml-kem|pqcrypto-mlkem]

use std::hint::black_box;
use std::time::Instant;

use fn_dsa::{
    sign_key_size, signature_size, vrfy_key_size, CryptoRng, KeyPairGenerator,
    KeyPairGeneratorStandard, RngCore, RngError, SigningKey, SigningKeyStandard,
    VerifyingKey, VerifyingKeyStandard, DOMAIN_NONE, HASH_ID_RAW, SHAKE256,
};
use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _, SecretKey as _};

const DEFAULT_RUNS: usize = 101;
const MIN_RUNS: usize = 5;
const BUDGET_S: f64 = 3.0;
const MSG_LEN: usize = 32;

/// Deterministic RNG for fn-dsa: SHAKE256 over a fixed seed.
struct ShakeRng(SHAKE256);

impl ShakeRng {
    fn new(seed: &[u8]) -> Self {
        let mut sh = SHAKE256::new();
        sh.inject(seed);
        sh.flip();
        Self(sh)
    }
}

impl RngCore for ShakeRng {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.0.extract(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.0.extract(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.extract(dest);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), RngError> {
        self.0.extract(dest);
        Ok(())
    }
}

impl CryptoRng for ShakeRng {}

struct Sample {
    op: &'static str,
    degree: u32,
    median_us: f64,
    runs: usize,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Median time of `f` in microseconds; runs == 0: default with budget.
fn measure<F: FnMut()>(op: &'static str, degree: u32, runs: usize, mut f: F) -> Sample {
    let max_runs = if runs == 0 { DEFAULT_RUNS } else { runs };
    let mut samples = Vec::with_capacity(max_runs);
    f(); // warm-up
    let start = Instant::now();
    while samples.len() < max_runs {
        let t0 = Instant::now();
        f();
        samples.push(t0.elapsed().as_secs_f64() * 1e6);
        if runs == 0 && samples.len() >= MIN_RUNS && start.elapsed().as_secs_f64() > BUDGET_S {
            break;
        }
    }
    Sample { op, degree, median_us: median(&mut samples), runs: samples.len() }
}

fn bench_msg() -> [u8; MSG_LEN] {
    let mut m = [0u8; MSG_LEN];
    for (j, b) in m.iter_mut().enumerate() {
        *b = j as u8;
    }
    m
}

fn fn_dsa_degree(logn: u32, runs: usize, out: &mut Vec<Sample>) {
    let degree = 1u32 << logn;
    let msg = bench_msg();
    let mut rng = ShakeRng::new(b"falcon-accel bench peers");
    let mut kg = KeyPairGeneratorStandard::default();
    let mut sk = vec![0u8; sign_key_size(logn)];
    let mut vk = vec![0u8; vrfy_key_size(logn)];
    let mut sig = vec![0u8; signature_size(logn)];

    out.push(measure("keygen", degree, runs, || {
        kg.keygen(logn, &mut rng, &mut sk, &mut vk);
        black_box(&sk);
    }));

    let mut skd = SigningKeyStandard::decode(&sk).expect("fn-dsa: decode sk");
    out.push(measure("sign_dyn", degree, runs, || {
        skd.sign(&mut rng, &DOMAIN_NONE, &HASH_ID_RAW, &msg, &mut sig)
            .expect("fn-dsa: sign");
        black_box(&sig);
    }));

    // Decoding in every call (the encoded key, as falcon-accel's
    // fa_fndsa_sign starts from): the FN-DSA comparison's sign_dyn.
    out.push(measure("sign_with_decode", degree, runs, || {
        let mut skd = SigningKeyStandard::decode(black_box(&sk)).expect("fn-dsa: decode sk");
        skd.sign(&mut rng, &DOMAIN_NONE, &HASH_ID_RAW, &msg, &mut sig)
            .expect("fn-dsa: sign");
        black_box(&sig);
    }));

    skd.sign(&mut rng, &DOMAIN_NONE, &HASH_ID_RAW, &msg, &mut sig).expect("fn-dsa: sign");
    out.push(measure("verify", degree, runs, || {
        let vkd = VerifyingKeyStandard::decode(black_box(&vk)).expect("fn-dsa: decode vk");
        assert!(vkd.verify(black_box(&sig), &DOMAIN_NONE, &HASH_ID_RAW, &msg));
    }));
}

macro_rules! pqcrypto_degree {
    ($name:ident, $module:ident) => {
        fn $name(runs: usize, out: &mut Vec<Sample>) {
            use pqcrypto_falcon::$module as m;
            let degree = if stringify!($module) == "falcon512" { 512 } else { 1024 };
            let msg = bench_msg();

            out.push(measure("keygen", degree, runs, || {
                black_box(m::keypair());
            }));

            let (pk, sk) = m::keypair();
            out.push(measure("sign_dyn", degree, runs, || {
                black_box(m::detached_sign(black_box(&msg), &sk));
            }));

            let sig = m::detached_sign(&msg, &sk);
            let pk_bytes = pk.as_bytes().to_vec();
            let sig_bytes = sig.as_bytes().to_vec();
            out.push(measure("verify", degree, runs, || {
                let pkd = m::PublicKey::from_bytes(black_box(&pk_bytes)).expect("pk");
                let sigd = m::DetachedSignature::from_bytes(black_box(&sig_bytes)).expect("sig");
                assert!(m::verify_detached_signature(&sigd, &msg, &pkd).is_ok());
            }));
            black_box(sk.as_bytes());
        }
    };
}

pqcrypto_degree!(pqcrypto_512, falcon512);
pqcrypto_degree!(pqcrypto_1024, falcon1024);

macro_rules! libcrux_kem_level {
    ($name:ident, $module:ident, $level:expr) => {
        fn $name(runs: usize, out: &mut Vec<Sample>) {
            use libcrux_ml_kem::$module as m;
            let mut seed = [7u8; 64];
            let mut n = 0u8;
            out.push(measure("kem_keygen", $level, runs, || {
                n = n.wrapping_add(1);
                seed[0] = n;
                black_box(m::generate_key_pair(black_box(seed)));
            }));
            let kp = m::generate_key_pair([9u8; 64]);
            let mut rnd = [5u8; 32];
            out.push(measure("kem_encaps", $level, runs, || {
                n = n.wrapping_add(1);
                rnd[0] = n;
                black_box(m::encapsulate(kp.public_key(), black_box(rnd)));
            }));
            let (ct, ss) = m::encapsulate(kp.public_key(), [3u8; 32]);
            out.push(measure("kem_decaps", $level, runs, || {
                black_box(m::decapsulate(kp.private_key(), black_box(&ct)));
            }));
            assert_eq!(m::decapsulate(kp.private_key(), &ct), ss);
        }
    };
}

libcrux_kem_level!(libcrux_512, mlkem512, 512);
libcrux_kem_level!(libcrux_768, mlkem768, 768);
libcrux_kem_level!(libcrux_1024, mlkem1024, 1024);

macro_rules! pqcrypto_kem_level {
    ($name:ident, $module:ident, $level:expr) => {
        fn $name(runs: usize, out: &mut Vec<Sample>) {
            use pqcrypto_mlkem::$module as m;
            use pqcrypto_traits::kem::SharedSecret as _;
            out.push(measure("kem_keygen", $level, runs, || {
                black_box(m::keypair());
            }));
            let (pk, sk) = m::keypair();
            out.push(measure("kem_encaps", $level, runs, || {
                black_box(m::encapsulate(black_box(&pk)));
            }));
            let (ss, ct) = m::encapsulate(&pk);
            out.push(measure("kem_decaps", $level, runs, || {
                black_box(m::decapsulate(black_box(&ct), &sk));
            }));
            assert_eq!(m::decapsulate(&ct, &sk).as_bytes(), ss.as_bytes());
        }
    };
}

pqcrypto_kem_level!(pqcrypto_kem_512, mlkem512, 512);
pqcrypto_kem_level!(pqcrypto_kem_768, mlkem768, 768);
pqcrypto_kem_level!(pqcrypto_kem_1024, mlkem1024, 1024);

fn machine_name() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_default();
    let arch = std::env::consts::ARCH;
    if model.is_empty() { arch.to_string() } else { format!("{} {}", arch, model) }
}

fn json_escape(s: &str) -> String {
    let mut o = String::new();
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o
}

fn print_json(implementation: &str, version: &str, simd: bool, r: &[Sample]) {
    let items: Vec<String> = r
        .iter()
        .map(|s| {
            format!(
                "{{\"op\":\"{}\",\"degree\":{},\"median_us\":{:.3},\"runs\":{}}}",
                s.op, s.degree, s.median_us, s.runs
            )
        })
        .collect();
    println!(
        "{{\"implementation\":\"{}\",\"version\":\"{}\",\"avx2\":{},\"threads\":1,\"machine\":\"{}\",\"results\":[{}]}}",
        implementation,
        version,
        simd,
        json_escape(&machine_name()),
        items.join(",")
    );
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
fn cpu_has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
fn cpu_has_avx2() -> bool {
    false
}

fn usage() -> ! {
    eprintln!("usage: falcon-accel-peers [--runs R] [--degree 512|1024] [--impl fn-dsa|pqcrypto-falcon|libcrux-ml-kem|pqcrypto-mlkem]");
    std::process::exit(2);
}

fn main() {
    let mut runs = 0usize;
    let mut logns: Vec<u32> = vec![9, 10];
    let mut impls: Vec<String> = vec!["fn-dsa".into(), "pqcrypto-falcon".into()];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => {
                runs = args.next().and_then(|v| v.parse().ok()).filter(|&r| r > 0).unwrap_or_else(|| usage())
            }
            "--degree" => {
                logns = match args.next().as_deref() {
                    Some("512") => vec![9],
                    Some("1024") => vec![10],
                    _ => usage(),
                }
            }
            "--impl" => impls = vec![args.next().unwrap_or_else(|| usage())],
            _ => usage(),
        }
    }
    let avx2 = cpu_has_avx2();
    for imp in &impls {
        let mut r = Vec::new();
        match imp.as_str() {
            "fn-dsa" => {
                for &logn in &logns {
                    fn_dsa_degree(logn, runs, &mut r);
                }
                print_json("fn-dsa", "0.4.0", avx2, &r);
            }
            "pqcrypto-falcon" => {
                for &logn in &logns {
                    if logn == 9 {
                        pqcrypto_512(runs, &mut r);
                    } else {
                        pqcrypto_1024(runs, &mut r);
                    }
                }
                print_json("pqcrypto-falcon", "0.4.1", avx2, &r);
            }
            "libcrux-ml-kem" => {
                libcrux_512(runs, &mut r);
                libcrux_768(runs, &mut r);
                libcrux_1024(runs, &mut r);
                print_json("libcrux-ml-kem", "0.0.11", avx2, &r);
            }
            "pqcrypto-mlkem" => {
                pqcrypto_kem_512(runs, &mut r);
                pqcrypto_kem_768(runs, &mut r);
                pqcrypto_kem_1024(runs, &mut r);
                print_json("pqcrypto-mlkem", "0.1.1", avx2, &r);
            }
            _ => usage(),
        }
    }
}
