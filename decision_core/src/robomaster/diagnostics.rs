//! Diagnostics of `check` and of loading: errors and warnings, each with file, line, column,
//! the decision or waypoint it belongs to, and the field.

use super::jsonc::Pos;
use serde::Serialize;
use std::fmt;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The files are still usable; the behaviour may not be what the author meant.
    Warning,
    /// The files cannot be used.
    Error,
}

/// One finding about the input files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The file the finding is in.
    pub file: String,
    /// 1-based line (0 when the finding concerns the whole file).
    pub line: u32,
    /// 1-based column (0 when the finding concerns the whole file).
    pub column: u32,
    /// The decision or waypoint concerned, e.g. `decision 3 "retreat"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The field concerned, e.g. `minHP` or `enemyPosition[2]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {severity}: ",
            self.file, self.line, self.column
        )?;
        if let Some(subject) = &self.subject {
            write!(f, "{subject}: ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "`{field}`: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Where a diagnostic points: a file, a position and an optional subject.
#[derive(Debug, Clone)]
pub struct Place<'a> {
    /// File name as shown to the user.
    pub file: &'a str,
    /// The decision or waypoint, if any.
    pub subject: Option<&'a str>,
}

/// An ordered collection of diagnostics.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Adds an error at `pos`.
    pub fn error(
        &mut self,
        place: &Place,
        pos: Pos,
        field: Option<&str>,
        message: impl Into<String>,
    ) {
        self.push(Severity::Error, place, pos, field, message.into());
    }

    /// Adds a warning at `pos`.
    pub fn warning(
        &mut self,
        place: &Place,
        pos: Pos,
        field: Option<&str>,
        message: impl Into<String>,
    ) {
        self.push(Severity::Warning, place, pos, field, message.into());
    }

    fn push(
        &mut self,
        severity: Severity,
        place: &Place,
        pos: Pos,
        field: Option<&str>,
        message: String,
    ) {
        self.items.push(Diagnostic {
            severity,
            file: place.file.to_string(),
            line: pos.line,
            column: pos.column,
            subject: place.subject.map(str::to_string),
            field: field.map(str::to_string),
            message,
        });
    }

    /// Appends all of `other`.
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    /// All diagnostics in the order found.
    pub fn items(&self) -> &[Diagnostic] {
        &self.items
    }

    /// Whether any is an error.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    /// The errors, which keep the tables from loading (a reload is rejected).
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| d.severity == Severity::Error)
    }

    /// The warnings, which load anyway (lint findings, coerced values).
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Warning)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for item in &self.items {
            writeln!(f, "{item}")?;
        }
        Ok(())
    }
}

impl Diagnostics {
    /// Adds an engine compile error (unknown leaf, bad param) as an error diagnostic.
    pub fn compile_error(&mut self, e: &crate::engine::CompileError) {
        let (file, line, column) = e.span.as_ref().map_or((String::new(), 0, 0), |s| {
            (s.file.clone(), s.line, s.column)
        });
        self.items.push(Diagnostic {
            severity: Severity::Error,
            file,
            line,
            column,
            subject: Some(e.node_path.clone()),
            field: None,
            message: e.message.clone(),
        });
    }
}
