//! `cairn users` and `cairn tokens`: the archive's accounts and their API tokens. A
//! password is read from standard input when it is not a terminal (one line), else
//! asked for twice without echo.

use std::io::{BufRead, IsTerminal};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use cairn_ingest::escaped;
use cairn_store::{Accounts, Role, TokenKind};

use crate::out::outln;

/// A role as typed.
#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum RoleArg {
    /// Searches and reads.
    Reader,
    /// Also corrects, verifies and annotates records.
    Editor,
    /// Also manages users and ingests.
    Admin,
}

impl From<RoleArg> for Role {
    fn from(r: RoleArg) -> Role {
        match r {
            RoleArg::Reader => Role::Reader,
            RoleArg::Editor => Role::Editor,
            RoleArg::Admin => Role::Admin,
        }
    }
}

/// What `cairn users` does.
#[derive(clap::Subcommand, Debug)]
pub enum UsersAction {
    /// Add a user (the password from standard input when it is not a terminal).
    Add {
        /// Login name: letters, digits and . _ - @.
        name: String,
        /// What the user may do.
        #[arg(long, value_enum)]
        role: RoleArg,
    },
    /// Set a user's password (ending their sessions).
    Passwd {
        /// Login name.
        name: String,
    },
    /// Remove a user and their tokens (their revisions stay in the history).
    Remove {
        /// Login name.
        name: String,
    },
    /// List the users.
    List {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
}

/// What `cairn tokens` does.
#[derive(clap::Subcommand, Debug)]
pub enum TokensAction {
    /// Make an API token for a user; printed once, alone on the last line.
    Create {
        /// Whose token it is.
        #[arg(long)]
        user: String,
    },
    /// List the live API tokens (their ids and users, never their secrets).
    List,
    /// Revoke a token by its id.
    Revoke {
        /// The token's id, as `tokens list` shows it.
        id: i64,
    },
}

/// Reads a password: one line of standard input when it is not a terminal, else asked
/// for twice on the terminal without echo.
fn read_password(name: &str) -> Result<String> {
    if !std::io::stdin().is_terminal() {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("reading the password from standard input")?;
        let pw = line.trim_end_matches(['\n', '\r']).to_string();
        if pw.is_empty() {
            bail!("no password on standard input (one line is read)");
        }
        return Ok(pw);
    }
    let term = console::Term::stderr();
    term.write_str(&format!("password for {}: ", escaped(name)))?;
    let first = term.read_secure_line()?;
    term.write_str("again: ")?;
    if term.read_secure_line()? != first {
        bail!("the two passwords differ");
    }
    Ok(first)
}

/// Runs `cairn users` on the archive in `data`.
pub fn run_users(data: &Path, action: UsersAction) -> Result<ExitCode> {
    let acc = Accounts::open(data)?;
    match action {
        UsersAction::Add { name, role } => {
            let pw = read_password(&name)?;
            acc.add_user(&name, role.into(), &pw)?;
            eprintln!("added {} ({})", escaped(&name), Role::from(role).as_str());
        }
        UsersAction::Passwd { name } => {
            let pw = read_password(&name)?;
            acc.set_password(&name, &pw)?;
            eprintln!("password of {} set; their sessions ended", escaped(&name));
        }
        UsersAction::Remove { name } => {
            acc.remove_user(&name)?;
            eprintln!("removed {}", escaped(&name));
        }
        UsersAction::List { json } => {
            let users = acc.users()?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&users)?);
            } else {
                for u in users {
                    outln!(
                        "{}\t{}\t{}",
                        escaped(&u.name),
                        u.role.as_str(),
                        u.created_at
                    );
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `cairn tokens` on the archive in `data`.
pub fn run_tokens(data: &Path, action: TokensAction) -> Result<ExitCode> {
    let acc = Accounts::open(data)?;
    match action {
        TokensAction::Create { user } => {
            let (id, secret) = acc.create_token(&user, TokenKind::Api, None)?;
            outln!(
                "token {id} for {}; it is shown once, keep it now (revoke: cairn tokens revoke {id}):",
                escaped(&user)
            );
            outln!("{secret}");
        }
        TokensAction::List => {
            for (id, user, at) in acc.tokens()? {
                outln!("{id}\t{}\t{at}", escaped(&user));
            }
        }
        TokensAction::Revoke { id } => {
            if !acc.revoke_token(id)? {
                bail!("there is no live token {id}");
            }
            eprintln!("revoked token {id}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
