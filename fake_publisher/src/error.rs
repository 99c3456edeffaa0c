//! Errors of a scenario: each problem names the file, line, column and field.

use std::fmt;
use std::path::PathBuf;

/// One thing wrong with a scenario (or with the field it names), with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file the problem is in (the scenario, or a file of the field).
    pub file: PathBuf,
    /// 1-based line; 0 when the problem concerns the whole file.
    pub line: usize,
    /// 1-based column; 0 when the problem concerns the whole file.
    pub column: usize,
    /// The field concerned, as a path like `robots.B1.patrol[2]`; empty for syntax errors.
    pub field: String,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file.display(), self.line, self.column)?;
        if !self.field.is_empty() {
            write!(f, "`{}`: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

/// Why a scenario cannot be used: one or more [`Problem`]s, in file order where known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ScenarioError {
    /// Every problem found (at least one).
    pub problems: Vec<Problem>,
}

impl ScenarioError {
    /// An error of a single problem.
    pub fn single(problem: Problem) -> Self {
        Self {
            problems: vec![problem],
        }
    }

    /// The first problem (there is always one).
    pub fn first(&self) -> Option<&Problem> {
        self.problems.first()
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}
