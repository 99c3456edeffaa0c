//! The obstacle map: the field PNG as grey pixels resized like the original, the
//! metres <-> pixels mapping, and line-of-sight tests (in [`sight`]).
//!
//! Loading reproduces the original bit for bit: grey as OpenCV's `imread(IMREAD_GRAYSCALE)`
//! ([`grey`]), then OpenCV's `INTER_LINEAR` resize to `int(W/H*1080)` x 1080 ([`resize`]).

mod error;
pub mod grey;
mod png_chunks;
pub mod resize;
pub mod sight;

use std::path::{Path, PathBuf};

pub use error::{MapError, MapOrigin};
pub use grey::{GreyImage, decode_png_grey, rgb8_to_grey};
pub use resize::{MAP_ROWS, resize_linear_u8, target_size};
pub use sight::Samples;

/// Grey values strictly below this are walls (the original's threshold).
pub const WALL_GREY: u8 = 10;

/// Widest resized map accepted (a W/H ratio above ~60 is not a field).
pub const MAX_COLS: u32 = 65_536;

/// The field's obstacle map after resizing: `cols` x `rows` grey pixels, row-major, origin
/// top-left, rows growing with world y; black (grey < [`WALL_GREY`]) is a wall.
#[derive(Debug, Clone, PartialEq)]
pub struct ObstacleMap {
    pixels: Vec<u8>,
    cols: u32,
    rows: u32,
    real_width: f32,
    real_height: f32,
}

impl ObstacleMap {
    /// Loads the field PNG, converts it to grey and resizes it exactly like the original
    /// (OpenCV `imread` grey + `INTER_LINEAR` to `int(W/H*1080)` x 1080).
    pub fn load_png(path: &Path, real_width: f32, real_height: f32) -> Result<Self, MapError> {
        let bytes = std::fs::read(path).map_err(|source| MapError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let img = decode_png_grey(&bytes).map_err(|source| MapError::Decode {
            path: path.to_path_buf(),
            source,
        })?;
        Self::build(
            img.width,
            img.height,
            img.pixels,
            real_width,
            real_height,
            MapOrigin(Some(PathBuf::from(path))),
        )
    }

    /// Builds the map from an already grey `width` x `height` image (row-major), resizing it
    /// like [`Self::load_png`] does.
    pub fn from_grey(
        width: u32,
        height: u32,
        grey: Vec<u8>,
        real_width: f32,
        real_height: f32,
    ) -> Result<Self, MapError> {
        Self::build(
            width,
            height,
            grey,
            real_width,
            real_height,
            MapOrigin(None),
        )
    }

    /// Checks sizes and resizes; shared by both constructors.
    fn build(
        width: u32,
        height: u32,
        grey: Vec<u8>,
        real_width: f32,
        real_height: f32,
        origin: MapOrigin,
    ) -> Result<Self, MapError> {
        let bad = |reason: String| MapError::BadSize {
            origin: origin.clone(),
            reason,
        };
        if width == 0 || height == 0 {
            return Err(MapError::Empty {
                origin: origin.clone(),
                width,
                height,
            });
        }
        let needed = u64::from(width) * u64::from(height);
        if grey.len() as u64 != needed {
            return Err(bad(format!(
                "{} grey bytes for a {width} x {height} image (expected {needed})",
                grey.len()
            )));
        }
        if !(real_width.is_finite() && real_height.is_finite())
            || real_width <= 0.0
            || real_height <= 0.0
        {
            return Err(bad(format!(
                "field size {real_width} x {real_height} m must be finite and positive"
            )));
        }
        let (cols, rows) = target_size(real_width, real_height);
        if cols == 0 || cols > MAX_COLS {
            return Err(bad(format!(
                "field {real_width} x {real_height} m gives {cols} map columns (allowed 1..={MAX_COLS})"
            )));
        }
        let pixels = resize_linear_u8(&grey, width, height, cols, rows);
        Ok(Self {
            pixels,
            cols,
            rows,
            real_width,
            real_height,
        })
    }

    /// Map width in pixels (`int(W/H*1080)`).
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// Map height in pixels (1080).
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Field width in metres.
    pub fn real_width(&self) -> f32 {
        self.real_width
    }

    /// Field height in metres.
    pub fn real_height(&self) -> f32 {
        self.real_height
    }

    /// The resized grey pixels, row-major, `cols * rows` bytes (for viewers and tests).
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// Pixel `(col, row)` of a point in metres: `col = int(x / W * cols)`,
    /// `row = int(y / H * rows)`, all in `f32`, truncating toward zero like C++ `int()`.
    pub fn to_pixel(&self, x: f32, y: f32) -> (i64, i64) {
        let (c, r) = self.to_pixel_f32(x, y);
        (c as i64, r as i64)
    }

    /// The continuous pixel coordinates behind [`Self::to_pixel`] (before truncation).
    pub fn to_pixel_f32(&self, x: f32, y: f32) -> (f32, f32) {
        (
            x / self.real_width * self.cols as f32,
            y / self.real_height * self.rows as f32,
        )
    }

    /// Metres of a (fractional) pixel position: the inverse of [`Self::to_pixel_f32`], for a
    /// viewer's mouse hover.
    pub fn to_metres(&self, col: f64, row: f64) -> (f32, f32) {
        (
            (col / f64::from(self.cols) * f64::from(self.real_width)) as f32,
            (row / f64::from(self.rows) * f64::from(self.real_height)) as f32,
        )
    }

    /// Grey value at `(col, row)`, `None` outside the map.
    pub fn grey(&self, col: i64, row: i64) -> Option<u8> {
        let c = u32::try_from(col).ok().filter(|&c| c < self.cols)?;
        let r = u32::try_from(row).ok().filter(|&r| r < self.rows)?;
        let i = r as usize * self.cols as usize + c as usize;
        self.pixels.get(i).copied()
    }

    /// Whether `(col, row)` blocks sight: grey < [`WALL_GREY`], or outside the map.
    pub fn is_wall_px(&self, col: i64, row: i64) -> bool {
        self.grey(col, row).is_none_or(|g| g < WALL_GREY)
    }
}
