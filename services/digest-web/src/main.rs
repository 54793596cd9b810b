use digest_web::web::configuration::Settings;
use digest_web::web::startup::Application;
use service_kit::config::EnvSource;
use service_kit::telemetry;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let settings = Settings::from_env(&EnvSource::from_process()?)?;
    telemetry::init(settings.log_format, "info");
    Application::build(settings)
        .await?
        .run_until_stopped()
        .await?;
    Ok(())
}
