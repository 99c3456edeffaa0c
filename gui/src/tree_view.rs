//! The decision tree from the published layout, each node coloured by its status in the last
//! tick; subtrees collapse, and only the visible rows are laid out (`ScrollArea::show_rows`),
//! so it stays usable for thousands of nodes.

use crate::map_view::TARGET_GREEN;
use crate::model::{FlatTree, View};
use decision_core::engine::Status;
use egui::{Color32, RichText};
use std::collections::HashSet;

/// Collapse state of the tree panel.
#[derive(Default)]
pub struct TreeView {
    /// Preorder ids of collapsed nodes.
    pub collapsed: HashSet<usize>,
    /// The node last clicked: its status and whole why-not are shown above the rows, wrapped.
    pub selected: Option<usize>,
    rows: Vec<usize>,
    dirty_key: Option<(usize, usize, usize)>,
}

/// The colour of a status (none: not ticked this time).
pub fn status_colour(status: Option<Status>) -> Color32 {
    match status {
        Some(Status::Success) => Color32::from_rgb(60, 200, 90),
        Some(Status::Failure) => Color32::from_rgb(230, 80, 80),
        Some(Status::Running) => Color32::from_rgb(240, 200, 40),
        Some(Status::Skipped) => Color32::from_rgb(120, 150, 220),
        None => Color32::from_gray(140),
    }
}

/// A node as a row reads it: `PREFIX #ID LABEL (STATUS)`, then `: WHY-NOT` when there is one.
fn row_text(
    prefix: &str,
    id: usize,
    label: &str,
    status: Option<Status>,
    why: Option<&str>,
) -> String {
    let mut text = format!("{prefix} #{id} {label} ({})", status_word(status));
    if let Some(why) = why {
        text.push_str(": ");
        text.push_str(why);
    }
    text
}

/// A status in the words the rows use (`-`: not ticked this time).
pub fn status_word(status: Option<Status>) -> &'static str {
    match status {
        Some(Status::Success) => "success",
        Some(Status::Failure) => "failure",
        Some(Status::Running) => "running",
        Some(Status::Skipped) => "skipped",
        None => "-",
    }
}

/// The decision id of a RoboMaster rule row (`weighted_rule NAME #ID`), `None` for others.
pub fn rule_decision_id(label: &str) -> Option<i32> {
    let rest = label
        .strip_prefix(decision_core::engine::nodes::weighted_selection::RULE)?
        .strip_prefix(' ')?;
    let (_, id) = rest.rsplit_once(" #")?;
    id.parse().ok()
}

impl TreeView {
    /// The preorder ids of the rows shown (collapsed subtrees skipped).
    pub fn visible_rows(&mut self, view: &View) -> &[usize] {
        self.visible_rows_of(&view.tree)
    }

    /// The preorder ids of the rows of `tree` shown (collapsed subtrees skipped).
    pub fn visible_rows_of(&mut self, tree: &FlatTree) -> &[usize] {
        let key = (
            tree.nodes.as_ptr() as usize,
            tree.len(),
            self.collapsed.len(),
        );
        if self.dirty_key != Some(key) {
            self.rows.clear();
            let mut i = 0;
            while let Some(node) = tree.nodes.get(i) {
                self.rows.push(i);
                i = if self.collapsed.contains(&i) {
                    node.end.max(i + 1)
                } else {
                    i + 1
                };
            }
            self.dirty_key = Some(key);
        }
        &self.rows
    }

    /// Shows the RoboMaster tree: each decision's rule row with its why-not, and the rule of
    /// the decision in effect marked as in the table and on the map (worked out for the
    /// visible rows only, nothing kept per frame).
    pub fn show(&mut self, ui: &mut egui::Ui, view: &View) {
        let tick = view.tick.as_ref();
        let rule_id = |id: usize| {
            view.tree
                .nodes
                .get(id)
                .and_then(|n| rule_decision_id(&n.label))
        };
        let why_not = |id: usize| tick.and_then(|t| t.why_not_of(rule_id(id)?));
        let in_effect =
            |id: usize| tick.is_some_and(|t| t.chosen.is_some() && t.chosen == rule_id(id));
        self.show_tree(ui, &view.tree, &view.statuses, &why_not, &in_effect);
    }

    /// Shows `tree` with each node's status (by preorder id) and, after a failed node, why it
    /// failed (`why_not` of its preorder id); `in_effect` tells the row of the decision in
    /// effect. Both are asked for the visible rows only.
    pub fn show_tree<'a>(
        &mut self,
        ui: &mut egui::Ui,
        tree: &FlatTree,
        statuses: &[Option<Status>],
        why_not: &dyn Fn(usize) -> Option<&'a str>,
        in_effect: &dyn Fn(usize) -> bool,
    ) {
        ui.horizontal(|ui| {
            if ui.button("Expand all").clicked() {
                self.collapsed.clear();
                self.dirty_key = None;
            }
            if ui.button("Collapse all").clicked() {
                self.collapsed = tree
                    .nodes
                    .iter()
                    .enumerate()
                    .filter(|(i, n)| n.end > i + 1)
                    .map(|(i, _)| i)
                    .collect();
                self.dirty_key = None;
            }
            ui.label(format!("{} nodes", tree.len()));
        });
        if let Some(id) = self.selected
            && let Some(node) = tree.nodes.get(id)
        {
            let status = statuses.get(id).copied().flatten();
            let text = row_text("selected", id, &node.label, status, why_not(id));
            ui.add(egui::Label::new(RichText::new(text).color(status_colour(status))).wrap());
            ui.separator();
        }
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 2.0;
        let total = self.visible_rows_of(tree).len();
        let rows = std::mem::take(&mut self.rows);
        let mut toggle = None;
        egui::ScrollArea::vertical()
            .id_salt("tree-rows")
            .auto_shrink([false, false])
            .show_rows(ui, row_height, total, |ui, range| {
                for &id in rows.get(range).unwrap_or(&[]) {
                    let Some(node) = tree.nodes.get(id) else {
                        continue;
                    };
                    let status = statuses.get(id).copied().flatten();
                    let has_children = node.end > id + 1;
                    let open = !self.collapsed.contains(&id);
                    let arrow = match (has_children, open) {
                        (false, _) => "   ",
                        (true, true) => "[-]",
                        (true, false) => "[+]",
                    };
                    ui.horizontal(|ui| {
                        ui.add_space(node.depth as f32 * 12.0);
                        let text = row_text(arrow, id, &node.label, status, why_not(id));
                        let text = RichText::new(text).color(status_colour(status));
                        if in_effect(id) {
                            ui.label(RichText::new("> in effect").color(TARGET_GREEN).strong());
                        }
                        // One row each (rows have a fixed height): cut, whole on hover and,
                        // once clicked, above the rows.
                        let label = egui::Label::new(text)
                            .truncate()
                            .sense(egui::Sense::click());
                        let response = ui.add(label);
                        if response.clicked() {
                            self.selected = Some(id);
                            if has_children {
                                toggle = Some(id);
                            }
                        }
                    });
                }
            });
        self.rows = rows;
        if let Some(id) = toggle
            && !self.collapsed.remove(&id)
        {
            self.collapsed.insert(id);
        }
        if toggle.is_some() {
            self.dirty_key = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rule_decision_id;

    #[test]
    fn rule_rows_name_their_decision_id() {
        assert_eq!(
            rule_decision_id("weighted_rule retreat_to_supply #13"),
            Some(13)
        );
        assert_eq!(rule_decision_id("weighted_rule a #b #-2"), Some(-2));
        assert_eq!(rule_decision_id("weighted_selection decisions"), None);
        assert_eq!(rule_decision_id("Sequence guards #3"), None);
        assert_eq!(rule_decision_id("weighted_rule no_id"), None);
    }
}
