//! Which addresses an unsubscribe may reach: public unicast ones only, unless the operator's
//! allowlist (`DIGEST_UNSUBSCRIBE_ALLOW`, networks in CIDR form) opens more (the tests open
//! loopback). A sender controls the URI, so without this a message could make the dashboard
//! POST to the cloud metadata service, the router or a service on the host.
//!
//! Refused: unspecified, loopback, private (RFC 1918), shared (100.64/10), link-local,
//! multicast, broadcast and reserved IPv4 ranges, documentation and benchmarking ranges; IPv6
//! unspecified, loopback, unique-local, link-local, site-local, multicast, documentation,
//! discard; IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible
//! `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that address, and Teredo
//! and local NAT64 are refused.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;

/// Networks opened on top of the public internet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowlist(Vec<IpNet>);

impl Allowlist {
    /// Parses a comma-separated list of networks (`127.0.0.0/8, ::1/128`) or single
    /// addresses.
    pub fn parse(text: &str) -> Result<Self, String> {
        text.split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| {
                p.parse::<IpNet>()
                    .or_else(|_| p.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("'{p}' is not a network (CIDR) or an IP address"))
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }

    /// Whether `ip` (or the IPv4 address it carries) is in an opened network.
    pub fn allows(&self, ip: IpAddr) -> bool {
        let inner = embedded_v4(ip).map(IpAddr::V4);
        self.0
            .iter()
            .any(|net| net.contains(&ip) || inner.is_some_and(|v4| net.contains(&v4)))
    }
}

/// Why `ip` may not be contacted, or `None` when it may.
pub fn refusal(ip: IpAddr, allow: &Allowlist) -> Option<String> {
    if allow.allows(ip) {
        return None;
    }
    non_public(ip).map(|kind| format!("{kind} address {ip} (not contacted)"))
}

/// The kind of a non-public address, or `None` for a public one.
pub fn non_public(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => non_public_v4(v4),
        IpAddr::V6(v6) => non_public_v6(v6),
    }
}

fn non_public_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        (0, _, _) => "an unspecified",
        (127, _, _) => "a loopback",
        (10, _, _) | (172, 16..=31, _) | (192, 168, _) => "a private",
        (100, 64..=127, _) => "a shared (carrier NAT)",
        (169, 254, _) => "a link-local",
        (192, 0, 0) => "a protocol-assignment",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "a documentation",
        (198, 18..=19, _) => "a benchmarking",
        (224..=239, _, _) => "a multicast",
        (240..=255, _, _) => "a reserved or broadcast",
        _ => return None,
    })
}

/// The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4).
fn embedded_v4(ip: IpAddr) -> Option<Ipv4Addr> {
    let IpAddr::V6(v6) = ip else { return None };
    let s = v6.segments();
    let last =
        |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    match s {
        [0, 0, 0, 0, 0, 0xffff, hi, lo] => Some(last(hi, lo)),
        [0, 0, 0, 0, 0, 0, hi, lo] if (hi, lo) > (0, 1) => Some(last(hi, lo)),
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => Some(last(hi, lo)),
        [0x2002, hi, lo, ..] => Some(last(hi, lo)),
        _ => None,
    }
}

fn non_public_v6(ip: Ipv6Addr) -> Option<&'static str> {
    if let Some(v4) = embedded_v4(IpAddr::V6(ip)) {
        return non_public_v4(v4);
    }
    let s = ip.segments();
    Some(match s {
        _ if ip.is_unspecified() => "an unspecified",
        _ if ip.is_loopback() => "a loopback",
        [0, 0, 0, 0, 0, 0, _, _] => "an unspecified",
        [first, ..] if first & 0xff00 == 0xff00 => "a multicast",
        [first, ..] if first & 0xfe00 == 0xfc00 => "a unique-local (private)",
        [first, ..] if first & 0xffc0 == 0xfe80 => "a link-local",
        [first, ..] if first & 0xffc0 == 0xfec0 => "a site-local",
        [0x2001, 0x0db8, ..] => "a documentation",
        [0x2001, 0, ..] => "a Teredo",
        [0x64, 0xff9b, 1, ..] => "a local NAT64",
        [0x100, 0, 0, 0, ..] => "a discard",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Option<&'static str> {
        non_public(text.parse().unwrap())
    }

    #[test]
    fn public_addresses_pass() {
        for ip in [
            "93.184.215.14",
            "8.8.8.8",
            "2606:4700::1111",
            "2a00:1450:4001::200e",
        ] {
            assert_eq!(kind(ip), None, "{ip}");
        }
    }

    #[test]
    fn every_non_public_range_is_refused_in_v4_and_v6() {
        for ip in [
            "0.0.0.0",
            "127.0.0.1",
            "127.255.1.2",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "100.64.0.1",
            "169.254.169.254",
            "192.0.0.8",
            "192.0.2.1",
            "198.18.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::a00:1",
            "2002:7f00:1::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "2001::1",
            "64:ff9b:1::1",
            "100::1",
        ] {
            assert!(kind(ip).is_some(), "{ip} passed");
        }
        assert_eq!(kind("172.32.0.1"), None);
        assert_eq!(kind("::ffff:8.8.8.8"), None);
    }

    #[test]
    fn the_allowlist_opens_only_its_networks() {
        let allow = Allowlist::parse("127.0.0.0/8, ::1").unwrap();
        assert_eq!(refusal("127.0.0.1".parse().unwrap(), &allow), None);
        assert_eq!(refusal("::1".parse().unwrap(), &allow), None);
        assert_eq!(refusal("::ffff:127.0.0.1".parse().unwrap(), &allow), None);
        let why = refusal("10.0.0.1".parse().unwrap(), &allow).unwrap();
        assert!(why.contains("a private address 10.0.0.1"), "{why}");
        assert!(Allowlist::parse("localhost").is_err());
        assert_eq!(Allowlist::parse("").unwrap(), Allowlist::default());
    }
}
