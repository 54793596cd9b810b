//! Both services in one process, each on its own port, answering their health contracts.

use serde_json::json;
use service_kit::config::EnvSource;

fn env() -> EnvSource {
    EnvSource::from_pairs([("HOST", "127.0.0.1"), ("PORT", "0"), ("WORKERS", "1")])
}

#[tokio::test]
async fn both_services_run_side_by_side() {
    let ingredient = ingredient_api::startup::Application::build(
        ingredient_api::configuration::Settings::from_env(&env()).unwrap(),
    )
    .await
    .unwrap();
    let data = std::env::temp_dir().join(format!("e2e-digest-{}", std::process::id()));
    let mut digest_env = env();
    digest_env.set("DIGEST_DATA_DIR", data.display().to_string());
    let digest = digest_web::web::startup::Application::build(
        digest_web::web::configuration::Settings::from_env(&digest_env).unwrap(),
    )
    .await
    .unwrap();
    let (ip, dp) = (ingredient.port(), digest.port());
    assert_ne!(ip, dp);
    tokio::spawn(ingredient.run_until_stopped());
    tokio::spawn(digest.run_until_stopped());

    let client = reqwest::Client::new();
    let a: serde_json::Value = client
        .get(format!("http://127.0.0.1:{ip}/health"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let b: serde_json::Value = client
        .get(format!("http://127.0.0.1:{dp}/health"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(a, json!({"status": "healthy"}));
    assert_eq!(b, json!({"status": "healthy"}));
    std::fs::remove_dir_all(data).ok();
}
