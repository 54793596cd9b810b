//! The mailbox owner: whose mail this is, so that mail addressed to them can be told from mail
//! to a list or to many.

use super::message::{Message, domain_group};

/// The owner's addresses, each kept as its local part without a `+tag` and its registrable
/// domain (`yyyy+blogged@spamassassin.taint.org` and `yyyy@localhost.spamassassin.taint.org`
/// are one address), from the configuration; each message adds the addresses it was delivered
/// to (`Delivered-To`, `X-Original-To`, `Envelope-To`: written by the delivering server, the
/// mailbox's own address). A delivery address on a `localhost` host (`yyyy@localhost`,
/// `yyyy@localhost.example.net`: a local delivery, by fetchmail or procmail to the local
/// account) names the owner's login, not their address: it stands for that local part at any
/// domain.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Owners {
    addresses: Vec<(String, String)>,
}

/// Header fields in which the delivering server records the mailbox's address.
const DELIVERY_HEADERS: [&str; 3] = ["delivered-to", "x-original-to", "envelope-to"];

impl Owners {
    /// Owners from configured addresses (anything without an `@` is ignored).
    pub fn new<S: AsRef<str>>(addresses: impl IntoIterator<Item = S>) -> Self {
        let mut out = Self::default();
        for address in addresses {
            out.add(address.as_ref());
        }
        out
    }

    fn add(&mut self, address: &str) {
        if let Some(key) = normalise(address)
            && !self.addresses.contains(&key)
        {
            self.addresses.push(key);
        }
    }

    /// Whether no owner address is configured.
    pub fn is_empty(&self) -> bool {
        self.addresses.is_empty()
    }

    /// These owners plus the addresses `email` was delivered to.
    pub fn of(&self, email: &Message) -> Self {
        let mut out = self.clone();
        for (name, value) in &email.headers {
            if DELIVERY_HEADERS.contains(&name.as_str())
                && !value
                    .trim_start()
                    .to_ascii_lowercase()
                    .starts_with("mailing list")
            {
                for address in addresses(value) {
                    out.add(&address);
                }
                for local in local_deliveries(value) {
                    let key = (local, ANY_DOMAIN.to_owned());
                    if !out.addresses.contains(&key) {
                        out.addresses.push(key);
                    }
                }
            }
        }
        out
    }

    /// Whether `address` is one of the owner's.
    pub fn is_owner(&self, address: &str) -> bool {
        normalise(address).is_some_and(|(local, domain)| {
            self.addresses
                .iter()
                .any(|(l, d)| *l == local && (*d == domain || d == ANY_DOMAIN))
        })
    }

    /// Whether any address of a header value (`To`, `Cc`) is the owner's.
    pub fn named_in(&self, value: &str) -> bool {
        addresses(value).any(|a| self.is_owner(&a))
    }
}

/// The domain of an owner known by login only ([`local_deliveries`]).
const ANY_DOMAIN: &str = "*";

/// The local parts of a delivery header's addresses on a `localhost` host.
fn local_deliveries(value: &str) -> impl Iterator<Item = String> + '_ {
    value
        .split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | ',' | ';' | '"'))
        .filter_map(|t| {
            let t = t.to_ascii_lowercase();
            let (local, host) = t.rsplit_once('@')?;
            let local = local.split('+').next().unwrap_or(local);
            (!local.is_empty() && (host == "localhost" || host.starts_with("localhost.")))
                .then(|| local.to_owned())
        })
}

/// `local@domain` → (local part without `+tag`, registrable domain), lower-case.
fn normalise(address: &str) -> Option<(String, String)> {
    let address = address.trim().to_ascii_lowercase();
    let (local, domain) = address.rsplit_once('@')?;
    let local = local.split('+').next().unwrap_or(local);
    if local.is_empty() || !domain.contains('.') {
        return None;
    }
    Some((local.to_owned(), domain_group(domain)))
}

/// The `local@domain` addresses of a header value.
pub fn addresses(value: &str) -> impl Iterator<Item = String> + '_ {
    value
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '<' | '>' | ',' | ';' | '"' | '(' | ')' | '\'')
        })
        .map(|t| t.trim_start_matches("mailto:").trim_matches('.'))
        .filter(|t| {
            t.split_once('@')
                .is_some_and(|(l, d)| !l.is_empty() && d.contains('.'))
        })
        .map(str::to_ascii_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_subdomains_are_the_same_owner() {
        let owners = Owners::new(["Dana+digest@Example.com"]);
        assert!(owners.is_owner("dana@mail.example.com"));
        assert!(owners.named_in("\"Dana\" <dana+x@example.com>, bob@example.com"));
        assert!(!owners.is_owner("dan@example.com"));
        assert!(!owners.named_in("team@example.com"));
    }

    #[test]
    fn a_message_adds_the_address_it_was_delivered_to_but_not_a_list() {
        let email = Message {
            headers: vec![
                (
                    "delivered-to".into(),
                    "mailing list dev@lists.example.org".into(),
                ),
                ("delivered-to".into(), "yyyy@localhost.example.net".into()),
            ],
            ..Message::default()
        };
        let owners = Owners::default().of(&email);
        assert!(owners.is_owner("yyyy+blogged@example.net"));
        assert!(!owners.is_owner("dev@lists.example.org"));
    }

    #[test]
    fn a_local_delivery_names_the_owners_login_at_any_domain() {
        let email = Message {
            headers: vec![(
                "delivered-to".into(),
                "yyyy@localhost.netnoteinc.com".into(),
            )],
            ..Message::default()
        };
        let owners = Owners::default().of(&email);
        // Fetched from the mailbox yyyy@spamassassin.taint.org to the local account.
        assert!(owners.named_in("Justin Mason <yyyy@spamassassin.taint.org>"));
        assert!(!owners.named_in("talk@lists.sourceforge.net, zzzz@example.com"));
        // A delivery to a real host keeps its domain.
        let email = Message {
            headers: vec![("delivered-to".into(), "dana@mail.example.com".into())],
            ..Message::default()
        };
        assert!(!Owners::default().of(&email).is_owner("dana@other.org"));
    }
}
