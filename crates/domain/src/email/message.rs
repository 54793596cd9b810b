//! [`Message`]: one message as the categoriser reads it.

/// One message, decoded and cleaned by the service that read it: who sent it, its subject,
/// its text and the header fields that carry evidence.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Message {
    /// Message-ID without angle brackets, or a stable hash when absent.
    pub id: String,
    /// The sender's address, lower-case (`unknown@invalid` when the message has none).
    pub from: String,
    /// The sender's display name, if any.
    pub from_name: Option<String>,
    /// The decoded subject, whitespace collapsed.
    pub subject: String,
    /// Clean body text (no markup, attachments skipped, quoted replies and signatures left
    /// out), at most a few thousand characters.
    pub body: String,
    /// Header fields that carry evidence (lower-case name, raw value), in message order.
    pub headers: Vec<(String, String)>,
}

impl Message {
    /// The raw value of the first header field called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether any header's name starts with `prefix` (lower-case), e.g. `x-mailgun-`.
    pub fn has_header_prefix(&self, prefix: &str) -> bool {
        self.headers.iter().any(|(n, _)| n.starts_with(prefix))
    }

    /// The sender's domain (lower-case), empty when unknown.
    pub fn from_domain(&self) -> &str {
        self.from.rsplit_once('@').map_or("", |(_, d)| d)
    }

    /// The sender's group: the registrable domain of its address ([`domain_group`]). Senders
    /// are held out by group when the model is measured, and corrections teach per group.
    pub fn sender_group(&self) -> String {
        domain_group(self.from_domain())
    }

    /// The name to show for the sender: display name, else the address.
    pub fn sender_label(&self) -> &str {
        self.from_name
            .as_deref()
            .filter(|n| !n.is_empty())
            .unwrap_or(&self.from)
    }
}

/// The registrable domain of a sender's domain: the last two labels, three under
/// `co.uk`-style suffixes (`lists.debian.org` and `debian.org` are one sender, so are all
/// `*.service-now.com` tenants).
pub fn domain_group(domain: &str) -> String {
    let labels: Vec<&str> = domain.split('.').collect();
    let n = labels.len();
    let keep = if n >= 3
        && labels[n - 1].len() == 2
        && ["co", "com", "org", "net", "ac", "gov", "or", "ne"].contains(&labels[n - 2])
    {
        3
    } else {
        2
    };
    labels[n.saturating_sub(keep)..].join(".")
}
