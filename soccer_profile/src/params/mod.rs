//! The soccer parameters: `behavior_node.json5`, `search_suggestor.json5` and `field.json5`
//! of a parameters folder (`base/`, then `location/NAME/`, then `robot/NAME/`, merged key by
//! key), typed with their names and defaults and validated at load.

mod behavior;
mod field;
mod load;
mod search_suggestor;

pub use behavior::*;
pub use field::FieldDimensions;
pub use load::{FILE_STEMS, LoadError, load};
pub use search_suggestor::SearchSuggestorParameters;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every soccer parameter file of one robot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Parameters {
    /// `behavior_node.json5`.
    pub behavior_node: BehaviorParameters,
    /// `search_suggestor.json5`.
    pub search_suggestor: SearchSuggestorParameters,
    /// `field.json5`.
    pub field: FieldDimensions,
}

impl Parameters {
    /// Every range problem of the three files, each with the file stem it belongs to.
    pub fn problems(&self) -> Vec<(&'static str, Problem)> {
        let mut out = Vec::new();
        let mut one = Vec::new();
        self.behavior_node.validate(&mut one);
        out.extend(one.drain(..).map(|p| ("behavior_node", p)));
        self.search_suggestor.validate(&mut one);
        self.search_suggestor.validate_on(&self.field, &mut one);
        out.extend(one.drain(..).map(|p| ("search_suggestor", p)));
        self.field.validate(&mut one);
        out.extend(one.drain(..).map(|p| ("field", p)));
        out
    }
}

/// A parameter that breaks a rule: its dotted key path inside its file and the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Dotted key path (`ball.last_ball_timeout`).
    pub path: String,
    /// What is wrong (`must be finite and >= 0`).
    pub message: String,
}

impl Problem {
    /// A problem of `path`.
    pub fn new(path: &str, message: &str) -> Self {
        Self {
            path: path.to_owned(),
            message: message.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_that_drive_allocations_have_upper_bounds() {
        let mut p = Parameters::default();
        p.field.length = 1e300;
        p.field.border_strip_width = 11.0;
        let problems = p.problems();
        assert_eq!(
            problems,
            vec![
                ("field", Problem::new("length", "must be at most 100 m")),
                (
                    "field",
                    Problem::new("border_strip_width", "must be at most 10 m")
                ),
            ]
        );
        // 1000 cells along a 1 m x 100 m field would be 1000 x 100000 heatmap cells.
        let mut p = Parameters::default();
        p.search_suggestor.cells_along_field_length = 1000;
        p.field.width = 100.0;
        p.field.length = 100.0;
        assert!(p.problems().is_empty(), "{:?}", p.problems());
        p.field.length = 50.0;
        let problems = p.problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, "search_suggestor");
        assert_eq!(problems[0].1.path, "cells_along_field_length");
        assert!(
            problems[0]
                .1
                .message
                .starts_with("gives 1000 x 2000 heatmap cells"),
            "{}",
            problems[0].1.message
        );
    }

    #[test]
    fn the_defaults_are_valid_and_match_the_documented_ones() {
        let p = Parameters::default();
        assert!(p.problems().is_empty(), "{:?}", p.problems());
        let b = &p.behavior_node;
        assert_eq!(b.goalkeeper.player_number, 1);
        assert_eq!(b.kickoff.striker_position, [-0.13, 0.0]);
        assert_eq!(b.ball.last_ball_timeout, 2.0);
        assert_eq!(b.ball.closest_to_ball.exit_duration, 0.15);
        assert_eq!(b.team.remaining_amount_of_messages_to_stop_sending, 20);
        assert_eq!(b.walking.speed.search, 0.4);
        assert_eq!(b.head.maximum_yaw, 2.0);
        assert_eq!(p.field.length, 9.0);
        assert_eq!(p.search_suggestor.cells_along_field_length, 18);
    }

    #[test]
    fn range_problems_name_their_keys() {
        let mut p = Parameters::default();
        p.behavior_node.goalkeeper.player_number = 9;
        p.search_suggestor.fallback_minimum_search_priority = 0.5;
        p.field.width = -1.0;
        let keys: Vec<_> = p
            .problems()
            .into_iter()
            .map(|(f, p)| format!("{f}:{}", p.path))
            .collect();
        assert_eq!(
            keys,
            [
                "behavior_node:goalkeeper.player_number",
                "search_suggestor:fallback_minimum_search_priority",
                "field:width"
            ]
        );
    }
}
