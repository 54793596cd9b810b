use super::*;
use chrono::TimeZone;
use domain::email::EmailItem;

#[test]
fn windows_parse_and_compute_their_start() {
    let now = Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap();
    assert_eq!(
        Window::parse("24h").unwrap().since(now),
        Some(now - Duration::hours(24))
    );
    assert_eq!(
        Window::parse("7D").unwrap().since(now),
        Some(now - Duration::days(7))
    );
    assert_eq!(Window::parse("30d").unwrap().as_str(), "30d");
    assert_eq!(Window::parse("all").unwrap().since(now), None);
    assert!(
        Window::parse_arg("2w")
            .unwrap_err()
            .contains("24h, 7d, 30d or all")
    );
    assert_eq!(MailSource::Sample.default_window(), Window::All);
    assert_eq!(MailSource::Mbox("x".into()).default_window(), Window::Day);
}

fn cached(id: &str, category: Category) -> CachedMessage {
    CachedMessage {
        item: EmailItem {
            id: id.into(),
            subject: format!("Subject {id} happened today"),
            from: "a@example.com".into(),
            date: "2026-11-21".into(),
            snippet: "text".into(),
            reasons: Vec::new(),
        },
        from_name: None,
        category,
        confidence: 0.9,
        received_at: Utc::now(),
        engine: "offline".into(),
        learned: None,
        list_id: None,
        features: None,
    }
}

#[test]
fn digest_has_all_five_keys_and_summaries_only_for_non_empty_categories() {
    let digest = build_digest(&[cached("1", Category::Fyi), cached("2", Category::Fyi)]);
    let json = serde_json::to_value(&digest).unwrap();
    assert_eq!(json["categories"].as_object().unwrap().len(), 5);
    assert_eq!(json["categories"]["FYI"].as_array().unwrap().len(), 2);
    assert_eq!(json["summaries"].as_object().unwrap().len(), 1);
    let generated = json["generated_at"].as_str().unwrap();
    assert!(chrono::NaiveDateTime::parse_from_str(generated, "%Y-%m-%dT%H:%M:%S").is_ok());
}

#[test]
fn duplicates_by_message_id_are_kept_once() {
    let mut list = vec![
        cached("1", Category::Fyi),
        cached("1", Category::Fyi),
        cached("2", Category::Social),
    ];
    dedup_by_id(&mut list);
    assert_eq!(list.len(), 2);
}

#[test]
fn options_from_env_read_every_variable() {
    let env = EnvSource::from_pairs([
        ("DIGEST_SOURCE", "mbox:/tmp/x.mbox"),
        ("DIGEST_DATA_DIR", "/tmp/d"),
        ("DIGEST_WINDOW", "7d"),
        ("DIGEST_MAX_EMAILS", "5"),
        ("DIGEST_RULES_FILE", "/tmp/rules.toml"),
    ]);
    let o = RefreshOptions::from_env(&env).unwrap();
    assert_eq!(o.source, MailSource::Mbox("/tmp/x.mbox".into()));
    assert_eq!((o.window, o.max_emails), (Window::Week, 5));
    assert_eq!(o.data_dir, PathBuf::from("/tmp/d"));
    assert_eq!(o.rules_file, Some(PathBuf::from("/tmp/rules.toml")));
    let defaults = RefreshOptions::from_env(&EnvSource::default()).unwrap();
    assert_eq!(
        (defaults.source, defaults.window),
        (MailSource::Sample, Window::All)
    );
    let bad = EnvSource::from_pairs([("DIGEST_WINDOW", "1y")]);
    assert!(RefreshOptions::from_env(&bad).is_err());
}

#[test]
fn a_run_on_the_sample_caches_everything_and_the_second_run_hits() {
    let dir = tempfile::tempdir().unwrap();
    let options = RefreshOptions::new(MailSource::Sample, dir.path());
    let first = run(&options).unwrap();
    assert!(first.total_emails >= 50);
    assert_eq!((first.cache_hits, first.parsed), (0, first.total_emails));
    let second = run(&options).unwrap();
    assert_eq!(second.cache_hits, second.cache_lookups);
    assert_eq!(second.parsed, 0);
    assert_eq!(second.category_counts, first.category_counts);
}

#[test]
fn messages_delivered_long_before_the_window_are_not_read() {
    let now = Utc::now();
    let entry = |hours: i64| Entry {
        key: "k".into(),
        delivered_at: Some(now - Duration::hours(hours)),
    };
    let since = Window::Day.since(now);
    assert!(may_be_in_window(&entry(1), since));
    assert!(may_be_in_window(&entry(40), since), "a day of slack");
    assert!(!may_be_in_window(&entry(60), since));
    assert!(may_be_in_window(&entry(10_000), None));
    let unknown = Entry {
        key: "k".into(),
        delivered_at: None,
    };
    assert!(may_be_in_window(&unknown, since));
}

#[test]
fn old_cache_rows_of_vanished_messages_are_forgotten() {
    let mail = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir(mail.path().join(sub)).unwrap();
    }
    let msg = |id: &str, date: &str| {
        format!(
            "From: a@example.com\r\nSubject: s\r\nDate: {date}\r\nMessage-ID: <{id}>\r\n\r\nbody\r\n"
        )
    };
    std::fs::write(
        mail.path().join("cur/old"),
        msg("old@x", "Mon, 2 Mar 2020 10:00:00 +0000"),
    )
    .unwrap();
    std::fs::write(
        mail.path().join("cur/recent"),
        msg("recent@x", &Utc::now().to_rfc2822()),
    )
    .unwrap();
    std::fs::write(
        mail.path().join("cur/gone-recent"),
        msg("gone@x", &Utc::now().to_rfc2822()),
    )
    .unwrap();
    let mut options = RefreshOptions::new(MailSource::Maildir(mail.path().into()), data.path());
    options.window = Window::All;
    run(&options).unwrap();
    let conn = store::open(data.path()).unwrap();
    let identity = options.source.cache_identity();
    assert_eq!(cache::load(&conn, &identity).unwrap().len(), 3);

    std::fs::remove_file(mail.path().join("cur/old")).unwrap();
    std::fs::remove_file(mail.path().join("cur/gone-recent")).unwrap();
    run(&options).unwrap();
    let left: Vec<_> = cache::load(&conn, &identity)
        .unwrap()
        .into_keys()
        .collect::<Vec<_>>();
    let mut left = left;
    left.sort();
    // The old vanished row is dropped; a recent one is kept (it may come back, e.g. a move).
    assert_eq!(left, ["gone-recent", "recent"]);
}

#[test]
fn digest_items_carry_their_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let options = RefreshOptions::new(MailSource::Sample, dir.path());
    for _cold_then_warm in 0..2 {
        run(&options).unwrap();
        let text = std::fs::read_to_string(dir.path().join("digest.json")).unwrap();
        let digest: Digest = serde_json::from_str(&text).unwrap();
        let items: Vec<&EmailItem> = digest.categories.values().flatten().collect();
        assert!(items.len() >= 50);
        for item in items {
            assert!(
                (1..=4).contains(&item.reasons.len()) && item.reasons.iter().all(|r| !r.is_empty()),
                "{item:?}"
            );
        }
        assert!(text.contains("\"reasons\""), "the JSON field is written");
    }
}

#[test]
fn a_correction_moves_its_sender_on_the_next_run_is_learnt_and_can_be_undone() {
    use crate::store::corrections::{self, NewCorrection};
    let dir = tempfile::tempdir().unwrap();
    let options = RefreshOptions::new(MailSource::Sample, dir.path());
    run(&options).unwrap();
    let conn = crate::store::open(dir.path()).unwrap();
    // Every new message's features were cached with it.
    let with_features: i64 = conn
        .query_row("SELECT count(*) FROM message_features", [], |r| r.get(0))
        .unwrap();
    assert!(with_features >= 40, "{with_features}");
    let first = crate::store::digest_file::load(dir.path())
        .unwrap()
        .unwrap();
    let (from, item) = first
        .categories
        .iter()
        .find(|(c, _)| **c == Category::Fyi)
        .and_then(|(c, items)| items.first().map(|i| (*c, i.clone())))
        .expect("an FYI email in the sample");
    let to = Category::NeedAction;
    let correction = corrections::create(
        &conn,
        &NewCorrection {
            email_id: &item.id,
            sender: &item.from,
            subject: &item.subject,
            snippet: &item.snippet,
            from_category: from,
            category: to,
            by: "alice",
            at: "2026-11-21T10:00:00",
        },
    )
    .unwrap();

    let second = run(&options).unwrap();
    // The corrected sender group was categorised again from its cached features: nothing
    // was read or parsed.
    assert_eq!(
        (second.parsed, second.cache_hits),
        (0, second.cache_lookups),
        "{second:?}"
    );
    let learnt: i64 = conn
        .query_row(
            "SELECT count(*) FROM message_cache WHERE item LIKE '%\"learned\"%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(learnt >= 1, "no cached message records what was learnt");
    let digest = crate::store::digest_file::load(dir.path())
        .unwrap()
        .unwrap();
    let moved: Vec<_> = digest
        .categories
        .values()
        .flatten()
        .filter(|i| i.from.eq_ignore_ascii_case(&item.from))
        .collect();
    assert!(!moved.is_empty());
    for i in &moved {
        assert!(digest.categories[&to].contains(i), "{} not moved", i.id);
        assert_eq!(i.reasons[0], "corrected by alice on 2026-11-21");
    }
    // Warm again: nothing is parsed.
    assert_eq!(run(&options).unwrap().parsed, 0);

    corrections::undo(&conn, correction.id, "bob", "2026-11-21T11:00:00").unwrap();
    run(&options).unwrap();
    let back = crate::store::digest_file::load(dir.path())
        .unwrap()
        .unwrap();
    assert!(back.categories[&from].iter().any(|i| i.id == item.id));
    assert!(
        back.categories
            .values()
            .flatten()
            .all(|i| !i.reasons.iter().any(|r| r.starts_with("corrected by")))
    );
    let counts =
        |d: &domain::email::Digest| -> Vec<usize> { d.categories.values().map(Vec::len).collect() };
    assert_eq!(counts(&back), counts(&first));
}
