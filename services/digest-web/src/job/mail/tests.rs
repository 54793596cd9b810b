use super::fixtures::{EdgeExpect, edge_cases, golden_messages};
use super::*;

fn msg(headers: &str, body: &str) -> Vec<u8> {
    format!("{headers}\r\n\r\n{body}")
        .replace('\n', "\r\n")
        .replace("\r\r", "\r")
        .into_bytes()
}

#[test]
fn every_edge_case_parses_or_fails_as_documented() {
    for case in edge_cases() {
        let result = parse_message(&case.raw, None);
        match (&case.expect, result) {
            (EdgeExpect::Parses { subject, snippet }, Ok(parsed)) => {
                assert!(
                    parsed.message.subject.contains(subject),
                    "{}: subject {:?}",
                    case.name,
                    parsed.message.subject
                );
                assert!(
                    parsed.snippet.contains(snippet),
                    "{}: snippet {:?}",
                    case.name,
                    parsed.snippet
                );
            }
            (EdgeExpect::Fails, Err(_)) => {}
            (expect, got) => panic!("{}: expected {expect:?}, got {got:?}", case.name),
        }
    }
}

#[test]
fn html_is_converted_without_markup_styles_or_scripts() {
    let case = edge_cases()
        .into_iter()
        .find(|c| c.name == "html-only-with-style")
        .unwrap();
    let parsed = parse_message(&case.raw, None).unwrap();
    for bad in ["<", ">", "color:red", "var a"] {
        assert!(
            !parsed.message.body.contains(bad),
            "{bad} in {:?}",
            parsed.message.body
        );
    }
}

#[test]
fn multipart_alternative_prefers_text_plain() {
    let raw = msg(
        "From: a@example.com\nSubject: alt\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=xx",
        "--xx\nContent-Type: text/plain\n\nthe plain version\n--xx\nContent-Type: text/html\n\n<p>the html version</p>\n--xx--\n",
    );
    let parsed = parse_message(&raw, None).unwrap();
    assert_eq!(parsed.message.body, "the plain version");
}

#[test]
fn attachments_are_skipped_and_counted() {
    let parsed = parse_message(&fixtures::huge_message(), None).unwrap();
    assert_eq!(parsed.attachments, 1);
    assert_eq!(parsed.message.body, "Hello, the logs are attached.");
}

#[test]
fn missing_date_uses_delivery_time_and_missing_id_a_stable_hash() {
    let raw = msg("From: Someone <Someone@Example.COM>\nSubject: x", "hello");
    let delivered = Utc.with_ymd_and_hms(2026, 3, 4, 5, 6, 7).unwrap();
    let a = parse_message(&raw, Some(delivered)).unwrap();
    assert_eq!(a.received_at, delivered);
    assert_eq!(a.item().date, "2026-03-04");
    assert_eq!(a.message.from, "someone@example.com");
    assert_eq!(a.message.from_name.as_deref(), Some("Someone"));
    assert!(
        a.message.id.starts_with('h') && a.message.id.len() == 17,
        "{}",
        a.message.id
    );
    let b = parse_message(&raw, None).unwrap();
    assert_eq!(a.message.id, b.message.id, "the hash id is stable");
}

#[test]
fn message_id_loses_its_angle_brackets_and_date_zone_is_applied() {
    let raw = msg(
        "From: a@example.com\nMessage-ID: <abc.123@example.com>\nDate: Sat, 21 Nov 2026 01:30:00 +0200\nSubject: s",
        "b",
    );
    let parsed = parse_message(&raw, None).unwrap();
    assert_eq!(parsed.message.id, "abc.123@example.com");
    // 01:30 at +02:00 is the previous day in UTC.
    assert_eq!(parsed.item().date, "2026-11-20");
}

#[test]
fn a_message_id_is_its_first_line_as_written() {
    // A trailing comment stays; a broken id folded over lines is its first line: as tools
    // that key mail by the raw header read it, so both find the same message.
    for (header, id) in [
        (
            "<a.1@example.com> (added by relay)",
            "a.1@example.com> (added by relay)",
        ),
        (
            "<0001$02@host.example.org\n    ([10.0.0.1]) by relay.example with SMTP id X1>",
            "0001$02@host.example.org",
        ),
        ("\n    <folded@example.com>", "folded@example.com"),
    ] {
        let raw = msg(
            &format!("From: a@example.com\nMessage-ID: {header}\nSubject: s"),
            "b",
        );
        assert_eq!(
            parse_message(&raw, None).unwrap().message.id,
            id,
            "{header:?}"
        );
    }
}

#[test]
fn snippet_is_about_200_chars_collapsed_and_cut_at_a_word() {
    let body = "word   \t ".repeat(100);
    let raw = msg("From: a@example.com\nSubject: long", &body);
    let snippet = parse_message(&raw, None).unwrap().snippet;
    assert!(
        snippet.chars().count() <= 201,
        "{}",
        snippet.chars().count()
    );
    assert!(snippet.chars().count() >= 150);
    assert!(
        !snippet.contains("  ") && snippet.ends_with("word…"),
        "{snippet}"
    );
}

#[test]
fn quoted_replies_and_signatures_are_left_out_of_the_body() {
    let raw = msg(
        "From: a@example.com\nSubject: re",
        "New text here.\n\nOn Mon, 1 Jan 2026, Bob wrote:\n> old text\n> more old\n\n-- \nBob's signature",
    );
    assert_eq!(
        parse_message(&raw, None).unwrap().message.body,
        "New text here."
    );
}

#[test]
fn garbage_and_empty_input_are_parse_errors() {
    assert_eq!(parse_message(b"", None).unwrap_err(), ParseError::Empty);
    assert_eq!(
        parse_message(&[0u8, 159, 146, 150, 10, 0, 1], None).unwrap_err(),
        ParseError::NoHeaders
    );
    assert_eq!(ParseError::NoHeaders.kind(), "NotAMessage");
}

#[test]
fn every_sample_message_parses_with_a_sender_and_subject() {
    let golden = golden_messages();
    assert!(golden.len() >= 50, "{}", golden.len());
    for g in golden {
        let parsed = parse_message(g.raw, None).unwrap_or_else(|e| panic!("{}: {e}", g.name));
        assert!(
            parsed.message.from.contains('@') && parsed.message.from != "unknown@invalid",
            "{}",
            g.name
        );
        assert!(!parsed.message.subject.is_empty(), "{}", g.name);
        assert!(
            !parsed.message.subject.contains('\u{fffd}'),
            "{}: {}",
            g.name,
            parsed.message.subject
        );
        assert!(!parsed.snippet.is_empty(), "{}", g.name);
    }
}

#[test]
fn sample_charsets_decode_to_the_expected_text() {
    let by_id = |id: &str| {
        golden_messages()
            .into_iter()
            .map(|g| parse_message(g.raw, None).unwrap())
            .find(|p| p.message.id == id)
            .unwrap()
    };
    assert_eq!(
        by_id("keiyaku-3@example.com").message.subject,
        "契約書の確認をお願いします"
    );
    assert_eq!(
        by_id("weihu-12@example.org").message.subject,
        "服务器维护通知"
    );
    assert!(
        by_id("otchet-11@example.org")
            .snippet
            .contains("Пожалуйста")
    );
    assert!(
        by_id("receipt-551@cafe-lumiere.example.net")
            .message
            .body
            .contains("jus d’orange")
    );
    assert!(
        by_id("lancement-77@example.net")
            .message
            .subject
            .starts_with("Réunion")
    );
}

#[test]
fn signal_headers_are_kept_and_others_dropped() {
    let raw = msg(
        "From: a@example.com\nSubject: s\nList-Unsubscribe: <https://x>\nX-Mailgun-Tag: t\nReceived: from z",
        "b",
    );
    let parsed = parse_message(&raw, None).unwrap();
    assert_eq!(
        parsed.message.header("LIST-UNSUBSCRIBE"),
        Some("<https://x>")
    );
    assert!(parsed.message.has_header_prefix("x-mailgun-"));
    assert_eq!(parsed.message.header("received"), None);
}

proptest::proptest! {
    #[test]
    fn parsing_arbitrary_bytes_never_panics(raw in proptest::collection::vec(proptest::num::u8::ANY, 0..2000)) {
        if let Ok(parsed) = parse_message(&raw, None) {
            let c = crate::job::classify::Classifier::embedded().classify(&parsed.message);
            proptest::prop_assert!((0.0..=1.0).contains(&c.confidence));
        }
    }

    #[test]
    fn any_header_and_body_give_a_clean_bounded_snippet(
        subject in "[^\r\n]{0,80}",
        body in "(?s).{0,1500}",
    ) {
        let raw = format!("From: a@example.com\r\nSubject: {subject}\r\n\r\n{body}");
        let parsed = parse_message(raw.as_bytes(), None).unwrap();
        let snippet = &parsed.snippet;
        proptest::prop_assert!(snippet.chars().count() <= SNIPPET_CHARS + 1);
        proptest::prop_assert!(!snippet.contains("  ") && !snippet.contains('\n'));
        proptest::prop_assert_eq!(snippet.trim(), snippet.as_str());
        let c = crate::job::classify::Classifier::embedded().classify(&parsed.message);
        proptest::prop_assert!((0.0..=1.0).contains(&c.confidence), "{:?}", c);
    }
}

#[test]
fn the_message_key_hash_keeps_its_stored_values() {
    // Published FNV-1a 64 test vectors, and the id of a message without Message-ID: these
    // are keys in existing run stores.
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    let raw = msg("From: a@example.com\nSubject: no id", "hello");
    let parsed = parse_message(&raw, None).unwrap();
    assert_eq!(parsed.message.id, format!("h{:016x}", fnv1a(&raw)));
}

/// The words of `text` (runs of letters and digits), in order.
fn word_runs(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The text of each block of `html`: the HTML cut at every block element's tag (and table
/// cells), tags and entities removed, `<head>`, `<style>` and `<script>` dropped.
fn html_blocks(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut blocks = vec![String::new()];
    let mut rest = 0;
    let mut skip_until: Option<&str> = None;
    while let Some(at) = lower[rest..].find('<').map(|a| a + rest) {
        if skip_until.is_none() {
            blocks
                .last_mut()
                .unwrap()
                .push_str(&html[rest..at].replace("&nbsp;", " "));
        }
        let end = lower[at..].find('>').map_or(lower.len(), |e| at + e + 1);
        let name: String = lower[at + 1..end]
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        let closing = lower[at + 1..].starts_with('/');
        match skip_until {
            Some(tag) if tag == name && closing => skip_until = None,
            Some(_) => {}
            None if matches!(name.as_str(), "head" | "style" | "script") && !closing => {
                skip_until = Some(match name.as_str() {
                    "head" => "head",
                    "style" => "style",
                    _ => "script",
                });
            }
            None if BLOCK_TAGS.contains(&name.as_str()) || name == "td" || name == "th" => {
                blocks.push(String::new());
            }
            None => {}
        }
        rest = end;
    }
    blocks.last_mut().unwrap().push_str(&html[rest..]);
    blocks
}

/// Words glued across a block boundary: for each pair of neighbouring blocks, the last word of
/// one and the first of the next written as one word in `body`, when the HTML never writes
/// that word itself.
fn glued_blocks(html: &str, body: &str) -> Vec<String> {
    let blocks: Vec<Vec<String>> = html_blocks(html)
        .iter()
        .map(|b| word_runs(b))
        .filter(|w| !w.is_empty())
        .collect();
    let own: std::collections::HashSet<&String> = blocks.iter().flatten().collect();
    let read: std::collections::HashSet<String> = word_runs(body).into_iter().collect();
    blocks
        .windows(2)
        .map(|pair| format!("{}{}", pair[0].last().unwrap(), pair[1][0]))
        .filter(|glued| read.contains(glued) && !own.contains(glued))
        .collect()
}

/// The HTML part a message's body is read from, when that is HTML.
fn html_part(raw: &[u8]) -> Option<String> {
    let message = mail_parser::MessageParser::default().parse(raw)?;
    match message.text_part(0).map(|p| &p.body) {
        Some(mail_parser::PartType::Html(html)) => Some(html.to_string()),
        _ => None,
    }
}

#[test]
fn html_blocks_are_read_apart_in_the_sample_mailbox_and_the_real_mail() {
    // The check itself: glued words are found where blocks were joined.
    assert_eq!(
        glued_blocks(
            "<h1>Morning Brief</h1><div>Energy prices</div>",
            "Morning BriefEnergy prices"
        ),
        vec!["briefenergy"]
    );
    assert!(
        glued_blocks(
            "<h1>Morning Brief</h1><div>Energy</div>",
            "Morning Brief Energy"
        )
        .is_empty()
    );
    let sample: Vec<(String, Vec<u8>)> = golden_messages()
        .into_iter()
        .map(|g| (g.name.to_owned(), g.raw.to_vec()))
        .collect();
    let real_dir = std::path::Path::new(crate::job::classify::corpus::REAL_MAIL_DIR).join("msgs");
    let real: Vec<(String, Vec<u8>)> = match std::fs::read_dir(&real_dir) {
        Ok(dir) => dir
            .flatten()
            .filter_map(|e| {
                Some((
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).ok()?,
                ))
            })
            .collect(),
        Err(_) => {
            eprintln!("skipped: ../shared/data not found (the sample mailbox is still checked)");
            Vec::new()
        }
    };
    let mut html_messages = 0;
    let mut failures = Vec::new();
    for (name, raw) in sample.iter().chain(&real) {
        let Some(html) = html_part(raw) else { continue };
        let Ok(parsed) = parse_or_salvage(raw, None) else {
            continue;
        };
        html_messages += 1;
        for read in [&parsed.message.body, &parsed.snippet] {
            let glued = glued_blocks(&html, read);
            if !glued.is_empty() {
                failures.push(format!("{name}: {glued:?} in {read:?}"));
            }
        }
    }
    assert!(html_messages >= 5, "only {html_messages} HTML messages");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A message whose Subject (and From name) are raw bytes, with `content_type` as its
/// top-level Content-Type (none when empty).
fn raw_header_message(from: &[u8], subject: &[u8], content_type: &str) -> Vec<u8> {
    let mut raw = b"From: ".to_vec();
    raw.extend_from_slice(from);
    raw.extend_from_slice(b"\r\nSubject: ");
    raw.extend_from_slice(subject);
    raw.extend_from_slice(b"\r\nMessage-ID: <raw@example.com>\r\n");
    if !content_type.is_empty() {
        raw.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
    }
    raw.extend_from_slice(b"\r\nplain words\r\n");
    raw
}

#[test]
fn raw_8bit_subjects_are_read_in_the_declared_charset() {
    let cases: [(&'static encoding_rs::Encoding, &str, &str); 4] = [
        (
            encoding_rs::EUC_KR,
            "text/plain; charset=euc-kr",
            "[광고] 요즘 뜨는 직종 Best 5",
        ),
        (
            encoding_rs::GBK,
            "text/plain; charset=\"gb2312\"",
            "黄山旅游天天发, 南京特价",
        ),
        (
            encoding_rs::SHIFT_JIS,
            "text/plain; charset=Shift_JIS",
            "【未承諾広告】お得な情報",
        ),
        (
            encoding_rs::BIG5,
            "text/html; charset=big5",
            "週末特價 20% 優惠",
        ),
    ];
    for (encoding, content_type, text) in cases {
        let (bytes, _, unmappable) = encoding.encode(text);
        assert!(
            !unmappable && std::str::from_utf8(&bytes).is_err(),
            "{text}"
        );
        let raw = raw_header_message(b"ad@example.kr", &bytes, content_type);
        let parsed = parse_message(&raw, None).unwrap();
        assert_eq!(parsed.message.subject, text, "{content_type}");
    }
}

#[test]
fn a_raw_from_name_is_read_in_the_declared_charset() {
    let (name, _, _) = encoding_rs::EUC_KR.encode("교육팀");
    let mut from = name.into_owned();
    from.extend_from_slice(b" <master@example.kr>");
    let raw = raw_header_message(&from, b"hello", "text/plain; charset=euc-kr");
    let parsed = parse_message(&raw, None).unwrap();
    assert_eq!(parsed.message.from_name.as_deref(), Some("교육팀"));
    assert_eq!(parsed.message.from, "master@example.kr");
}

#[test]
fn the_charset_of_a_text_part_serves_when_the_top_level_declares_none() {
    let (subject, _, _) = encoding_rs::GBK.encode("服务器维护通知");
    let mut raw = b"From: a@example.cn\r\nSubject: ".to_vec();
    raw.extend_from_slice(&subject);
    raw.extend_from_slice(
        b"\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n\
          --b\r\nContent-Type: text/plain; charset=gb2312\r\n\r\nbody\r\n--b--\r\n",
    );
    let parsed = parse_message(&raw, None).unwrap();
    assert_eq!(parsed.message.subject, "服务器维护通知");
}

#[test]
fn a_7bit_iso_2022_jp_subject_is_decoded_by_its_escapes() {
    let (subject, _, _) = encoding_rs::ISO_2022_JP.encode("会議のお知らせ");
    assert!(subject.contains(&0x1b));
    let raw = raw_header_message(b"a@example.jp", &subject, "");
    let parsed = parse_message(&raw, None).unwrap();
    assert_eq!(parsed.message.subject, "会議のお知らせ");
}

#[test]
fn a_charset_alias_mailers_wrote_is_read_as_its_code_page() {
    // `chinesebig5` (Chinese Windows mailers) is not an Encoding Standard label.
    let (bytes, _, _) = encoding_rs::BIG5.encode("週末特價 20% 優惠");
    let raw = raw_header_message(
        b"ad@example.tw",
        &bytes,
        "text/html; charset=\"ChineseBig5\"",
    );
    let parsed = parse_message(&raw, None).unwrap();
    assert_eq!(parsed.message.subject, "週末特價 20% 優惠");
    // Windows code page names of GBK and Shift_JIS.
    let (bytes, _, _) = encoding_rs::GBK.encode("服务器维护通知");
    let raw = raw_header_message(b"a@example.cn", &bytes, "text/plain; charset=cp936");
    assert_eq!(
        parse_message(&raw, None).unwrap().message.subject,
        "服务器维护通知"
    );
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("お得な情報");
    let raw = raw_header_message(b"a@example.jp", &bytes, "text/plain; charset=CP932");
    assert_eq!(
        parse_message(&raw, None).unwrap().message.subject,
        "お得な情報"
    );
}

#[test]
fn raw_latin1_without_a_declared_charset_is_read_as_windows_1252() {
    // Latin-1 subjects of 2002-era offers that declare no charset anywhere: a pound sign, a
    // registered sign, a cent sign, and windows-1252's own curly quote.
    for (bytes, text) in [
        (&b"Save \xa35.00 on tickets"[..], "Save £5.00 on tickets"),
        (b"Discover\xae Platinum Card", "Discover® Platinum Card"),
        (b"4 DVDs for 49\xa2 ea.", "4 DVDs for 49¢ ea."),
        (b"\x93Caf\xe9\x94 opens", "“Café” opens"),
    ] {
        let raw = raw_header_message(b"a@example.com", bytes, "");
        assert_eq!(parse_message(&raw, None).unwrap().message.subject, text);
    }
    // UTF-8 bytes without a declared charset stay UTF-8.
    let raw = raw_header_message(b"a@example.com", "Café £5".as_bytes(), "");
    assert_eq!(
        parse_message(&raw, None).unwrap().message.subject,
        "Café £5"
    );
}

#[test]
fn raw_bytes_without_a_fitting_charset_keep_the_old_reading() {
    // Bytes that are not EUC-KR although it is declared: no charset is forced on them.
    let raw = raw_header_message(
        b"a@example.kr",
        b"Offer \xff\xfe\xc8 now",
        "text/plain; charset=euc-kr",
    );
    let parsed = parse_message(&raw, None).unwrap();
    assert!(
        parsed.message.subject.starts_with("Offer "),
        "{}",
        parsed.message.subject
    );
    assert!(
        parsed.message.subject.ends_with(" now"),
        "{}",
        parsed.message.subject
    );
    // UTF-8 and RFC 2047 subjects are mail-parser's, whatever the body declares.
    let raw = raw_header_message(
        b"a@example.kr",
        "Réunion =?UTF-8?B?5pel5pys?=".as_bytes(),
        "text/plain; charset=euc-kr",
    );
    assert_eq!(
        parse_message(&raw, None).unwrap().message.subject,
        "Réunion 日本"
    );
}

/// Readable: no replacement character and no control character left.
fn readable(subject: &str) -> bool {
    !subject.contains('\u{fffd}') && !subject.chars().any(char::is_control)
}

#[test]
fn real_mail_subjects_read_as_text() {
    let real_dir = std::path::Path::new(crate::job::classify::corpus::REAL_MAIL_DIR).join("msgs");
    let Ok(dir) = std::fs::read_dir(&real_dir) else {
        eprintln!("skipped: ../shared/data not found");
        return;
    };
    let (mut total, mut before, mut after) = (0, 0, 0);
    let mut worse = Vec::new();
    for entry in dir.flatten() {
        let Ok(raw) = std::fs::read(entry.path()) else {
            continue;
        };
        let Ok(parsed) = parse_message(&raw, None) else {
            continue;
        };
        let old = mail_parser::MessageParser::default()
            .parse(&raw[..])
            .and_then(|m| m.subject().map(collapse))
            .unwrap_or_default();
        total += 1;
        before += usize::from(readable(&old));
        after += usize::from(readable(&parsed.message.subject));
        if readable(&old) && parsed.message.subject != old {
            worse.push(format!(
                "{:?}: {old:?} -> {:?}",
                entry.file_name(),
                parsed.message.subject
            ));
        }
    }
    eprintln!("real-mail subjects readable: {before}/{total} before, {after}/{total} after");
    assert!(worse.is_empty(), "{}", worse.join("\n"));
    assert!(after > before, "{after} <= {before}");
}
