use ingredient_api::configuration::Settings;
use ingredient_api::startup::Application;
pub use test_support::app::json;

/// The application under test and a client bound to it (`get`, `post_json`, `post_raw`,
/// `address`, `client` come from [`test_support::app::Http`]).
pub struct TestApp {
    http: test_support::app::Http,
}

impl std::ops::Deref for TestApp {
    type Target = test_support::app::Http;

    fn deref(&self) -> &Self::Target {
        &self.http
    }
}

/// Starts the real application on a random loopback port. `extra` overrides settings.
pub async fn spawn_app_with(extra: &[(&str, &str)]) -> TestApp {
    let env = test_support::app::env(extra);
    let settings = Settings::from_env(&env).expect("test settings are valid");
    let app = Application::build(settings).await.expect("app builds");
    let http = test_support::app::Http::new(app.port());
    tokio::spawn(app.run_until_stopped());
    TestApp { http }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(&[]).await
}
