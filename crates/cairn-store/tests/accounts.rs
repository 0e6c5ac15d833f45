//! Accounts and tokens: a password is kept only as its Argon2 hash, a token only as the
//! hash of its secret, and neither secret is anywhere in the archive's files.

use cairn_store::{Accounts, Role, TokenKind};

/// Every byte of the archive's database files, to look for a secret in.
fn database_bytes(dir: &std::path::Path) -> Vec<u8> {
    let mut all = Vec::new();
    for name in ["archive.sqlite", "archive.sqlite-wal"] {
        if let Ok(b) = std::fs::read(dir.join(name)) {
            all.extend(b);
        }
    }
    all
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn passwords_and_tokens_are_never_stored_in_clear() {
    let dir = tempfile::tempdir().unwrap();
    let acc = Accounts::open(dir.path()).unwrap();
    let password = "lantern-orchard-91";
    acc.add_user("ana", Role::Editor, password).unwrap();
    let (_, token) = acc.create_token("ana", TokenKind::Api, None).unwrap();
    let bytes = database_bytes(dir.path());
    assert!(
        !contains(&bytes, password),
        "the password is in the database"
    );
    assert!(!contains(&bytes, &token), "the token is in the database");
    assert!(
        contains(&bytes, "$argon2id$"),
        "the password's hash is kept"
    );
    assert!(contains(&bytes, &cairn_store::token_hash(&token)));
}

#[test]
fn a_login_needs_the_right_password_and_a_token_ends_when_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let acc = Accounts::open(dir.path()).unwrap();
    acc.add_user("ana", Role::Editor, "first password").unwrap();
    assert_eq!(
        acc.login("ana", "first password").unwrap(),
        Some(Role::Editor)
    );
    assert_eq!(acc.login("ana", "First password").unwrap(), None);
    assert_eq!(acc.login("nobody", "first password").unwrap(), None);
    assert!(acc.add_user("ana", Role::Reader, "another one").is_err());
    assert!(acc.add_user("bo", Role::Reader, "short").is_err());
    assert!(
        acc.add_user("no spaces", Role::Reader, "long enough")
            .is_err()
    );

    let (id, token) = acc.create_token("ana", TokenKind::Api, None).unwrap();
    let (_, session) = acc.create_token("ana", TokenKind::Session, None).unwrap();
    let owner = acc.token_owner(&token).unwrap().unwrap();
    assert_eq!((owner.user.as_str(), owner.role), ("ana", Role::Editor));
    assert!(acc.token_owner("cairn_guessed").unwrap().is_none());
    assert!(acc.revoke_token(id).unwrap());
    assert!(acc.token_owner(&token).unwrap().is_none());

    // A new password ends the sessions; the old password no longer logs in.
    assert!(acc.token_owner(&session).unwrap().is_some());
    acc.set_password("ana", "second password").unwrap();
    assert!(acc.token_owner(&session).unwrap().is_none());
    assert_eq!(acc.login("ana", "first password").unwrap(), None);

    // An expired token is refused; a removed user's tokens go with them.
    let (_, old) = acc
        .create_token("ana", TokenKind::Session, Some("2000-01-01T00:00:00Z"))
        .unwrap();
    assert!(acc.token_owner(&old).unwrap().is_none());
    let (_, live) = acc.create_token("ana", TokenKind::Api, None).unwrap();
    acc.remove_user("ana").unwrap();
    assert!(acc.token_owner(&live).unwrap().is_none());
    assert!(acc.users().unwrap().is_empty());
}
