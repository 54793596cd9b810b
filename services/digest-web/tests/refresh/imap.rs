//! Against a real Dovecot (Debian's dovecot-imapd) started by scripts/test/dovecot-server.sh
//! on a free loopback port, with the sample Maildir as the test user's INBOX.

use digest_web::job::mail::{MailSource, check_source};
use digest_web::settings::ImapAuth;

use crate::dovecot::{Dovecot, PASSWORD};
use crate::helpers::*;

fn sample_count() -> i64 {
    std::fs::read_dir(sample_maildir().join("cur"))
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .count() as i64
}

#[test]
fn imap_run_fetches_once_then_serves_from_the_cache() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let source = server.source();
    let args = [
        "--source",
        source.as_str(),
        "--data-dir",
        data.path().to_str().unwrap(),
        "--window",
        "all",
        "--max-emails",
        "1000",
    ];
    let env = [("DIGEST_IMAP_PASSWORD", PASSWORD)];
    let n = sample_count();

    let first = digest(&refresh(&args, &env), data.path());
    assert_eq!(count(&first) as i64, n);
    // 56 messages fit one UID FETCH batch of 100.
    assert_eq!(first["stats"]["api_calls"], 1);
    let (status, processed, api_calls, hits, lookups, _) = last_run(data.path());
    assert_eq!(
        (status.as_str(), processed, api_calls, hits, lookups),
        ("success", n, 1, 0, n)
    );

    let second = digest(&refresh(&args, &env), data.path());
    assert_eq!(second["stats"]["api_calls"], 0, "nothing is fetched again");
    assert_eq!(second["categories"], first["categories"]);
    let (_, _, api_calls, hits, lookups, _) = last_run(data.path());
    assert_eq!((api_calls, hits, lookups), (0, n, n));
}

#[test]
fn imap_cap_fetches_only_the_newest_and_password_file_works() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let password_file = data.path().join("pw");
    std::fs::write(&password_file, format!("{PASSWORD}\n")).unwrap();
    let source = server.source();
    let out = refresh(
        &[
            "--source",
            &source,
            "--data-dir",
            data.path().to_str().unwrap(),
            "--window",
            "all",
            "--max-emails",
            "10",
        ],
        &[("DIGEST_IMAP_PASSWORD_FILE", password_file.to_str().unwrap())],
    );
    let digest = digest(&out, data.path());
    assert_eq!(count(&digest), 10);
    let (_, _, api_calls, _, lookups, _) = last_run(data.path());
    assert_eq!((api_calls, lookups), (1, 10));
}

#[test]
fn wrong_imap_password_exits_1_with_the_documented_line() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let source = server.source();
    let out = refresh(
        &[
            "--source",
            &source,
            "--data-dir",
            data.path().to_str().unwrap(),
        ],
        &[("DIGEST_IMAP_PASSWORD", "wrong")],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "IMAP login failed for ops@example.com at 127.0.0.1:{}: authentication failed\n",
            server.port
        )
    );
    let errors = errors(data.path());
    assert_eq!(
        (errors[0].0.as_str(), errors[0].1.as_str()),
        ("mail.imap", "LoginFailed")
    );
    assert!(!data.path().join("digest.json").exists());
}

#[test]
fn check_source_logs_in_and_counts() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let source = MailSource::parse(&server.source()).unwrap();
    let good = ImapAuth::Password(PASSWORD.into());
    assert_eq!(
        check_source(&source, Some(&good)).unwrap() as i64,
        sample_count()
    );
    let bad = check_source(&source, Some(&ImapAuth::Password("nope".into()))).unwrap_err();
    assert_eq!(bad.kind(), "LoginFailed");
    let none = check_source(&source, None).unwrap_err();
    assert!(none.to_string().contains("DIGEST_IMAP_PASSWORD"), "{none}");
}

#[test]
fn unreachable_imap_server_is_one_clear_line() {
    let data = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let source = format!("imaps://ops@127.0.0.1:{port}/INBOX");
    let out = refresh(
        &[
            "--source",
            &source,
            "--data-dir",
            data.path().to_str().unwrap(),
        ],
        &[("DIGEST_IMAP_PASSWORD", "x")],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("cannot connect to IMAP server 127.0.0.1:{port}: ")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn imaps_and_starttls_verify_the_server_certificate() {
    let Some(server) = Dovecot::start_tls() else {
        return;
    };
    let Some(tls_port) = server.tls_port else {
        unreachable!()
    };
    let ca = server.ca_file();
    let with_ca = [
        ("DIGEST_IMAP_PASSWORD", PASSWORD),
        ("DIGEST_IMAP_CA_FILE", ca.to_str().unwrap()),
    ];
    let n = sample_count() as usize;

    // imaps:// (TLS from the first byte), by IP and by name.
    for host in ["127.0.0.1", "localhost"] {
        let data = tempfile::tempdir().unwrap();
        let source = format!("imaps://ops%40example.com@{host}:{tls_port}/INBOX");
        let out = refresh(
            &[
                "--source",
                &source,
                "--data-dir",
                data.path().to_str().unwrap(),
                "--window",
                "all",
            ],
            &with_ca,
        );
        assert_eq!(count(&digest(&out, data.path())), n, "{host}");
    }
    // imap:// upgrades with STARTTLS: this server refuses plain-text logins.
    let data = tempfile::tempdir().unwrap();
    let out = refresh(
        &[
            "--source",
            &server.source(),
            "--data-dir",
            data.path().to_str().unwrap(),
            "--window",
            "all",
        ],
        &with_ca,
    );
    assert_eq!(count(&digest(&out, data.path())), n);

    // Without the test CA the certificate is not trusted: one clear line, exit 1.
    let source = format!("imaps://ops%40example.com@127.0.0.1:{tls_port}/INBOX");
    let out = refresh(
        &[
            "--source",
            &source,
            "--data-dir",
            data.path().to_str().unwrap(),
        ],
        &[("DIGEST_IMAP_PASSWORD", PASSWORD)],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "cannot connect to IMAP server 127.0.0.1:{tls_port}: TLS handshake failed: invalid peer certificate: UnknownIssuer\n"
        )
    );
}

#[test]
fn an_unreadable_ca_file_is_one_clear_line() {
    // A listener that never answers: the TCP connect succeeds, then the CA file is read.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let data = tempfile::tempdir().unwrap();
    let source = format!("imaps://ops@127.0.0.1:{port}/INBOX");
    let out = refresh(
        &[
            "--source",
            &source,
            "--data-dir",
            data.path().to_str().unwrap(),
        ],
        &[
            ("DIGEST_IMAP_PASSWORD", "x"),
            ("DIGEST_IMAP_CA_FILE", "/nonexistent/ca.pem"),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "cannot connect to IMAP server 127.0.0.1:{port}: DIGEST_IMAP_CA_FILE /nonexistent/ca.pem: "
        )),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    drop(listener);
}

#[test]
fn imap_sent_mailbox_tells_which_need_action_mail_was_answered() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let source = server.source();
    let sent_source = source.replace("/INBOX", "/Sent");
    let args = [
        "--source",
        source.as_str(),
        "--data-dir",
        data.path().to_str().unwrap(),
        "--window",
        "all",
        "--max-emails",
        "1000",
        "--sent-source",
        sent_source.as_str(),
    ];
    // The sample is addressed to dana@example.com: she is the owner.
    let env = [
        ("DIGEST_IMAP_PASSWORD", PASSWORD),
        ("DIGEST_OWNER_ADDRESSES", "dana@example.com"),
    ];
    // No Sent mailbox yet: the run succeeds and says why in errors.
    let first = digest(&refresh(&args, &env), data.path());
    let warned: i64 = digest_web::store::open(data.path())
        .unwrap()
        .query_row(
            "SELECT COUNT(*) FROM errors WHERE module = 'mail.sent'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(warned, 1, "the missing Sent mailbox is not reported");
    let asked = first["categories"]["Need-Action"][0].clone();
    let id = asked["id"].as_str().unwrap().to_owned();

    // The owner answers it (within the same second as Dovecot's delivery time of a sample
    // message without Date, so the thread header decides): a message in the Maildir++ Sent folder Dovecot serves.
    let sent = server.dir().join("mail/ops@example.com/.Sent");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(sent.join(sub)).unwrap();
    }
    let reply = format!(
        "From: Dana Whitfield <dana@example.com>\r\nTo: {}\r\nSubject: Re: {}\r\nDate: {}\r\nMessage-ID: <reply-1@example.com>\r\nIn-Reply-To: <{id}>\r\nReferences: <{id}>\r\n\r\nDone.\r\n",
        asked["from"].as_str().unwrap(),
        asked["subject"].as_str().unwrap(),
        chrono::Utc::now().to_rfc2822(),
    );
    std::fs::write(sent.join("cur/1700000000.M1P1.test:2,S"), reply).unwrap();
    let _ = std::process::Command::new("chmod")
        .args(["-R", "a+rwX"])
        .arg(&sent)
        .status();

    refresh(&args, &env);
    let conn = digest_web::store::open(data.path()).unwrap();
    let sent_rows: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM mail_facts WHERE folder = 'sent' AND message_id = 'reply-1@example.com'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(sent_rows, 1, "the Sent mailbox was not read");
    let digest: domain::email::Digest = serde_json::from_value(first.clone()).unwrap();
    let talk = digest_web::web::conversations::read(
        &digest,
        &conn,
        &["dana@example.com".to_owned()],
        3,
        chrono::Utc::now().naive_utc(),
    )
    .unwrap();
    assert!(talk.sent_mail_read);
    let rows: Vec<(String, String, String, String)> = conn
        .prepare("SELECT folder, message_id, sent_at, in_reply_to FROM mail_facts WHERE message_id = ?1 OR in_reply_to LIKE '%' || ?1 || '%'")
        .unwrap()
        .query_map([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        talk.replies[&id].answered,
        "{:?} {rows:?}",
        talk.replies[&id]
    );
    let unanswered = talk.replies.values().filter(|r| !r.answered).count();
    assert_eq!(unanswered, talk.replies.len() - 1);
}
