//! Header fields written as raw 8-bit bytes in the message's own charset instead of RFC 2047
//! encoded-words, as much East Asian mail of the 2000s was (a Subject in EUC-KR, GB2312, Big5,
//! Shift_JIS, or ISO-2022-JP's escape sequences). mail-parser reads such bytes as UTF-8 with
//! replacement characters; here they are decoded with the charset the message declares.
//!
//! The charset tables are `encoding_rs`'s (the WHATWG Encoding Standard, the decoder Firefox
//! uses, already under mail-parser's `full_encoding`): its strict decoder says when a guess is
//! wrong, so a charset that does not fit the bytes is never used. Labels the Encoding
//! Standard does not list but mailers wrote are mapped by [`ALIASES`] first. A message that
//! declares no charset at all gets the practice of RFC 6532 readers and of the Encoding
//! Standard's default for legacy Western content: UTF-8 when the bytes are UTF-8, else
//! windows-1252 (which ISO-8859-1 is read as).

use encoding_rs::{Encoding, ISO_2022_JP, UTF_8, WINDOWS_1252};
use mail_parser::parsers::MessageStream;
use mail_parser::{HeaderName, HeaderValue, Message as MimeMessage, MimeHeaders};

/// The charsets `message` declares, in the order to try on its raw header bytes: the top-level
/// Content-Type, then the text parts', then any other part's; each once, labels
/// `encoding_rs` does not know left out.
pub fn declared_charsets(message: &MimeMessage<'_>) -> Vec<&'static Encoding> {
    let charset = |part: &mail_parser::MessagePart<'_>| {
        part.content_type()
            .and_then(|ct| ct.attribute("charset"))
            .and_then(|label| encoding_for_label(label))
    };
    let is_text = |part: &&mail_parser::MessagePart<'_>| {
        part.content_type()
            .is_none_or(|ct| ct.ctype().eq_ignore_ascii_case("text"))
    };
    let top = message.parts.first().and_then(charset);
    let text = message.parts.iter().filter(is_text).filter_map(charset);
    let any = message.parts.iter().filter_map(charset);
    let mut out: Vec<&'static Encoding> = Vec::new();
    for encoding in top.into_iter().chain(text).chain(any) {
        if !out.contains(&encoding) {
            out.push(encoding);
        }
    }
    out
}

/// Charset labels mailers wrote that the Encoding Standard does not list, with the label it
/// lists for the same code page. Sources: Microsoft's code page identifiers (the Windows names
/// `cp…`/`ms…` of code pages 932, 936, 949 and 950) and the IANA Character Sets registry
/// (`CP936`, `MS936` and `windows-936` are GBK's registered aliases); `chinesebig5` is the
/// name Chinese Windows mailers (Outlook Express, Foxmail) wrote for code page 950, Big5.
const ALIASES: &[(&str, &str)] = &[
    ("chinesebig5", "big5"),
    ("big5hkscs", "big5-hkscs"),
    ("cp950", "big5"),
    ("ms950", "big5"),
    ("windows-950", "big5"),
    ("cp936", "gbk"),
    ("ms936", "gbk"),
    ("windows-936", "gbk"),
    ("cp949", "euc-kr"),
    ("ms949", "euc-kr"),
    ("cp932", "shift_jis"),
];

/// The encoding of a charset label: the Encoding Standard's labels (case and surrounding
/// space ignored), then [`ALIASES`].
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    let label = label.trim();
    Encoding::for_label(label.as_bytes()).or_else(|| {
        ALIASES
            .iter()
            .find(|(alias, _)| alias.eq_ignore_ascii_case(label))
            .and_then(|(_, known)| Encoding::for_label(known.as_bytes()))
    })
}

/// `raw` (a header value as written) as text, when mail-parser cannot read it: bytes that are
/// not UTF-8, decoded with the first of `charsets` that fits them without error, or 7-bit
/// ISO-2022-JP (its escape sequences name it); with no charset declared at all, as
/// windows-1252 (raw Latin-1 of the 2000s). `None` when the bytes are UTF-8 (RFC 2047 words
/// included: mail-parser decodes those) or no declared charset fits; the caller keeps
/// mail-parser's reading then.
pub fn decode_raw(raw: &[u8], charsets: &[&'static Encoding]) -> Option<String> {
    if is_iso_2022_jp(raw) {
        return strict(ISO_2022_JP, raw);
    }
    if std::str::from_utf8(raw).is_ok() {
        return None;
    }
    if charsets.is_empty() {
        return strict(WINDOWS_1252, raw);
    }
    charsets
        .iter()
        .filter(|e| **e != UTF_8)
        .find_map(|encoding| strict(encoding, raw))
}

fn strict(encoding: &'static Encoding, raw: &[u8]) -> Option<String> {
    encoding
        .decode_without_bom_handling_and_without_replacement(raw)
        .map(|text| text.into_owned())
}

/// An ISO-2022-JP escape into JIS X 0208 (`ESC $ @`, `ESC $ B`) or JIS X 0201 (`ESC ( J`).
fn is_iso_2022_jp(raw: &[u8]) -> bool {
    raw.windows(3)
        .any(|w| matches!(w, [0x1b, b'$', b'@' | b'B'] | [0x1b, b'(', b'J']))
}

/// The raw bytes of `message`'s first `name` header field (top level).
fn raw_field<'a>(message: &'a MimeMessage<'_>, name: &HeaderName<'_>) -> Option<&'a [u8]> {
    let header = message.headers().iter().find(|h| &h.name == name)?;
    message
        .raw_message
        .get(header.offset_start() as usize..header.offset_end() as usize)
}

/// The Subject, read in the message's charset when written as raw bytes (RFC 2047 words
/// among them still decoded); `None` when mail-parser's reading stands.
pub fn subject(message: &MimeMessage<'_>, charsets: &[&'static Encoding]) -> Option<String> {
    let text = decode_raw(raw_field(message, &HeaderName::Subject)?, charsets)?;
    match MessageStream::new(text.as_bytes()).parse_unstructured() {
        HeaderValue::Text(t) => Some(t.into_owned()),
        _ => Some(text),
    }
}

/// The From display name, read in the message's charset when written as raw bytes; `None`
/// when mail-parser's reading stands.
pub fn from_name(message: &MimeMessage<'_>, charsets: &[&'static Encoding]) -> Option<String> {
    let text = decode_raw(raw_field(message, &HeaderName::From)?, charsets)?;
    let value = MessageStream::new(text.as_bytes()).parse_address();
    let name = value.as_address()?.first()?.name()?;
    Some(name.to_owned())
}
