use chrono::Utc;

use crate::helpers::*;

#[test]
fn default_sample_run_writes_the_spec_digest_and_a_run_row() {
    let dir = tempfile::tempdir().unwrap();
    let out = refresh(&["--data-dir", dir.path().to_str().unwrap()], &[]);
    let digest = digest(&out, dir.path());

    let keys: Vec<_> = digest.as_object().unwrap().keys().cloned().collect();
    // The spec's four keys, and `engine`: offline without LLM_* variables.
    assert_eq!(
        keys,
        ["categories", "engine", "generated_at", "stats", "summaries"]
    );
    assert_eq!(digest["engine"], "offline");
    let categories = digest["categories"].as_object().unwrap();
    let mut names: Vec<_> = categories.keys().cloned().collect();
    names.sort();
    assert_eq!(
        names,
        ["FYI", "Need-Action", "Newsletter", "Promotional", "Social"]
    );
    for (name, items) in categories {
        assert!(!items.as_array().unwrap().is_empty(), "{name} is empty");
        assert!(
            digest["summaries"][name]
                .as_str()
                .is_some_and(|s| s.len() > 20),
            "{name}"
        );
        for item in items.as_array().unwrap() {
            let obj = item.as_object().unwrap();
            let mut fields: Vec<_> = obj.keys().cloned().collect();
            fields.sort();
            // The spec's five fields plus `reasons` (an extra field, docs/decisions.md).
            assert_eq!(
                fields,
                ["date", "from", "id", "reasons", "snippet", "subject"]
            );
            let reasons = item["reasons"].as_array().unwrap();
            assert!((1..=4).contains(&reasons.len()), "{item}");
            assert!(
                reasons
                    .iter()
                    .all(|r| r.as_str().is_some_and(|s| !s.is_empty()))
            );
            assert!(!item["id"].as_str().unwrap().contains('<'));
            assert!(
                chrono::NaiveDate::parse_from_str(item["date"].as_str().unwrap(), "%Y-%m-%d")
                    .is_ok()
            );
            assert!(item["snippet"].as_str().unwrap().chars().count() <= 201);
        }
    }
    let generated = digest["generated_at"].as_str().unwrap();
    assert!(
        chrono::NaiveDateTime::parse_from_str(generated, "%Y-%m-%dT%H:%M:%S").is_ok(),
        "{generated}"
    );
    let stats = digest["stats"].as_object().unwrap();
    assert_eq!(
        stats["total_emails"].as_u64().unwrap() as usize,
        count(&digest)
    );
    assert_eq!(stats["api_calls"], 0);
    assert!(stats["execution_time"].as_f64().unwrap() >= 0.0);
    assert!(count(&digest) >= 50);

    let (status, processed, _, hits, lookups, message) = last_run(dir.path());
    assert_eq!(
        (status.as_str(), processed as usize),
        ("success", count(&digest))
    );
    assert_eq!((hits, message), (0, None));
    assert!(lookups >= 50);
    assert!(stdout(&out).starts_with("digest written to "));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn second_maildir_run_takes_everything_from_the_cache_and_parses_only_new_mail() {
    let mail = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let n = copy_sample(mail.path()) as i64;
    let source = format!("maildir:{}", mail.path().display());
    let args = [
        "--source",
        &source,
        "--data-dir",
        data.path().to_str().unwrap(),
        "--window",
        "all",
    ];

    let first = refresh(&args, &[]);
    let first_digest = digest(&first, data.path());
    assert_eq!(last_run(data.path()).3, 0);

    let second = refresh(&args, &[]);
    let second_digest = digest(&second, data.path());
    let (_, processed, _, hits, lookups, _) = last_run(data.path());
    assert_eq!((hits, lookups, processed), (n, n, n));
    assert!(
        stdout(&second).contains("(0 parsed,"),
        "{}",
        stdout(&second)
    );
    assert_eq!(first_digest["categories"], second_digest["categories"]);

    // A new delivery: only it is parsed.
    let now = Utc::now().to_rfc2822();
    std::fs::write(
        mail.path().join("new/9999999999.M1P1.test"),
        message("new-1@example.com", &now, "the new report"),
    )
    .unwrap();
    let third = refresh(&args, &[]);
    let third_digest = digest(&third, data.path());
    let (_, processed, _, hits, lookups, _) = last_run(data.path());
    assert_eq!((hits, lookups, processed), (n, n + 1, n + 1));
    assert!(stdout(&third).contains("(1 parsed,"), "{}", stdout(&third));
    // (Not necessarily first: the sample's Date-less message takes its file time, i.e. now.)
    let need_action = third_digest["categories"]["Need-Action"]
        .as_array()
        .unwrap();
    assert!(
        need_action.iter().any(|i| i["id"] == "new-1@example.com"),
        "{need_action:?}"
    );
}

#[test]
fn a_broken_message_is_recorded_and_skipped() {
    let mail = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let n = copy_sample(mail.path());
    std::fs::write(
        mail.path().join("cur/broken.1:2,S"),
        (0u8..=255).cycle().take(4000).collect::<Vec<_>>(),
    )
    .unwrap();
    let source = format!("maildir:{}", mail.path().display());
    let out = refresh(
        &[
            "--source",
            &source,
            "--data-dir",
            data.path().to_str().unwrap(),
            "--window",
            "all",
        ],
        &[],
    );
    let digest = digest(&out, data.path());
    assert_eq!(count(&digest), n);
    let errors = errors(data.path());
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        (errors[0].0.as_str(), errors[0].1.as_str()),
        ("mail.parse", "NotAMessage")
    );
    assert!(errors[0].2.contains("broken.1"), "{}", errors[0].2);
    assert!(stdout(&out).contains("1 skipped"), "{}", stdout(&out));
}

#[test]
fn mbox_source_reads_every_message_and_skips_the_broken_one() {
    let data = tempfile::tempdir().unwrap();
    let source = format!("mbox:{}", fixture_mbox().display());
    let out = refresh(
        &[
            "--source",
            &source,
            "--data-dir",
            data.path().to_str().unwrap(),
            "--window",
            "all",
        ],
        &[],
    );
    let first = digest(&out, data.path());
    assert_eq!(count(&first), 12);
    assert_eq!(errors(data.path()).len(), 1);

    // Second run: the 12 good messages come from the cache (the broken one is read again).
    let args = [
        "--source",
        source.as_str(),
        "--data-dir",
        data.path().to_str().unwrap(),
        "--window",
        "all",
    ];
    let second = digest(&refresh(&args, &[]), data.path());
    assert_eq!(second["categories"], first["categories"]);
    let (_, _, _, hits, lookups, _) = last_run(data.path());
    assert_eq!((hits, lookups), (12, 13));
}

#[test]
fn window_and_cap_keep_the_newest_messages_in_range() {
    let mail = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir(mail.path().join(sub)).unwrap();
    }
    let now = Utc::now();
    for i in 0..6 {
        let date = (now - chrono::Duration::hours(i * 3)).to_rfc2822();
        std::fs::write(
            mail.path().join(format!("new/recent{i}")),
            message(&format!("r{i}@example.com"), &date, &format!("recent {i}")),
        )
        .unwrap();
    }
    std::fs::write(
        mail.path().join("new/old"),
        message("old@example.com", "Mon, 2 Mar 2020 10:00:00 +0000", "old"),
    )
    .unwrap();
    let source = format!("maildir:{}", mail.path().display());
    let d = data.path().to_str().unwrap();

    let day = digest(
        &refresh(&["--source", &source, "--data-dir", d], &[]),
        data.path(),
    );
    assert_eq!(count(&day), 6, "default window is 24h");
    let all = digest(
        &refresh(
            &["--source", &source, "--data-dir", d, "--window", "all"],
            &[],
        ),
        data.path(),
    );
    assert_eq!(count(&all), 7);
    let capped = digest(
        &refresh(
            &[
                "--source",
                &source,
                "--data-dir",
                d,
                "--window",
                "7d",
                "--max-emails",
                "2",
            ],
            &[],
        ),
        data.path(),
    );
    let ids: Vec<_> = capped["categories"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|v| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|i| i["id"].as_str().unwrap().to_owned())
        })
        .collect();
    let mut ids = ids;
    ids.sort();
    assert_eq!(ids, ["r0@example.com", "r1@example.com"]);
}

#[test]
fn environment_configures_the_run_and_flags_override_it() {
    let data_env = tempfile::tempdir().unwrap();
    let data_flag = tempfile::tempdir().unwrap();
    let source = format!("mbox:{}", fixture_mbox().display());
    let env = [
        ("DIGEST_SOURCE", source.as_str()),
        ("DIGEST_DATA_DIR", data_env.path().to_str().unwrap()),
        ("DIGEST_WINDOW", "all"),
        ("DIGEST_MAX_EMAILS", "3"),
    ];
    let by_env = digest(&refresh(&[], &env), data_env.path());
    assert_eq!(count(&by_env), 3);
    let out = refresh(
        &[
            "--data-dir",
            data_flag.path().to_str().unwrap(),
            "--max-emails",
            "5",
        ],
        &env,
    );
    assert_eq!(count(&digest(&out, data_flag.path())), 5);
}

#[test]
fn user_rules_file_wins_over_the_classifier() {
    let data = tempfile::tempdir().unwrap();
    let rules = data.path().join("rules.toml");
    std::fs::write(&rules, "[senders]\n\"linkedin.com\" = \"FYI\"\n").unwrap();
    let out = refresh(
        &[
            "--data-dir",
            data.path().to_str().unwrap(),
            "--rules-file",
            rules.to_str().unwrap(),
        ],
        &[],
    );
    let digest = digest(&out, data.path());
    let social: Vec<_> = digest["categories"]["Social"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["from"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        social.iter().all(|f| !f.ends_with("linkedin.com")),
        "{social:?}"
    );
    let fyi = digest["categories"]["FYI"].as_array().unwrap();
    assert!(
        fyi.iter()
            .any(|i| i["from"].as_str().unwrap().ends_with("linkedin.com"))
    );
}

#[test]
fn a_bad_source_exits_2_with_one_line_and_no_digest() {
    let data = tempfile::tempdir().unwrap();
    let out = refresh(
        &[
            "--source",
            "pop3://mail.example.com",
            "--data-dir",
            data.path().to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("invalid mail source 'pop3://mail.example.com': expected maildir:/path"),
        "{err}"
    );
    assert!(!data.path().join("digest.json").exists());
}

#[test]
fn a_missing_maildir_fails_with_one_line_and_is_recorded() {
    let data = tempfile::tempdir().unwrap();
    let out = refresh(
        &[
            "--source",
            "maildir:/nonexistent/Maildir",
            "--data-dir",
            data.path().to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(
        err,
        "cannot read Maildir /nonexistent/Maildir: no cur/ or new/ folder (not a Maildir)\n"
    );
    let (status, .., message) = last_run(data.path());
    assert_eq!(status, "error");
    assert_eq!(message.as_deref(), Some(err.trim_end()));
    assert_eq!(errors(data.path())[0].0, "mail.local");
}

#[test]
fn invalid_flags_exit_2_with_one_line() {
    let out = refresh(&["--window", "1y"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("1y"));
}

#[test]
fn help_explains_every_flag_and_variable() {
    let out = refresh(&["--help"], &[]);
    assert!(out.status.success());
    let help = stdout(&out);
    for needle in [
        "--source",
        "--data-dir",
        "--window",
        "--max-emails",
        "--rules-file",
        "DIGEST_SOURCE",
        "DIGEST_DATA_DIR",
        "DIGEST_WINDOW",
        "DIGEST_MAX_EMAILS",
        "DIGEST_RULES_FILE",
        "DIGEST_IMAP_PASSWORD",
        "DIGEST_IMAP_OAUTH_TOKEN",
        "DIGEST_IMAP_CA_FILE",
        "CONFIG_FILE",
        "imaps://",
        "maildir:",
        "mbox:",
    ] {
        assert!(help.contains(needle), "--help lacks {needle}:\n{help}");
    }
}

#[test]
fn files_delivered_long_before_the_window_are_not_even_read() {
    let mail = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir(mail.path().join(sub)).unwrap();
    }
    let now = Utc::now().to_rfc2822();
    std::fs::write(
        mail.path().join("new/fresh"),
        message("fresh@example.com", &now, "fresh"),
    )
    .unwrap();
    // An unparseable file delivered 10 days ago: a 24h run must not touch it.
    let old = mail.path().join("cur/old-garbage:2,S");
    std::fs::write(&old, [0u8, 1, 2, 3, 255]).unwrap();
    let ten_days_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(10 * 86_400);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(ten_days_ago)
        .unwrap();
    let source = format!("maildir:{}", mail.path().display());
    let d = data.path().to_str().unwrap();

    let day = digest(
        &refresh(&["--source", &source, "--data-dir", d], &[]),
        data.path(),
    );
    assert_eq!(count(&day), 1);
    assert!(errors(data.path()).is_empty());
    assert_eq!(
        last_run(data.path()).4,
        1,
        "one lookup: the old file was skipped"
    );

    digest(
        &refresh(
            &["--source", &source, "--data-dir", d, "--window", "30d"],
            &[],
        ),
        data.path(),
    );
    assert_eq!(
        errors(data.path()).len(),
        1,
        "inside 30 days the broken file is read and recorded"
    );
}

#[test]
fn a_config_file_is_read_and_the_environment_overrides_it() {
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("refresh.env");
    let source = format!("mbox:{}", fixture_mbox().display());
    std::fs::write(
        &config,
        format!(
            "# refresh settings\nDIGEST_SOURCE={source}\nDIGEST_DATA_DIR={}\nDIGEST_WINDOW=all\nDIGEST_MAX_EMAILS=4\n",
            data.path().display()
        ),
    )
    .unwrap();
    let env = [("CONFIG_FILE", config.to_str().unwrap())];
    assert_eq!(count(&digest(&refresh(&[], &env), data.path())), 4);
    let env = [
        ("CONFIG_FILE", config.to_str().unwrap()),
        ("DIGEST_MAX_EMAILS", "6"),
    ];
    assert_eq!(count(&digest(&refresh(&[], &env), data.path())), 6);
}

#[test]
fn an_empty_or_missing_embedding_table_still_categorises_the_sample() {
    // Empty turns the sentence-embedding model off; a missing file falls back to the embedded
    // default with a warning: both sort the sample into every category.
    let missing = tempfile::tempdir().unwrap();
    let table = missing.path().join("tokens.bin");
    for env in [
        vec![("DIGEST_EMBEDDING_MODEL", "")],
        vec![("DIGEST_EMBEDDING_MODEL", table.to_str().unwrap())],
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = refresh(&["--data-dir", dir.path().to_str().unwrap()], &env);
        let digest = digest(&out, dir.path());
        for (name, items) in digest["categories"].as_object().unwrap() {
            assert!(
                !items.as_array().unwrap().is_empty(),
                "{env:?}: {name} is empty"
            );
        }
    }
}
