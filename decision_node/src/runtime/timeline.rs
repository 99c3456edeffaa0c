//! The readable timeline of `sim`: decision changes, waypoints reached, aim targets gained and
//! lost, and why nothing was decided, one line each with the game time.

use crate::node::TraceMsg;
use decision_core::robomaster::Tables;
use decision_core::robomaster::context::NavAction;

/// Remembers the previous tick to report only changes.
#[derive(Debug, Default)]
pub struct Timeline {
    decision: Option<i32>,
    path: Vec<i32>,
    waypoint: Option<i32>,
    aiming: bool,
    skipped: Option<String>,
}

impl Timeline {
    /// The lines this tick adds.
    pub fn observe(&mut self, trace: &TraceMsg, tables: &Tables) -> Vec<String> {
        let r = &trace.result;
        let t = trace.game_time;
        let mut lines = Vec::new();
        let decision_name = |id: i32| {
            tables
                .decisions
                .iter()
                .find(|d| d.decision.id == id)
                .map_or(String::new(), |d| format!(" \"{}\"", d.decision.name))
        };
        let waypoint_name = |id: i32| {
            tables
                .graph
                .get(id)
                .map_or(String::new(), |w| format!(" \"{}\"", w.name))
        };
        if r.waypoint != self.waypoint {
            if let Some(w) = r.waypoint {
                lines.push(format!("{t:7.1} s  at waypoint {w}{}", waypoint_name(w)));
            }
            self.waypoint = r.waypoint;
        }
        let skipped = r.skipped.map(|s| {
            serde_json::to_value(s).map_or(String::new(), |v| v.as_str().unwrap_or("").to_string())
        });
        if skipped != self.skipped {
            if let Some(s) = &skipped {
                lines.push(format!("{t:7.1} s  nothing decided: {s}"));
            }
            self.skipped = skipped;
        }
        let new_goal = matches!(r.action, NavAction::Send | NavAction::Preempt);
        // Re-sends of the same decision and path (the aim heading turned) are not news.
        if r.chosen != self.decision
            || (new_goal && r.path != self.path)
            || r.action == NavAction::Preempt
        {
            if let Some(id) = r.chosen {
                let how = match r.action {
                    NavAction::Preempt => format!(
                        "preempts decision {}",
                        r.cancelled.map_or("?".into(), |c| c.to_string())
                    ),
                    NavAction::Send => "goal sent".into(),
                    NavAction::Hold => "same goal as before".into(),
                    NavAction::Continue => "continues".into(),
                    NavAction::None => String::new(),
                };
                let path: Vec<String> = r.path.iter().map(ToString::to_string).collect();
                let mode = r
                    .decision
                    .map_or(String::new(), |d| format!(", mode {}", d.mode));
                lines.push(format!(
                    "{t:7.1} s  decision {id}{}: {how}, path {}{mode}",
                    decision_name(id),
                    path.join(" > ")
                ));
            }
            self.decision = r.chosen;
            self.path.clone_from(&r.path);
        }
        let aiming = r.aim_yaw.is_some();
        if aiming != self.aiming {
            lines.push(match r.aim_yaw {
                Some(yaw) => format!("{t:7.1} s  aim: enemy in sight at yaw {yaw:.2} rad"),
                None => format!("{t:7.1} s  aim: no enemy in sight"),
            });
            self.aiming = aiming;
        }
        lines
    }
}
