//! The secrets of accounts as they are kept: a password only as its Argon2 hash, a
//! token only as the SHA-256 of its random secret. A token's secret has 256 random
//! bits, so a fast hash is enough to keep it; a password may be guessable, so it gets
//! a slow, salted one.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use sha2::{Digest, Sha256};

use crate::{Error, Result};

/// The shortest password accepted, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// The longest password accepted, in bytes (Argon2 takes any length; this bounds the
/// work one login may ask for).
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// Random bytes from the operating system.
fn random<const N: usize>() -> Result<[u8; N]> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf)
        .map_err(|e| Error::Invalid(format!("the system gave no random bytes: {e}")))?;
    Ok(buf)
}

/// Checks a new password's length.
pub(crate) fn check_password(password: &str) -> Result<()> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(Error::Invalid(format!(
            "the password is shorter than {MIN_PASSWORD_CHARS} characters"
        )));
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(Error::Invalid(format!(
            "the password is longer than {MAX_PASSWORD_BYTES} bytes"
        )));
    }
    Ok(())
}

/// The Argon2id hash of a password with a new random salt, as a PHC string
/// (`$argon2id$v=19$...`), which carries its own parameters and salt.
pub(crate) fn hash_password(password: &str) -> Result<String> {
    let salt = SaltString::encode_b64(&random::<16>()?)
        .map_err(|e| Error::Invalid(format!("salt: {e}")))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::Invalid(format!("hashing the password: {e}")))
}

/// Whether `password` is the one hashed as `phc`; false for a hash that does not parse.
pub(crate) fn verify_password(password: &str, phc: &str) -> bool {
    if password.len() > MAX_PASSWORD_BYTES {
        return false;
    }
    PasswordHash::new(phc).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A hash to verify against when the user is unknown, so that a login for a name that
/// does not exist takes as long as one with a wrong password.
pub(crate) fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("decoy password, never anyone's").unwrap_or_default())
}

/// A new token's secret: 32 random bytes in hex, after a prefix that tells it from
/// other secrets in a configuration file.
pub(crate) fn new_token() -> Result<String> {
    Ok(format!("cairn_{}", hex::encode(random::<32>()?)))
}

/// The form a token is kept and looked up in.
pub fn token_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_kept_as_a_salted_argon2_hash_that_verifies_only_it() {
        let a = hash_password("correct horse").unwrap();
        let b = hash_password("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert!(!a.contains("correct horse"));
        assert_ne!(a, b, "each hash has its own salt");
        assert!(verify_password("correct horse", &a));
        assert!(verify_password("correct horse", &b));
        assert!(!verify_password("correct horsE", &a));
        assert!(!verify_password("correct horse", "not a hash"));
    }

    #[test]
    fn passwords_too_short_or_too_long_are_refused() {
        assert!(check_password("short").is_err());
        assert!(check_password(&"x".repeat(MAX_PASSWORD_BYTES + 1)).is_err());
        assert!(check_password("eight ch").is_ok());
    }

    #[test]
    fn tokens_are_random_and_kept_by_their_hash() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_ne!(a, b);
        assert_eq!(a.len(), "cairn_".len() + 64);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }
}
