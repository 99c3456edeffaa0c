//! The native window around a view: its first size fitted to the monitor it opened on, and the
//! frame pacing and closing of smoke runs (`--screenshot-after-frames`).

use egui::{Vec2, ViewportCommand};

/// The part of the monitor a window may take when it does not fit (room for taskbars).
const MONITOR_SHARE: f32 = 0.92;
/// The smallest inner size a fitted window gets, in points.
const MIN_INNER: Vec2 = Vec2::new(640.0, 400.0);

/// The inner size a window of `outer` / `inner` points should take on a monitor of `monitor`
/// points, or `None` when it fits already (or the monitor is unknown).
pub fn fitted_inner_size(outer: Vec2, inner: Vec2, monitor: Vec2) -> Option<Vec2> {
    if !(monitor.x > 0.0 && monitor.y > 0.0) {
        return None;
    }
    let room = monitor * MONITOR_SHARE;
    if outer.x <= room.x && outer.y <= room.y {
        return None;
    }
    // The title bar and frame stay as they are: only the inner part shrinks.
    let decoration = (outer - inner).max(Vec2::ZERO);
    Some((room - decoration).max(MIN_INNER).min(inner))
}

/// Fits the window to its monitor once, as soon as the platform reports the monitor size.
#[derive(Debug, Default)]
pub struct WindowFit {
    done: bool,
}

impl WindowFit {
    /// Shrinks the window when it is larger than its monitor (first frames only).
    pub fn apply(&mut self, ctx: &egui::Context) {
        if self.done {
            return;
        }
        let info = ctx.input(|i| {
            let v = i.viewport();
            (v.monitor_size, v.inner_rect, v.outer_rect)
        });
        let (Some(monitor), Some(inner)) = (info.0, info.1) else {
            return; // not known yet (or a headless harness): try again next frame
        };
        self.done = true;
        let outer = info.2.unwrap_or(inner);
        // Resized in place: egui knows the monitor's size but not where it is on the desktop,
        // so moving the window could put it on another screen.
        if let Some(size) = fitted_inner_size(outer.size(), inner.size(), monitor) {
            ctx.send_viewport_cmd(ViewportCommand::InnerSize(size));
        }
    }
}

/// For smoke runs: closes the window once `frames` reached `close_after`, and until then
/// paces frames so that N frames take at least N / 20 s on any machine.
pub fn close_after_frames(ctx: &egui::Context, frames: u64, close_after: Option<u64>) {
    let Some(n) = close_after else { return };
    if frames >= n {
        ctx.send_viewport_cmd(ViewportCommand::Close);
    } else {
        ctx.request_repaint_after(std::time::Duration::from_millis(50));
    }
}

#[cfg(test)]
mod tests {
    use super::fitted_inner_size;
    use egui::Vec2;

    #[test]
    fn a_window_that_fits_its_monitor_keeps_its_size() {
        let inner = Vec2::new(1280.0, 800.0);
        let outer = inner + Vec2::new(0.0, 30.0);
        assert_eq!(
            fitted_inner_size(outer, inner, Vec2::new(1920.0, 1080.0)),
            None
        );
        assert_eq!(
            fitted_inner_size(outer, inner, Vec2::ZERO),
            None,
            "unknown monitor"
        );
    }

    #[test]
    fn a_window_larger_than_its_monitor_shrinks_to_it_with_its_decoration() {
        let inner = Vec2::new(1280.0, 800.0);
        let outer = inner + Vec2::new(0.0, 30.0);
        let fitted = fitted_inner_size(outer, inner, Vec2::new(1024.0, 768.0)).expect("shrinks");
        assert_eq!(fitted.x, 1024.0 * 0.92);
        assert_eq!(fitted.y, 768.0 * 0.92 - 30.0);
        // Only what is too large shrinks: a wide, low monitor keeps the height.
        let wide = fitted_inner_size(outer, inner, Vec2::new(1200.0, 2000.0)).expect("shrinks");
        assert_eq!(wide, Vec2::new(1200.0 * 0.92, 800.0));
        // A tiny monitor still gets a usable window.
        let tiny = fitted_inner_size(outer, inner, Vec2::new(320.0, 240.0)).expect("shrinks");
        assert_eq!(tiny, Vec2::new(640.0, 400.0));
    }
}
