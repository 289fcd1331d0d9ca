// fndsa-vectors: writes FN-DSA test vectors made by the fn-dsa crate
// (=0.4.0) to stdout, one record per line (format: ../README.md).
//
//   fndsa-vectors [KEYS_PER_DEGREE]      the vector file (default 10)
//   fndsa-vectors --keys LOGN COUNT      keygen seeds and keys only
//   fndsa-vectors --scan LOGN COUNT      per key "logn i digest": the first
//                                        8 bytes of SHAKE256(sk || vk)
//
// Every seed, context and message is derived from SHAKE256 over a label,
// so the output is the same on every run and every machine.

use fn_dsa::{
    compute_mu, hashed_vrfykey_from_vrfykey, sign_key_size, signature_size,
    vrfy_key_size, CryptoRng, DomainContext, HashIdentifier,
    KeyPairGenerator, KeyPairGeneratorStandard, KeyPairGeneratorWeak,
    RngCore, RngError, SigningKey, SigningKeyStandard, SigningKeyWeak,
    VerifyingKey, VerifyingKeyStandard, VerifyingKeyWeak, HASH_ID_EXTMU,
    HASH_ID_RAW, HASH_ID_SHA256, HASH_ID_SHA512, SHAKE256,
};
use sha2::{Digest, Sha256, Sha512};

// An RNG that hands out fixed bytes: the 32-byte keygen seed or the
// 40-byte signing seed that fn-dsa draws first.
struct Fixed<'a> {
    b: &'a [u8],
    off: usize,
}

impl CryptoRng for Fixed<'_> {}

impl RngCore for Fixed<'_> {
    fn next_u32(&mut self) -> u32 {
        unimplemented!()
    }
    fn next_u64(&mut self) -> u64 {
        unimplemented!()
    }
    fn fill_bytes(&mut self, d: &mut [u8]) {
        d.copy_from_slice(&self.b[self.off..self.off + d.len()]);
        self.off += d.len();
        assert!(self.off == self.b.len(), "seed not used whole");
    }
    fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), RngError> {
        self.fill_bytes(d);
        Ok(())
    }
}

fn hex(b: &[u8]) -> String {
    if b.is_empty() {
        return "-".to_string();
    }
    b.iter().map(|x| format!("{:02x}", x)).collect()
}

fn derive(label: &str, parts: &[u32], len: usize) -> Vec<u8> {
    let mut sh = SHAKE256::new();
    sh.inject(b"falcon-accel fn-dsa vectors/");
    sh.inject(label.as_bytes());
    for p in parts {
        sh.inject(&p.to_le_bytes());
    }
    sh.flip();
    let mut out = vec![0u8; len];
    sh.extract(&mut out);
    out
}

fn keygen(logn: u32, seed: &[u8], sk: &mut [u8], vk: &mut [u8]) {
    let mut rng = Fixed { b: seed, off: 0 };
    if logn >= 9 {
        KeyPairGeneratorStandard::default().keygen(logn, &mut rng, sk, vk);
    } else {
        KeyPairGeneratorWeak::default().keygen(logn, &mut rng, sk, vk);
    }
}

fn sign(logn: u32, sk: &[u8], seed: &[u8], ctx: &[u8], id: &HashIdentifier,
    hv: &[u8], sig: &mut [u8])
{
    let mut rng = Fixed { b: seed, off: 0 };
    let dom = DomainContext(ctx);
    let r = if logn >= 9 {
        SigningKeyStandard::decode(sk).unwrap()
            .sign(&mut rng, &dom, id, hv, sig)
    } else {
        SigningKeyWeak::decode(sk).unwrap()
            .sign(&mut rng, &dom, id, hv, sig)
    };
    r.expect("signing failed");
}

fn verify(logn: u32, vk: &[u8], sig: &[u8], ctx: &[u8], id: &HashIdentifier,
    hv: &[u8]) -> bool
{
    let dom = DomainContext(ctx);
    if logn >= 9 {
        VerifyingKeyStandard::decode(vk).unwrap().verify(sig, &dom, id, hv)
    } else {
        VerifyingKeyWeak::decode(vk).unwrap().verify(sig, &dom, id, hv)
    }
}

const MODES: [&str; 5] = ["pure", "ctx", "sha256", "sha512", "extmu"];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 4 && args[1] == "--keys" {
        let logn: u32 = args[2].parse().unwrap();
        let count: u32 = args[3].parse().unwrap();
        let mut sk = vec![0u8; sign_key_size(logn)];
        let mut vk = vec![0u8; vrfy_key_size(logn)];
        for i in 0..count {
            let kseed = derive("scan", &[logn, i], 32);
            keygen(logn, &kseed, &mut sk, &mut vk);
            println!("{} {} {} {}", logn, hex(&kseed), hex(&vk), hex(&sk));
        }
        return;
    }
    if args.len() == 4 && args[1] == "--scan" {
        let logn: u32 = args[2].parse().unwrap();
        let count: u32 = args[3].parse().unwrap();
        let mut sk = vec![0u8; sign_key_size(logn)];
        let mut vk = vec![0u8; vrfy_key_size(logn)];
        for i in 0..count {
            let kseed = derive("scan", &[logn, i], 32);
            keygen(logn, &kseed, &mut sk, &mut vk);
            let mut sh = SHAKE256::new();
            sh.inject(&sk);
            sh.inject(&vk);
            sh.flip();
            let mut d = [0u8; 8];
            sh.extract(&mut d);
            println!("{} {} {}", logn, i, hex(&d));
        }
        return;
    }
    let per: u32 = if args.len() > 1 { args[1].parse().unwrap() } else { 10 };

    println!("# FN-DSA vectors from the fn-dsa crate 0.4.0 (tests/fndsa/README.md)");
    println!("# logn mode kseed sseed ctx msg pk sk sig ('=': as the line above, '-': empty)");
    for logn in [9u32, 10] {
        let mut sk = vec![0u8; sign_key_size(logn)];
        let mut vk = vec![0u8; vrfy_key_size(logn)];
        let mut sig = vec![0u8; signature_size(logn)];
        for i in 0..per {
            let kseed = derive("kseed", &[logn, i], 32);
            keygen(logn, &kseed, &mut sk, &mut vk);
            let hk = hashed_vrfykey_from_vrfykey(&vk);
            for (m, mode) in MODES.iter().enumerate() {
                let m = m as u32;
                let sseed = derive("sseed", &[logn, i, m], 40);
                // Context: empty in "pure", else 1..255 bytes (255 for
                // the first key, the longest allowed).
                let ctx = if *mode == "pure" {
                    Vec::new()
                } else {
                    let l = if i == 0 { 255 } else {
                        1 + (derive("ctxlen", &[logn, i, m], 1)[0] as usize % 64)
                    };
                    derive("ctx", &[logn, i, m], l)
                };
                let mlen = if i == 1 { 0 } else {
                    derive("msglen", &[logn, i, m], 2)[0] as usize
                };
                let msg = derive("msg", &[logn, i, m], mlen);
                let (id, hv): (&HashIdentifier, Vec<u8>) = match *mode {
                    "sha256" => (&HASH_ID_SHA256, Sha256::digest(&msg).to_vec()),
                    "sha512" => (&HASH_ID_SHA512, Sha512::digest(&msg).to_vec()),
                    "extmu" => (&HASH_ID_EXTMU,
                        compute_mu(&hk, &DomainContext(&ctx), &HASH_ID_RAW, &msg)
                            .to_vec()),
                    _ => (&HASH_ID_RAW, msg.clone()),
                };
                sign(logn, &sk, &sseed, &ctx, id, &hv, &mut sig);
                assert!(verify(logn, &vk, &sig, &ctx, id, &hv));
                let first = m == 0;
                println!("{} {} {} {} {} {} {} {} {}", logn, mode,
                    if first { hex(&kseed) } else { "=".to_string() },
                    hex(&sseed), hex(&ctx), hex(&msg),
                    if first { hex(&vk) } else { "=".to_string() },
                    if first { hex(&sk) } else { "=".to_string() },
                    hex(&sig));
            }
        }
    }
}
