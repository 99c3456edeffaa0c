//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use bt_xml::{Diagnostic, Document};

/// Absolute path of a fixture file.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Loads a fixture that must load.
pub fn load_ok(name: &str) -> Document {
    match bt_xml::load_file(&fixture(name)) {
        Ok(doc) => doc,
        Err(diags) => panic!("{name} should load, got {diags:#?}"),
    }
}

/// Loads a fixture that must fail.
pub fn load_err(name: &str) -> Vec<Diagnostic> {
    match bt_xml::load_file(&fixture(name)) {
        Ok(doc) => panic!("{name} should not load, got {doc:#?}"),
        Err(diags) => diags,
    }
}

/// Asserts one diagnostic's file, line, column and exact message.
#[track_caller]
pub fn assert_diag(d: &Diagnostic, file: &Path, line: u32, column: u32, message: &str) {
    assert_eq!(
        (
            d.position.file.as_path(),
            d.position.line,
            d.position.column,
            d.message.as_str()
        ),
        (file, line, column, message),
        "{d}"
    );
}
