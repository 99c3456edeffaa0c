//! The file watcher of hot reload: on a burst of changes to a profile's files, its loader
//! runs in a background thread and the result waits for the tick loop.

use super::reload::{Reload, load_checked};
use notify::{RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// Watches a profile's files and reloads them when they change; `R` is the loader's result.
pub struct ReloadWatcher<R = Reload> {
    _watcher: notify::RecommendedWatcher,
    results: Receiver<R>,
}

/// Quiet time after the last change before loading, so an editor's several writes load once.
const DEBOUNCE: Duration = Duration::from_millis(150);

impl ReloadWatcher {
    /// Watches a RoboMaster configuration: `files` are its files, reloaded from `config`.
    pub fn start(config: &Path, files: &[&Path]) -> notify::Result<Self> {
        let config = config.to_path_buf();
        let files: Vec<PathBuf> = files.iter().map(|f| f.to_path_buf()).collect();
        ReloadWatcher::start_with(&files, Box::new(move || load_checked(&config)))
    }
}

impl<R: Send + 'static> ReloadWatcher<R> {
    /// Starts watching the folders of `files` (editors replace files, so folders are watched);
    /// after each burst of changes `load` runs in a background thread.
    pub fn start_with(files: &[PathBuf], load: Box<dyn Fn() -> R + Send>) -> notify::Result<Self> {
        let (change_tx, change_rx) = channel::<()>();
        let watched: Vec<PathBuf> = files.iter().filter_map(|f| f.canonicalize().ok()).collect();
        let names = watched.clone();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                if let Ok(event) = event {
                    let relevant = event.paths.iter().any(|p| {
                        let p = p.canonicalize().unwrap_or_else(|_| p.clone());
                        names
                            .iter()
                            .any(|n| *n == p || n.file_name() == p.file_name())
                    });
                    if relevant && !matches!(event.kind, notify::EventKind::Access(_)) {
                        let _ = change_tx.send(());
                    }
                }
            })?;
        let mut folders: Vec<PathBuf> = watched
            .iter()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .collect();
        folders.sort();
        folders.dedup();
        for folder in &folders {
            watcher.watch(folder, RecursiveMode::NonRecursive)?;
        }
        let (result_tx, results) = channel();
        std::thread::Builder::new()
            .name("reload".into())
            .spawn(move || reload_loop(&*load, &change_rx, &result_tx))
            .map_err(|e| notify::Error::generic(&e.to_string()))?;
        Ok(Self {
            _watcher: watcher,
            results,
        })
    }

    /// A finished reload, if any (never blocks).
    pub fn poll(&self) -> Option<R> {
        self.results.try_recv().ok()
    }

    /// Waits up to `timeout` for a finished reload.
    pub fn wait(&self, timeout: Duration) -> Option<R> {
        self.results.recv_timeout(timeout).ok()
    }
}

fn reload_loop<R>(load: &dyn Fn() -> R, changes: &Receiver<()>, results: &Sender<R>) {
    while changes.recv().is_ok() {
        // Debounce: wait until the files have been quiet for a moment.
        while changes.recv_timeout(DEBOUNCE).is_ok() {}
        if results.send(load()).is_err() {
            return;
        }
    }
}
