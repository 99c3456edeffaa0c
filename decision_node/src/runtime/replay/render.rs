//! The reports in words, as `replay` prints them, and what the command needs of a report
//! of either profile ([`ReplayReport`]).

use super::soccer::SoccerReport;
use super::{DiffReport, SpanSide};
use serde::Serialize;

/// A replay's report as the command prints it: as JSON (its serialisation) or in words.
pub trait ReplayReport: Serialize {
    /// Whether both sides decided alike (the command exits with 0, else 1).
    fn identical(&self) -> bool;
    /// The report in words.
    fn text(&self) -> String;
    /// Warnings to print beside the report (a cut file, a missing config).
    fn warnings(&self) -> &[String];
}

impl ReplayReport for DiffReport {
    fn identical(&self) -> bool {
        self.identical
    }

    fn text(&self) -> String {
        render_text(self)
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

impl ReplayReport for SoccerReport {
    fn identical(&self) -> bool {
        self.identical
    }

    fn text(&self) -> String {
        render_soccer_text(self)
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

/// The report in words, one span per paragraph (warnings are not included).
pub fn render_text(report: &DiffReport) -> String {
    let mut out = String::new();
    let who = |s: &SpanSide| {
        if !s.ticked {
            return "(no tick)".to_string();
        }
        match (s.id, &s.name) {
            (Some(id), Some(name)) => format!("{id} \"{name}\""),
            (Some(id), None) => id.to_string(),
            (None, _) => "none".to_string(),
        }
    };
    for span in &report.spans {
        out.push_str(&format!(
            "{:7.1} s .. {:7.1} s ({} tick(s)): decision {} -> {}\n",
            span.start,
            span.end,
            span.ticks,
            who(&span.old),
            who(&span.new)
        ));
        if let (Some(reason), Some(id)) = (&span.old.why_not_other, span.new.id) {
            out.push_str(&format!("    old, why not {id}: {reason}\n"));
        }
        if let (Some(reason), Some(id)) = (&span.new.why_not_other, span.old.id) {
            out.push_str(&format!("    new, why not {id}: {reason}\n"));
        }
    }
    let verdict = if report.identical {
        "identical decisions".to_string()
    } else {
        format!("{} span(s) with different decisions", report.spans.len())
    };
    out.push_str(&format!(
        "{verdict}: old {} ({} ticks), new {} ({} ticks); traces {}\n",
        report.old,
        report.old_ticks,
        report.new,
        report.new_ticks,
        if report.traces_identical {
            "identical".to_string()
        } else {
            format!("differ at {} tick(s)", report.trace_mismatches)
        }
    ));
    out
}

/// A soccer report in words: a line per robot with its differing spans, then the verdict.
pub fn render_soccer_text(report: &SoccerReport) -> String {
    let mut text = String::new();
    for robot in &report.robots {
        text.push_str(&format!(
            "{}: {} ticks, {} identical to {}, {} span(s) differ\n",
            robot.robot.trim_end_matches('/'),
            robot.ticks,
            robot.identical_ticks,
            report.compared_with,
            robot.spans.len()
        ));
        for span in robot.spans.iter().take(20) {
            text.push_str(&format!(
                "  {:.2}-{:.2}  {}  ->  {}\n",
                span.from, span.to, span.old, span.new
            ));
        }
        if robot.spans.len() > 20 {
            text.push_str(&format!("  ... {} more\n", robot.spans.len() - 20));
        }
    }
    text.push_str(if report.identical {
        "identical decisions\n"
    } else {
        "decisions differ\n"
    });
    text
}

#[cfg(test)]
mod tests {
    use super::render_text;
    use crate::runtime::replay::{DiffReport, Span, SpanSide};

    fn side(id: Option<i32>, name: Option<&str>, why: Option<&str>) -> SpanSide {
        SpanSide {
            ticked: true,
            id,
            name: name.map(str::to_string),
            why_not_other: why.map(str::to_string),
            why_not: Default::default(),
        }
    }

    #[test]
    fn a_span_reads_as_times_decisions_and_reasons_then_the_verdict() {
        let report = DiffReport {
            identical: false,
            old: "recorded".into(),
            new: "edited/config.json".into(),
            old_ticks: 10,
            new_ticks: 10,
            traces_identical: false,
            trace_mismatches: 3,
            spans: vec![Span {
                start: 12.0,
                end: 12.4,
                ticks: 3,
                first_tick: 120,
                last_tick: 124,
                old: side(
                    Some(3),
                    Some("hold_fire_point"),
                    Some("HP 150 <= minHP 200"),
                ),
                new: side(Some(13), None, None),
            }],
            warnings: vec!["not shown".into()],
        };
        assert_eq!(
            render_text(&report),
            "   12.0 s ..    12.4 s (3 tick(s)): decision 3 \"hold_fire_point\" -> 13\n    \
             old, why not 13: HP 150 <= minHP 200\n\
             1 span(s) with different decisions: old recorded (10 ticks), new \
             edited/config.json (10 ticks); traces differ at 3 tick(s)\n"
        );
    }
}
