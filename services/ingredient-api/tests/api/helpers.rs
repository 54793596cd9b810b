use ingredient_api::configuration::Settings;
use ingredient_api::startup::Application;
use service_kit::config::EnvSource;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
}

/// Starts the real application on a random loopback port. `extra` overrides settings.
pub async fn spawn_app_with(extra: &[(&str, &str)]) -> TestApp {
    service_kit::telemetry::init_for_tests();
    let mut env = EnvSource::from_pairs([("HOST", "127.0.0.1"), ("PORT", "0"), ("WORKERS", "2")]);
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

    pub async fn post_json(&self, path: &str, body: &serde_json::Value) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.address))
            .json(body)
            .send()
            .await
            .expect("request sent")
    }

    pub async fn post_raw(
        &self,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.address))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .expect("request sent")
    }
}

pub async fn json(res: reqwest::Response) -> serde_json::Value {
    res.json().await.expect("body is JSON")
}
