//! Who reads the page: the header names the logged-in user beside a log-out button (or
//! offers a log-in), and the log-in form itself. The viewer is set once per request by
//! `auth::identify`, so that every page's frame shows it without each handler passing
//! it down.

use cairn_store::Role;
use maud::{Markup, html};

use super::layout;

/// The user a page is drawn for.
#[derive(Debug, Clone, Default)]
pub(crate) struct Viewer {
    /// Their name and role; `None` for someone not logged in.
    pub user: Option<(String, Role)>,
    /// The CSRF token of their session, which every form they post carries.
    pub csrf: Option<String>,
    /// Whether this server has accounts to log in to.
    pub logins: bool,
}

tokio::task_local! {
    /// The viewer of the request being answered.
    pub(crate) static VIEWER: Viewer;
}

impl Viewer {
    /// The viewer of the request being answered (nobody outside one).
    pub(crate) fn current() -> Viewer {
        VIEWER.try_with(Clone::clone).unwrap_or_default()
    }

    /// Whether they may correct captions from the page (a session with its token).
    pub(crate) fn may_edit(&self) -> bool {
        self.csrf.is_some() && self.user.as_ref().is_some_and(|(_, r)| *r >= Role::Editor)
    }
}

/// The header's account corner: the user's name and a log-out button, or a log-in link.
pub(crate) fn account(v: &Viewer) -> Markup {
    html! {
        @if let Some((name, role)) = &v.user {
            div.account {
                a href="/review" { "Needs review" }
                span.user title=(format!("logged in as a {}", role.as_str())) { (name) }
                @if let Some(csrf) = &v.csrf {
                    form.logout method="post" action="/logout" {
                        input type="hidden" name="csrf" value=(csrf);
                        button type="submit" { "Log out" }
                    }
                }
            }
        } @else if v.logins {
            div.account { a href="/login" { "Log in" } }
        }
    }
}

/// The log-in form, with why the last attempt failed.
pub(crate) fn login_page(error: Option<&str>, name: &str) -> Markup {
    layout(
        "Log in",
        None,
        html! {
            main.login-page {
                h1 { "Log in" }
                @if let Some(e) = error { p.error role="alert" { (e) } }
                form.login method="post" action="/login" {
                    p {
                        label for="login-name" { "Name" }
                        input #login-name type="text" name="name" value=(name) autocomplete="username" required autofocus;
                    }
                    p {
                        label for="login-password" { "Password" }
                        input #login-password type="password" name="password" autocomplete="current-password" required;
                    }
                    button type="submit" { "Log in" }
                }
            }
        },
    )
}
