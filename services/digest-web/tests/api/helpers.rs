use digest_web::web::configuration::Settings;
use digest_web::web::startup::Application;
pub use test_support::app::json;

/// The application under test and a client bound to it (`get`, `post`, `post_json`,
/// `post_raw`, `address`, `client` come from [`test_support::app::Http`]).
pub struct TestApp {
    http: test_support::app::Http,
    /// Kept alive for the test's duration; removed on drop (None when the caller owns it).
    pub _temp: Option<tempfile::TempDir>,
    data_dir: std::path::PathBuf,
}

impl std::ops::Deref for TestApp {
    type Target = test_support::app::Http;

    fn deref(&self) -> &Self::Target {
        &self.http
    }
}

/// Starts the real application on a random loopback port with a fresh data dir.
pub async fn spawn_app_with(extra: &[(&str, &str)]) -> TestApp {
    let temp = tempfile::tempdir().expect("temp dir");
    let mut app = spawn_app_in(temp.path(), extra).await;
    app._temp = Some(temp);
    app
}

/// Starts the real application on a data dir the caller owns (two servers may share one).
pub async fn spawn_app_in(data_dir: &std::path::Path, extra: &[(&str, &str)]) -> TestApp {
    let data = data_dir.display().to_string();
    let mut vars = vec![("DIGEST_DATA_DIR", data.as_str())];
    vars.extend_from_slice(extra);
    let env = test_support::app::env(&vars);
    let settings = Settings::from_env(&env).expect("test settings are valid");
    let app = Application::build(settings).await.expect("app builds");
    let http = test_support::app::Http::new(app.port());
    tokio::spawn(app.run_until_stopped());
    TestApp {
        http,
        _temp: None,
        data_dir: data_dir.to_owned(),
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(&[]).await
}

impl TestApp {
    pub fn data_dir(&self) -> &std::path::Path {
        &self.data_dir
    }

    /// Writes `digest` as the data dir's digest.json (what the refresh job does).
    pub fn write_digest(&self, digest: &serde_json::Value) {
        std::fs::write(
            self.data_dir().join("digest.json"),
            serde_json::to_vec(digest).unwrap(),
        )
        .unwrap();
    }

    /// The run store, as the refresh job sees it.
    pub fn store(&self) -> rusqlite::Connection {
        digest_web::store::open(self.data_dir()).unwrap()
    }
}

/// A digest with one email per category, the first with a script subject.
pub fn sample_digest() -> serde_json::Value {
    let item = |id: &str, subject: &str| {
        serde_json::json!({"id": id, "subject": subject, "from": "ops@example.com",
            "date": "2026-11-21", "snippet": "Please look at this"})
    };
    serde_json::json!({
        "generated_at": "2026-11-21T09:30:00",
        "categories": {
            "Need-Action": [item("m1", "<script>alert(1)</script>"), item("m2", "Approve the invoice")],
            "FYI": [item("m3", "Build passed")],
            "Newsletter": [],
            "Promotional": [item("m4", "50% off")],
            "Social": []
        },
        "summaries": {"Need-Action": "Two emails need a reply."},
        "stats": {"total_emails": 4, "api_calls": 2, "execution_time": 1.25}
    })
}

/// A digest body without the fields acting on mail appends (`unsubscribe`, `replies`,
/// `waiting`, `sent_mail_read`, computed per request): what the job wrote.
pub fn as_written(mut digest: serde_json::Value) -> serde_json::Value {
    if let Some(object) = digest.as_object_mut() {
        for key in ["unsubscribe", "replies", "waiting", "sent_mail_read"] {
            object.remove(key);
        }
    }
    digest
}
