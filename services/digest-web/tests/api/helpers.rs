use digest_web::configuration::Settings;
use digest_web::startup::Application;
use service_kit::config::EnvSource;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    /// Kept alive for the test's duration; removed on drop.
    pub _data_dir: tempfile::TempDir,
}

/// Starts the real application on a random loopback port with a fresh data dir.
pub async fn spawn_app_with(extra: &[(&str, &str)]) -> TestApp {
    service_kit::telemetry::init_for_tests();
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut env = EnvSource::from_pairs([("HOST", "127.0.0.1"), ("PORT", "0"), ("WORKERS", "2")]);
    env.set("DIGEST_DATA_DIR", data_dir.path().display().to_string());
    for (k, v) in extra {
        env.set(*k, *v);
    }
    let settings = Settings::from_env(&env).expect("test settings are valid");
    let app = Application::build(settings).await.expect("app builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::new(),
        _data_dir: data_dir,
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(&[]).await
}

impl TestApp {
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.address))
            .send()
            .await
            .expect("request sent")
    }
}

pub async fn json(res: reqwest::Response) -> serde_json::Value {
    res.json().await.expect("body is JSON")
}
