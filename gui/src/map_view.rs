//! The RoboMaster field: the obstacle map at field scale with zoom and pan, waypoints in
//! their four states, directed `connect` edges, the current path, the robots, the seek circle,
//! the FOV lines, the aim ray and the occlusion samples.

use crate::model::View;
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, TextureHandle, Vec2};
use geometry::MapPoint;
use std::collections::HashSet;
use std::sync::Arc;

/// Selected target waypoint (the decision in effect).
pub const TARGET_GREEN: Color32 = Color32::from_rgb(40, 200, 70);
/// Our current waypoint.
pub const CURRENT_YELLOW: Color32 = Color32::from_rgb(245, 210, 40);
/// Target of an available decision.
pub const AVAILABLE_BLUE: Color32 = Color32::from_rgb(120, 190, 255);
/// Any other waypoint.
pub const OTHER_GREY: Color32 = Color32::from_rgb(150, 150, 150);
/// Friends.
pub const FRIEND: Color32 = Color32::from_rgb(30, 170, 60);
/// Enemies.
pub const ENEMY: Color32 = Color32::from_rgb(220, 40, 40);
/// Highlight of the waypoints of the decision selected in the table.
pub const ROW_HIGHLIGHT: Color32 = Color32::from_rgb(255, 120, 230);

/// State of a waypoint in the viewer, by precedence (target > current > available > other).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaypointState {
    /// Target of the decision in effect (green).
    SelectedTarget,
    /// Our current waypoint (yellow).
    Current,
    /// Target of an available decision (light blue).
    AvailableTarget,
    /// Anything else (grey).
    Other,
}

impl WaypointState {
    /// The colour of the state.
    pub fn colour(self) -> Color32 {
        match self {
            Self::SelectedTarget => TARGET_GREEN,
            Self::Current => CURRENT_YELLOW,
            Self::AvailableTarget => AVAILABLE_BLUE,
            Self::Other => OTHER_GREY,
        }
    }
}

/// Map view state: zoom, pan, the map texture.
pub struct MapView {
    /// Zoom factor (1 = fit).
    pub zoom: f32,
    /// Pan in screen points.
    pub pan: Vec2,
    /// Draw waypoint names beside the ids.
    pub show_names: bool,
    /// Field coordinates under the pointer, in metres.
    pub hovered_metres: Option<MapPoint>,
    /// Draw every name whatever the zoom (for measuring the worst case).
    pub force_labels: bool,
    /// Labels drawn in the last frame: `Some(true)` names, `Some(false)` ids, `None` none.
    pub label_level: Option<bool>,
    texture: Option<(usize, TextureHandle)>,
    labels: Option<(usize, Labels)>,
}

/// `(id, "id name")` per waypoint, in graph order.
type Labels = Arc<Vec<(String, String)>>;

/// Screen points per waypoint (square root of the map area per visible waypoint) from which
/// names are drawn.
pub const NAME_SPACING: f32 = 45.0;
/// Screen points per waypoint from which ids are drawn.
pub const ID_SPACING: f32 = 18.0;

impl Default for MapView {
    fn default() -> Self {
        Self {
            zoom: 1.0,
            pan: Vec2::ZERO,
            show_names: true,
            hovered_metres: None,
            force_labels: false,
            label_level: None,
            texture: None,
            labels: None,
        }
    }
}

/// Maps pixel coordinates of the obstacle map onto the screen.
#[derive(Debug, Clone, Copy)]
struct Transform {
    origin: Pos2,
    scale: f32,
}

impl Transform {
    fn px(&self, col: f32, row: f32) -> Pos2 {
        self.origin + Vec2::new(col, row) * self.scale
    }
}

/// The states of all waypoints: selected target, current, available targets.
pub fn waypoint_states(view: &View) -> (Option<i32>, Option<i32>, HashSet<i32>) {
    let Some(tick) = &view.tick else {
        return (None, None, HashSet::new());
    };
    let decision_target = |id: i32| {
        view.tables
            .decisions
            .iter()
            .find(|d| d.decision.id == id)
            .map(|d| d.decision.decide_waypoint)
    };
    let target = tick
        .chosen
        .and_then(decision_target)
        .filter(|w| *w >= 0)
        .or_else(|| tick.path.last().copied());
    let available = tick
        .available
        .iter()
        .filter_map(|id| decision_target(*id))
        .filter(|w| *w >= 0)
        .collect();
    (target, tick.waypoint, available)
}

/// The state of waypoint `id` given [`waypoint_states`].
pub fn state_of(
    id: i32,
    target: Option<i32>,
    current: Option<i32>,
    available: &HashSet<i32>,
) -> WaypointState {
    if target == Some(id) {
        WaypointState::SelectedTarget
    } else if current == Some(id) {
        WaypointState::Current
    } else if available.contains(&id) {
        WaypointState::AvailableTarget
    } else {
        WaypointState::Other
    }
}

fn arrow(shapes: &mut Vec<Shape>, from: Pos2, to: Pos2, inset: f32, stroke: Stroke, line: bool) {
    let d = to - from;
    let len = d.length();
    if len <= 2.0 * inset + 1.0 {
        return;
    }
    let dir = d / len;
    let a = from + dir * inset;
    let b = to - dir * inset;
    if line {
        shapes.push(Shape::line_segment([a, b], stroke));
    }
    let head = 7.0_f32.min(len * 0.3);
    if head < 2.0 {
        return;
    }
    let normal = Vec2::new(-dir.y, dir.x);
    let p1 = b - dir * head + normal * head * 0.45;
    let p2 = b - dir * head - normal * head * 0.45;
    shapes.push(Shape::convex_polygon(
        vec![b, p1, p2],
        stroke.color,
        Stroke::NONE,
    ));
}

impl MapView {
    /// `(id, "id name")` of every waypoint, built once per tables.
    fn labels(&mut self, view: &View) -> Labels {
        let key = Arc::as_ptr(&view.tables) as usize;
        match &self.labels {
            Some((k, labels)) if *k == key => Arc::clone(labels),
            _ => {
                let labels: Labels = Arc::new(
                    view.tables
                        .graph
                        .waypoints()
                        .iter()
                        .map(|w| (w.id.to_string(), format!("{} {}", w.id, w.name)))
                        .collect(),
                );
                self.labels = Some((key, Arc::clone(&labels)));
                labels
            }
        }
    }

    /// Draws the map filling the available space; `highlight` are the waypoints of the decision
    /// selected in the table.
    pub fn show(&mut self, ui: &mut egui::Ui, view: &View, highlight: &HashSet<i32>) {
        let map = &view.tables.map;
        let (cols, rows) = (map.cols() as f32, map.rows() as f32);
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let rect = response.rect;
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::accesskit::Role::Canvas, true, "field map")
        });
        if cols <= 0.0 || rows <= 0.0 {
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                "empty map",
                FontId::proportional(14.0),
                Color32::WHITE,
            );
            return;
        }
        // Zoom with the wheel around the pointer, pan by dragging.
        if response.dragged() {
            self.pan += response.drag_delta();
        }
        if let Some(pointer) = response.hover_pos() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                let old = self.zoom;
                self.zoom = (self.zoom * (scroll * 0.002).exp()).clamp(0.2, 40.0);
                let centre = rect.center() + self.pan;
                let k = self.zoom / old;
                self.pan += (pointer - centre) * (1.0 - k);
            }
        }
        let fit = (rect.width() / cols).min(rect.height() / rows);
        let scale = fit * self.zoom;
        let origin = rect.center() + self.pan - Vec2::new(cols, rows) * scale * 0.5;
        let tf = Transform { origin, scale };
        let metres = |x: f32, y: f32| {
            let (c, r) = map.to_pixel_f32(x, y);
            tf.px(c, r)
        };
        let px_per_metre = if map.real_width() > 0.0 {
            cols / map.real_width() * scale
        } else {
            scale
        };

        // The map image.
        let key = Arc::as_ptr(&view.tables) as usize;
        if self.texture.as_ref().is_none_or(|(k, _)| *k != key) {
            let size = [map.cols() as usize, map.rows() as usize];
            let image = if map.pixels().len() == size[0] * size[1] {
                egui::ColorImage::from_gray(size, map.pixels())
            } else {
                egui::ColorImage::filled(size, Color32::DARK_GRAY)
            };
            let handle =
                ui.ctx()
                    .load_texture("obstacle-map", image, egui::TextureOptions::NEAREST);
            self.texture = Some((key, handle));
        }
        let painter = painter.with_clip_rect(rect);
        painter.rect_filled(rect, 0.0, Color32::from_gray(25));
        if let Some((_, texture)) = &self.texture {
            let img_rect = Rect::from_min_max(tf.px(0.0, 0.0), tf.px(cols, rows));
            painter.image(
                texture.id(),
                img_rect,
                Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
                Color32::WHITE,
            );
        }

        let (target, current, available) = waypoint_states(view);
        let waypoints = view.tables.graph.waypoints();
        let radius = (0.18 * px_per_metre).clamp(3.0, 14.0);
        let visible = rect.expand(40.0);
        let mut shapes: Vec<Shape> = Vec::with_capacity(waypoints.len() * 4);

        // Directed edges.
        let edge_stroke = Stroke::new(1.0, Color32::from_rgba_unmultiplied(90, 140, 255, 170));
        for w in waypoints {
            let a = metres(w.x, w.y);
            for n in view.tables.graph.neighbours(w.id) {
                if let Some(other) = view.tables.graph.get(n) {
                    let b = metres(other.x, other.y);
                    if visible.contains(a) || visible.contains(b) {
                        // A two-way edge's line is drawn once, with both heads.
                        let line = w.id < n || !view.tables.graph.neighbours(n).any(|m| m == w.id);
                        arrow(&mut shapes, a, b, radius + 1.0, edge_stroke, line);
                    }
                }
            }
        }

        // The current path.
        if let Some(tick) = &view.tick {
            let mut points: Vec<Pos2> = Vec::with_capacity(tick.path.len() + 1);
            if let Some(world) = &view.world {
                points.push(metres(world.position.x, world.position.y));
            }
            for id in &tick.path {
                if let Some(w) = view.tables.graph.get(*id) {
                    points.push(metres(w.x, w.y));
                }
            }
            if points.len() >= 2 {
                shapes.push(Shape::line(
                    points,
                    Stroke::new(4.0, Color32::from_rgba_unmultiplied(255, 150, 0, 220)),
                ));
            }
        }

        // Waypoints.
        for w in waypoints {
            let p = metres(w.x, w.y);
            if !visible.contains(p) {
                continue;
            }
            let state = state_of(w.id, target, current, &available);
            shapes.push(Shape::circle_filled(p, radius, state.colour()));
            shapes.push(Shape::circle_stroke(
                p,
                radius,
                Stroke::new(1.0, Color32::BLACK),
            ));
            if highlight.contains(&w.id) {
                shapes.push(Shape::circle_stroke(
                    p,
                    radius + 4.0,
                    Stroke::new(3.0, ROW_HIGHLIGHT),
                ));
            }
        }
        // Friends / enemies standing on waypoints.
        if let Some(world) = &view.world {
            for (units, colour) in [(&world.friends, FRIEND), (&world.enemies, ENEMY)] {
                for unit in units.iter() {
                    if let Some(w) = unit.waypoint.and_then(|id| view.tables.graph.get(id)) {
                        let p = metres(w.x, w.y) + Vec2::new(radius, -radius);
                        shapes.push(Shape::rect_filled(
                            Rect::from_center_size(p, Vec2::splat(radius * 0.9)),
                            1.0,
                            colour,
                        ));
                    }
                }
            }
        }
        painter.extend(shapes);

        // Labels, by level of detail: names when there is room for them, ids when there is room
        // for those (zoom in to see more), nothing when they would only overlap.
        let labels = self.labels(view);
        let img = Rect::from_min_max(tf.px(0.0, 0.0), tf.px(cols, rows)).intersect(rect);
        let shown = waypoints
            .iter()
            .filter(|w| rect.contains(metres(w.x, w.y)))
            .count()
            .max(1);
        let spacing = (img.area().max(0.0) / shown as f32).sqrt();
        let level = if self.force_labels || spacing >= NAME_SPACING {
            Some(true)
        } else if spacing >= ID_SPACING {
            Some(false)
        } else {
            None
        };
        if let Some(with_names) = level {
            let font = FontId::proportional(11.0);
            let colour = Color32::from_rgb(20, 20, 90);
            let mut markers = Vec::new();
            let mut galleys = Vec::new();
            for (w, (id, name)) in waypoints.iter().zip(labels.iter()) {
                let p = metres(w.x, w.y);
                if !rect.contains(p) {
                    continue;
                }
                let text = if with_names && self.show_names {
                    name
                } else {
                    id
                };
                markers.push(p);
                galleys.push(painter.layout_no_wrap(text.clone(), font.clone(), colour));
            }
            // Beside the marker where it covers nothing else; left out where it would.
            let sizes: Vec<Vec2> = galleys.iter().map(|g| g.size()).collect();
            let spots = crate::map_labels::place_labels(&markers, &sizes, radius, rect);
            for (galley, spot) in galleys.into_iter().zip(spots) {
                if let Some(spot) = spot {
                    painter.galley(spot.min, galley, colour);
                }
            }
        }
        self.label_level = level;

        self.draw_robots(&painter, view, &metres, px_per_metre);

        // Hover: field coordinates in metres.
        self.hovered_metres = response.hover_pos().map(|pointer| {
            let c = (pointer.x - tf.origin.x) / tf.scale;
            let r = (pointer.y - tf.origin.y) / tf.scale;
            let (x, y) = map.to_metres(f64::from(c), f64::from(r));
            MapPoint::new(x, y)
        });
        if let Some(MapPoint { x, y }) = self.hovered_metres {
            let text = format!("x = {x:.2} m, y = {y:.2} m");
            let at = rect.left_bottom() + Vec2::new(6.0, -6.0);
            let galley = painter.layout_no_wrap(text, FontId::monospace(13.0), Color32::WHITE);
            let bg = Rect::from_min_size(at - Vec2::new(0.0, galley.size().y), galley.size())
                .expand(3.0);
            painter.rect_filled(bg, 3.0, Color32::from_black_alpha(200));
            painter.galley(bg.min + Vec2::splat(3.0), galley, Color32::WHITE);
        }
    }

    fn draw_robots(
        &self,
        painter: &egui::Painter,
        view: &View,
        metres: &dyn Fn(f32, f32) -> Pos2,
        px_per_metre: f32,
    ) {
        let font = FontId::proportional(12.0);
        let body = (0.3 * px_per_metre).clamp(4.0, 30.0);
        for robot in &view.robots {
            let p = metres(robot.x, robot.y);
            let colour = if robot.friend { FRIEND } else { ENEMY };
            painter.circle(p, body * 0.8, colour, Stroke::new(1.0, Color32::BLACK));
            painter.text(
                p + Vec2::new(0.0, -body - 2.0),
                Align2::CENTER_BOTTOM,
                &robot.label,
                font.clone(),
                colour,
            );
        }
        let Some(world) = &view.world else {
            return;
        };
        let config = &view.tables.config;
        let me = world.position;
        let centre = metres(me.x, me.y);
        let along =
            |yaw: f32, length: f32| metres(me.x + yaw.cos() * length, me.y + yaw.sin() * length);
        // Seek circle and FOV lines.
        let seek = config.seek_thr.max(0.0);
        painter.circle_stroke(
            centre,
            seek * px_per_metre,
            Stroke::new(1.5, Color32::from_rgba_unmultiplied(255, 255, 255, 140)),
        );
        let half_fov = (config.car_seek_fov as f32).to_radians() * 0.5;
        let fov_stroke = Stroke::new(1.5, Color32::from_rgb(255, 240, 120));
        for side in [-1.0, 1.0] {
            painter.line_segment(
                [centre, along(world.chassis_yaw + side * half_fov, seek)],
                fov_stroke,
            );
        }
        // Occlusion samples toward every enemy inside the seek circle.
        for enemy in &world.enemies {
            let e = enemy.position;
            if e.x == 0.0 || e.y == 0.0 || !e.x.is_finite() || !e.y.is_finite() {
                continue;
            }
            let d = ((e.x - me.x).powi(2) + (e.y - me.y).powi(2)).sqrt();
            if d > seek {
                continue;
            }
            view.tables.map.for_each_sample(
                (me.x, me.y),
                (e.x, e.y),
                config.step_distance,
                |c, r, wall| {
                    let p = metres_of_pixel(view, metres, c, r);
                    if wall {
                        painter.circle_filled(p, 2.5, ENEMY);
                    } else {
                        painter.circle_filled(p, 1.5, Color32::from_rgb(230, 230, 230));
                    }
                },
            );
        }
        // Aim ray.
        if let Some(aim) = &view.aim {
            painter.line_segment(
                [centre, along(aim.yaw, aim.distance)],
                Stroke::new(2.5, Color32::from_rgb(255, 60, 200)),
            );
        }
        // Our robot: chassis square with heading, gimbal line.
        let size = (0.5 * px_per_metre).clamp(8.0, 50.0);
        let yaw = world.chassis_yaw;
        let (s, c) = yaw.sin_cos();
        let fwd = (along(yaw, 0.25) - centre).normalized() * size * 0.5;
        let fwd = if fwd.is_finite() {
            fwd
        } else {
            Vec2::new(c, s) * size * 0.5
        };
        let left = Vec2::new(-fwd.y, fwd.x);
        let corners = vec![
            centre + fwd + left,
            centre + fwd - left,
            centre - fwd - left,
            centre - fwd + left,
        ];
        painter.add(Shape::convex_polygon(
            corners,
            Color32::from_rgba_unmultiplied(30, 200, 90, 200),
            Stroke::new(2.0, Color32::BLACK),
        ));
        painter.line_segment(
            [centre, centre + fwd * 1.3],
            Stroke::new(2.0, Color32::BLACK),
        );
        let gimbal = view.tick.as_ref().and_then(|t| t.aim_yaw).unwrap_or(yaw);
        painter.line_segment(
            [centre, along(gimbal, 0.6)],
            Stroke::new(4.0, Color32::from_rgb(250, 250, 250)),
        );
        painter.circle_filled(centre, 3.0, Color32::BLACK);
    }
}

fn metres_of_pixel(view: &View, metres: &dyn Fn(f32, f32) -> Pos2, col: i64, row: i64) -> Pos2 {
    let (x, y) = view
        .tables
        .map
        .to_metres(col as f64 + 0.5, row as f64 + 0.5);
    metres(x, y)
}
