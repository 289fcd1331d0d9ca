//! fap-peer ALG PK SIG MSG: exit 0 when SIG (raw bytes) is a valid
//! signature of MSG under the raw public key PK, 1 when it is not, 2 on a
//! usage or decoding error. ALG: falcon512, falcon1024 (pqcrypto-falcon,
//! PQClean's round-3 Falcon: compressed detached signatures), fndsa512,
//! fndsa1024 (fn-dsa 0.4.0, empty context, no pre-hash).
use std::process::exit;

use fn_dsa::{VerifyingKey, VerifyingKeyStandard, DOMAIN_NONE, HASH_ID_RAW};
use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _};

fn read(p: &str) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| {
        eprintln!("fap-peer: {p}: {e}");
        exit(2)
    })
}

macro_rules! pq_verify {
    ($m:ident, $pk:expr, $sig:expr, $msg:expr) => {{
        use pqcrypto_falcon::$m as m;
        let pk = m::PublicKey::from_bytes($pk).unwrap_or_else(|_| {
            eprintln!("fap-peer: public key does not decode");
            exit(2)
        });
        match m::DetachedSignature::from_bytes($sig) {
            Ok(s) => m::verify_detached_signature(&s, $msg, &pk).is_ok(),
            Err(_) => false,
        }
    }};
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 5 {
        eprintln!("usage: fap-peer falcon512|falcon1024|fndsa512|fndsa1024 PK SIG MSG");
        exit(2);
    }
    let (pk, sig, msg) = (read(&a[2]), read(&a[3]), read(&a[4]));
    let ok = match a[1].as_str() {
        "falcon512" => pq_verify!(falcon512, &pk, &sig, &msg),
        "falcon1024" => pq_verify!(falcon1024, &pk, &sig, &msg),
        "fndsa512" | "fndsa1024" => match VerifyingKeyStandard::decode(&pk) {
            Some(vk) => vk.verify(&sig, &DOMAIN_NONE, &HASH_ID_RAW, &msg),
            None => {
                eprintln!("fap-peer: fn-dsa public key does not decode");
                exit(2)
            }
        },
        other => {
            eprintln!("fap-peer: unknown algorithm {other}");
            exit(2)
        }
    };
    if ok {
        println!("peer: valid");
        exit(0)
    }
    println!("peer: INVALID");
    exit(1)
}
