use clap::Parser;
use ingredient_api::cli::{Cli, Command, run_analyze};
use ingredient_api::configuration::Settings;
use ingredient_api::startup::Application;

/// jemalloc rather than glibc's malloc: `/analyze` allocates many small short-lived objects on
/// two worker threads, where jemalloc's thread caches cut the server's CPU per request by a
/// quarter, and under concurrent OCR its peak resident size was lower (83 vs 100 MB). Its
/// settings are compiled in from `.cargo/config.toml`.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Some(Command::Analyze(args)) => {
            let code =
                match run_analyze(&args, &mut std::io::stdout().lock(), &mut std::io::stderr()) {
                    Ok(code) => code,
                    // `ingredient-api analyze ... | head` closes the pipe early: not an error.
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
                    Err(e) => return Err(e.into()),
                };
            std::process::exit(code);
        }
        None => {
            // Before any thread starts: the server's OCR keeps its peak memory down with these.
            ingredient_api::ocr::memory::exec_with_malloc_tunables();
            serve()
        }
    }
}

#[actix_web::main]
async fn serve() -> anyhow::Result<()> {
    service_kit::server::run(Settings::from_env, Application::build).await
}
