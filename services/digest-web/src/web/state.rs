//! What every handler shares: the settings, the refresh controller, the templates and the
//! one-test-run-at-a-time flag.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::store::Pool;
use crate::store::digest_file::DigestCache;
use crate::web::configuration::Settings;
use crate::web::pages::Templates;
use crate::web::refresh::RefreshControl;

/// Application state, built once at start-up and shared by every worker.
pub struct AppState {
    /// The settings read at start-up.
    pub settings: Settings,
    /// The refresh state machine.
    pub refresh: RefreshControl,
    /// Connections to the run store, reused across requests.
    pub store: Arc<Pool>,
    /// The digest file, parsed once per version.
    pub digest: DigestCache,
    /// The parsed templates.
    pub templates: Templates,
    /// Whether a test suite is running in this process.
    pub tests_running: AtomicBool,
    /// Carries out unsubscribes.
    pub unsubscriber: crate::web::unsubscribe::Unsubscriber,
    /// Held while a correction reads, changes and rewrites `digest.json`.
    pub digest_edit: Mutex<()>,
}

impl AppState {
    /// Builds the state; fails only if a template does not parse.
    pub fn new(settings: Settings) -> Result<Self, tera::Error> {
        let store = Arc::new(Pool::new(&settings.data_dir));
        Ok(Self {
            refresh: RefreshControl::new(&settings, store.clone()),
            store,
            digest: DigestCache::new(&settings.data_dir),
            templates: Templates::load()?,
            tests_running: AtomicBool::new(false),
            digest_edit: Mutex::new(()),
            unsubscriber: crate::web::unsubscribe::Unsubscriber::new(&settings.unsubscribe),
            settings,
        })
    }
}

impl AppState {
    /// The digest-edit lock (a panic while holding it leaves nothing half-done in memory).
    pub fn edit_lock(&self) -> MutexGuard<'_, ()> {
        self.digest_edit
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
