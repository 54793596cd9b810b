use digest_web::web::configuration::Settings;
use digest_web::web::startup::Application;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    service_kit::server::run(Settings::from_env, Application::build).await
}
