//! Helpers shared by the integration tests: fixture paths, PGM reading, hashing.
#![allow(dead_code)] // each test binary uses a different subset

use std::error::Error;
use std::path::{Path, PathBuf};

/// Boxed error for tests that read files.
pub type TestResult<T = ()> = Result<T, Box<dyn Error>>;

/// `tests/fixtures/NAME` of this crate.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

/// A binary (P5) 8-bit PGM as (width, height, pixels).
pub fn read_pgm(path: &Path) -> TestResult<(u32, u32, Vec<u8>)> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut fields = Vec::new();
    let mut pos = 0;
    while fields.len() < 4 {
        // skip whitespace and comments
        while let Some(&b) = bytes.get(pos) {
            if b == b'#' {
                while bytes.get(pos).is_some_and(|&b| b != b'\n') {
                    pos += 1;
                }
            } else if b.is_ascii_whitespace() {
                pos += 1;
            } else {
                break;
            }
        }
        let start = pos;
        while bytes.get(pos).is_some_and(|b| !b.is_ascii_whitespace()) {
            pos += 1;
        }
        let tok = bytes.get(start..pos).ok_or("truncated PGM header")?;
        if tok.is_empty() {
            return Err(format!("{}: truncated PGM header", path.display()).into());
        }
        fields.push(String::from_utf8_lossy(tok).into_owned());
        pos += 1; // the single whitespace after each field
    }
    if fields[0] != "P5" || fields[3] != "255" {
        return Err(format!("{}: not an 8-bit P5 PGM", path.display()).into());
    }
    let w: u32 = fields[1].parse()?;
    let h: u32 = fields[2].parse()?;
    let data = bytes.get(pos..).ok_or("no PGM data")?.to_vec();
    if data.len() != (w as usize) * (h as usize) {
        return Err(format!(
            "{}: {} data bytes for {w} x {h}",
            path.display(),
            data.len()
        )
        .into());
    }
    Ok((w, h, data))
}

/// FNV-1a 64 of a byte slice (the hash `make_fixture.py` writes).
pub fn fnv1a64(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Describes the first few differing pixels of two equally sized images.
pub fn diff_report(w: u32, got: &[u8], want: &[u8]) -> String {
    if got.len() != want.len() {
        return format!("length {} vs {}", got.len(), want.len());
    }
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .take(8)
        .map(|(i, (a, b))| format!("({}, {}): got {a} want {b}", i as u32 % w, i as u32 / w))
        .collect();
    let n = got.iter().zip(want).filter(|(a, b)| a != b).count();
    format!("{n} pixels differ; first: {}", bad.join(", "))
}
