//! The archive's users and their tokens. A password is kept only as its Argon2 hash
//! and a token only as the hash of its secret (`secret`): neither is ever stored. Accounts are
//! written through a connection of their own, without the writer lock, so that a
//! login or a new user does not wait for an ingest (SQLite orders the writes).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::secret::{self, check_password, hash_password, token_hash, verify_password};
use crate::{Archive, Error, Result, db, db_err, poison};

/// What a user may do; each role may do what the ones before it may.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Searches and reads.
    Reader,
    /// Corrects, verifies and annotates records.
    Editor,
    /// Manages users and ingests.
    Admin,
}

impl Role {
    /// The name stored and typed.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Reader => "reader",
            Role::Editor => "editor",
            Role::Admin => "admin",
        }
    }

    /// A role by its name.
    pub fn parse(s: &str) -> Option<Role> {
        Some(match s {
            "reader" => Role::Reader,
            "editor" => Role::Editor,
            "admin" => Role::Admin,
            _ => return None,
        })
    }
}

/// A user as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Account {
    /// The login name.
    pub name: String,
    /// What the user may do.
    pub role: Role,
    /// When the account was made (RFC 3339).
    pub created_at: String,
}

/// What a token is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    /// Made with `cairn tokens create`, for the API; lasts until revoked.
    Api,
    /// Made by a login; lasts until it expires or its user logs out.
    Session,
}

impl TokenKind {
    fn as_str(self) -> &'static str {
        match self {
            TokenKind::Api => "api",
            TokenKind::Session => "session",
        }
    }
}

/// Whose a live token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenOwner {
    /// The token's row.
    pub token_id: i64,
    /// Its user.
    pub user: String,
    /// The user's role now.
    pub role: Role,
    /// What it is for.
    pub kind: TokenKind,
}

/// The users and tokens of one archive.
#[derive(Debug)]
pub struct Accounts {
    path: PathBuf,
    conn: Mutex<Connection>,
}

/// The longest user name, in bytes.
const MAX_NAME: usize = 64;

fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "._-@".contains(c));
    if ok {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "{name:?} is not a user name: 1 to {MAX_NAME} bytes of letters, digits and . _ - @"
        )))
    }
}

impl Accounts {
    /// The accounts of the archive in `dir`, creating the archive when there is none
    /// (a team may make its users before its first ingest).
    pub fn open(dir: &Path) -> Result<Self> {
        let path = Archive::db_path(dir);
        if !path.exists() || db::open_read(&path).is_err() {
            // Creates or migrates it, under the writer lock.
            drop(Archive::open_writer_waiting(
                dir,
                std::time::Duration::from_secs(30),
            )?);
        }
        Self::open_existing(dir)
    }

    /// The accounts of the archive in `dir`, which must exist at this cairn's schema
    /// (as an archive opened for reading does).
    pub fn open_existing(dir: &Path) -> Result<Self> {
        let path = Archive::db_path(dir);
        drop(db::open_read(&path)?);
        let err = db_err(&path);
        let flags =
            rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&path, flags).map_err(err)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(err)?;
        Ok(Accounts {
            path,
            conn: Mutex::new(conn),
        })
    }

    fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T> {
        f(&poison::lock(&self.conn)).map_err(db_err(&self.path))
    }

    /// Adds a user with `password` (kept as its Argon2 hash); refused when the name is
    /// taken or the password too short.
    pub fn add_user(&self, name: &str, role: Role, password: &str) -> Result<()> {
        check_name(name)?;
        check_password(password)?;
        let hash = hash_password(password)?;
        let now = jiff::Timestamp::now().to_string();
        let added = self.with(|c| {
            c.execute(
                "INSERT OR IGNORE INTO account (name, role, password_hash, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![name, role.as_str(), hash, now],
            )
        })?;
        if added == 0 {
            return Err(Error::Invalid(format!("there is a user {name:?} already")));
        }
        Ok(())
    }

    /// Replaces a user's password, and ends every session of theirs (a password is
    /// changed when someone else may know the old one); refused for an unknown user.
    pub fn set_password(&self, name: &str, password: &str) -> Result<()> {
        check_password(password)?;
        let hash = hash_password(password)?;
        let n = self.with(|c| {
            c.execute(
                "DELETE FROM token WHERE user = ?1 AND kind = 'session'",
                [name],
            )?;
            c.execute(
                "UPDATE account SET password_hash = ?2 WHERE name = ?1",
                params![name, hash],
            )
        })?;
        if n == 0 {
            return Err(Error::Invalid(format!("there is no user {name:?}")));
        }
        Ok(())
    }

    /// The role of `name` when `password` is theirs; `None` for a wrong password or an
    /// unknown user (which takes as long to tell).
    pub fn login(&self, name: &str, password: &str) -> Result<Option<Role>> {
        match self.password_hash(name)? {
            Some((hash, role)) => Ok(verify_password(password, &hash).then_some(role)),
            None => {
                verify_password(password, secret::decoy_hash());
                Ok(None)
            }
        }
    }

    /// Removes a user and every token of theirs (their revisions stay, by name).
    pub fn remove_user(&self, name: &str) -> Result<()> {
        let n = self.with(|c| {
            c.execute("DELETE FROM token WHERE user = ?1", [name])?;
            c.execute("DELETE FROM account WHERE name = ?1", [name])
        })?;
        if n == 0 {
            return Err(Error::Invalid(format!("there is no user {name:?}")));
        }
        Ok(())
    }

    /// Every user, by name.
    pub fn users(&self) -> Result<Vec<Account>> {
        self.with(|c| {
            let mut stmt = c.prepare("SELECT name, role, created_at FROM account ORDER BY name")?;
            stmt.query_map([], |r| {
                Ok(Account {
                    name: r.get(0)?,
                    role: Role::parse(&r.get::<_, String>(1)?).unwrap_or(Role::Reader),
                    created_at: r.get(2)?,
                })
            })?
            .collect()
        })
    }

    /// A user's role; `None` for an unknown user.
    pub fn role(&self, name: &str) -> Result<Option<Role>> {
        Ok(self.password_hash(name)?.map(|(_, role)| role))
    }

    /// A user's password hash and role.
    fn password_hash(&self, name: &str) -> Result<Option<(String, Role)>> {
        self.with(|c| {
            c.query_row(
                "SELECT password_hash, role FROM account WHERE name = ?1",
                [name],
                |r| {
                    let role: String = r.get(1)?;
                    Ok((r.get(0)?, Role::parse(&role).unwrap_or(Role::Reader)))
                },
            )
            .optional()
        })
    }

    /// Makes a token of `user`, kept by the hash of its secret; its id and the secret,
    /// which is shown once and never stored. `expires_at` (RFC 3339) ends it.
    pub fn create_token(
        &self,
        user: &str,
        kind: TokenKind,
        expires_at: Option<&str>,
    ) -> Result<(i64, String)> {
        if self.password_hash(user)?.is_none() {
            return Err(Error::Invalid(format!("there is no user {user:?}")));
        }
        let secret = secret::new_token()?;
        let hash = token_hash(&secret);
        let now = jiff::Timestamp::now().to_string();
        let id = self.with(|c| {
            c.execute(
                "INSERT INTO token (user, hash, kind, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![user, hash, kind.as_str(), now, expires_at],
            )?;
            Ok(c.last_insert_rowid())
        })?;
        Ok((id, secret))
    }

    /// Revokes a token by its id; whether there was a live one.
    pub fn revoke_token(&self, id: i64) -> Result<bool> {
        let now = jiff::Timestamp::now().to_string();
        self.with(|c| {
            c.execute(
                "UPDATE token SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
                params![id, now],
            )
        })
        .map(|n| n > 0)
    }

    /// Revokes the token whose secret is `secret` (a logout); whether it was live.
    pub fn revoke_secret(&self, secret: &str) -> Result<bool> {
        let now = jiff::Timestamp::now().to_string();
        let hash = token_hash(secret);
        self.with(|c| {
            c.execute(
                "UPDATE token SET revoked_at = ?2 WHERE hash = ?1 AND revoked_at IS NULL",
                params![hash, now],
            )
        })
        .map(|n| n > 0)
    }

    /// The owner of the live token whose secret is `secret`: not revoked, not expired,
    /// of a user that still exists.
    pub fn token_owner(&self, secret: &str) -> Result<Option<TokenOwner>> {
        let hash = token_hash(secret);
        let now = jiff::Timestamp::now().to_string();
        self.with(|c| {
            c.prepare_cached(
                "SELECT t.id, t.user, a.role, t.kind FROM token t JOIN account a ON a.name = t.user
                 WHERE t.hash = ?1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ?2)",
            )?
            .query_row(params![hash, now], |r| {
                let role: String = r.get(2)?;
                let kind: String = r.get(3)?;
                Ok(TokenOwner {
                    token_id: r.get(0)?,
                    user: r.get(1)?,
                    role: Role::parse(&role).unwrap_or(Role::Reader),
                    kind: if kind == "session" {
                        TokenKind::Session
                    } else {
                        TokenKind::Api
                    },
                })
            })
            .optional()
        })
    }

    /// Live API tokens: id, user, when made.
    pub fn tokens(&self) -> Result<Vec<(i64, String, String)>> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id, user, created_at FROM token WHERE kind = 'api' AND revoked_at IS NULL ORDER BY id",
            )?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        })
    }
}
