//! The blackboard panel of the selected soccer robot, one for every source: its rows come from
//! the records the node publishes each tick (the frame it decided on and its trace), which the
//! live bus and recordings carry and the in-process match makes alike.

use super::feed::xy;
use super::scene::penalized_list;
use decision_node::soccer::trace::SoccerTraceRecord;
use serde::Deserialize;
use soccer_profile::frame::Frame;
use soccer_profile::motion::MotionCommand;

fn fmt_point(p: Option<[f64; 2]>) -> String {
    p.map_or("-".into(), |p| format!("({:.2}, {:.2})", p[0], p[1]))
}

/// The selected robot's blackboard panel from the records its node published last (its
/// `behavior/blackboard` frame and `behavior/trace`), in its own team frame.
pub fn blackboard_rows(
    frame: Option<&Frame>,
    trace: Option<&SoccerTraceRecord>,
) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut row = |k: &str, v: String| rows.push((k.to_owned(), v));
    row(
        "branch",
        trace.map_or("-".into(), |t| t.branch().to_owned()),
    );
    row(
        "role",
        trace.and_then(|t| t.role()).unwrap_or("-").to_owned(),
    );
    row("tick", trace.map_or("-".into(), |t| t.tick.to_string()));
    let Some(f) = frame else {
        row("frame", "no blackboard heard yet".into());
        return rows;
    };
    row("time", format!("{:.2} s", f.t));
    row(
        "primary state",
        format!("{:?}", f.primary_state).to_lowercase(),
    );
    row(
        "pose (team frame)",
        f.pose.map_or("not localized".into(), |p| {
            format!("({:.2}, {:.2}) {:.0} deg", p.x, p.y, p.yaw.to_degrees())
        }),
    );
    row("head yaw", format!("{:.0} deg", f.head_yaw.to_degrees()));
    row(
        "fallen",
        format!(
            "{}{}",
            if f.fallen { "yes" } else { "no" },
            if f.stand_up_available {
                ", can stand up"
            } else {
                ""
            }
        ),
    );
    row(
        "ball",
        trace
            .and_then(|t| t.decision.get("ball"))
            .filter(|b| !b.is_null())
            .map_or("-".into(), |b| {
                format!(
                    "{} {}, {:.1} s old",
                    fmt_point(xy(b)),
                    b.get("source").and_then(|s| s.as_str()).unwrap_or("?"),
                    b.get("age")
                        .and_then(serde_json::Value::as_f64)
                        .unwrap_or(0.0)
                )
            }),
    );
    row("ball seen now", fmt_point(f.ball.map(|b| [b.x, b.y])));
    row("rule ball", fmt_point(f.rule_ball.map(|b| [b.x, b.y])));
    if f.teammate_messages.is_empty() {
        row("teammate messages", "none this tick".into());
    }
    for m in &f.teammate_messages {
        row(
            &format!("message from {}", m.player),
            format!(
                "pose {}, ball {}",
                fmt_point(m.pose.map(|p| [p.x, p.y])),
                fmt_point(m.ball.map(|b| [b.x, b.y]))
            ),
        );
    }
    row("obstacles", f.obstacles.len().to_string());
    match &f.game {
        Some(g) => {
            row(
                "game",
                format!(
                    "{:?}, {}, {:.0} s left in half",
                    g.phase,
                    if g.first_half {
                        "first half"
                    } else {
                        "second half"
                    },
                    g.remaining_time_in_half
                )
                .to_lowercase(),
            );
            row(
                "set play",
                match (g.sub_state, g.kicking_team) {
                    (Some(s), Some(t)) => format!("{s:?} by {t:?}").to_lowercase(),
                    (Some(s), None) => format!("{s:?}").to_lowercase(),
                    (None, Some(t)) => format!("none (kick-off: {t:?})").to_lowercase(),
                    (None, None) => "none".into(),
                },
            );
            row(
                "messages left",
                format!(
                    "{}{}",
                    g.remaining_messages,
                    if g.sending_suspended {
                        " (suspended)"
                    } else {
                        ""
                    }
                ),
            );
            row("penalized", penalized_list(&g.penalized));
        }
        None => row("game", "-".into()),
    }
    row("search target", fmt_point(f.search_target));
    if let Some(t) = trace {
        row(
            "message interval",
            t.decision
                .get("message_interval")
                .and_then(serde_json::Value::as_f64)
                .map_or("-".into(), |i| format!("{i:.2} s")),
        );
        let motion = t.decision.get("motion");
        let command = motion.and_then(|m| MotionCommand::deserialize(m).ok());
        let part = |name: &str| {
            motion
                .and_then(|m| m.get(name))
                .map_or("-".into(), ToString::to_string)
        };
        row(
            "motion",
            command
                .as_ref()
                .map_or_else(|| part("body"), |c| c.body.to_string()),
        );
        row(
            "head",
            command
                .as_ref()
                .map_or_else(|| part("head"), |c| c.head.to_string()),
        );
        row(
            "kickoff pose",
            t.decision
                .get("kickoff_pose")
                .and_then(|p| Some((xy(p)?, p.get("yaw")?.as_f64()?)))
                .map_or("-".into(), |(p, yaw)| {
                    format!("({:.2}, {:.2}) {:.0} deg", p[0], p[1], yaw.to_degrees())
                }),
        );
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::blackboard_rows;
    use decision_node::soccer::trace::SoccerTraceRecord;
    use soccer_profile::frame::Frame;

    fn value<'a>(rows: &'a [(String, String)], key: &str) -> Option<&'a str> {
        rows.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    fn trace(decision: serde_json::Value) -> SoccerTraceRecord {
        SoccerTraceRecord {
            tick: 7,
            decision,
            ..SoccerTraceRecord::default()
        }
    }

    #[test]
    fn the_rows_read_the_published_frame_and_trace() {
        let frame = Frame {
            t: 12.5,
            player_number: 3,
            ..Frame::default()
        };
        let trace = trace(serde_json::json!({
            "branch": "playing",
            "role": "striker",
            "message_interval": 0.5,
            "motion": {"body": {"kind": "stand"}, "head": {"kind": "look_around"}},
            "kickoff_pose": {"x": -1.0, "y": 0.5, "yaw": std::f64::consts::FRAC_PI_2},
        }));
        let rows = blackboard_rows(Some(&frame), Some(&trace));
        assert_eq!(value(&rows, "branch"), Some("playing"));
        assert_eq!(value(&rows, "role"), Some("striker"));
        assert_eq!(value(&rows, "tick"), Some("7"));
        assert_eq!(value(&rows, "time"), Some("12.50 s"));
        assert_eq!(value(&rows, "message interval"), Some("0.50 s"));
        assert_eq!(value(&rows, "motion"), Some("stand"));
        assert_eq!(value(&rows, "head"), Some("look around"));
        assert_eq!(value(&rows, "kickoff pose"), Some("(-1.00, 0.50) 90 deg"));
    }

    #[test]
    fn without_a_frame_the_panel_says_so_and_an_odd_motion_shows_as_sent() {
        let trace = trace(serde_json::json!({"motion": {"body": {"kind": "fly"}}}));
        let rows = blackboard_rows(None, Some(&trace));
        assert_eq!(value(&rows, "frame"), Some("no blackboard heard yet"));
        assert_eq!(value(&rows, "time"), None);
        let rows = blackboard_rows(Some(&Frame::default()), Some(&trace));
        assert_eq!(value(&rows, "motion"), Some(r#"{"kind":"fly"}"#));
        assert_eq!(value(&rows, "head"), Some("-"));
        assert_eq!(value(&rows, "kickoff pose"), Some("-"));
    }
}
