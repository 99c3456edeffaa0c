//! Draws a [`SoccerScene`] on the field: the lines and goals scaled to the panel, the selected
//! robot's heatmap and Voronoi regions, walk targets and paths, team messages, the robots
//! (number, role, heading, head, fallen and penalized marks), the true and perceived ball and
//! the search target. Clicking a robot selects it. Knows nothing of where the scene came from.

use super::scene::{MESSAGE_FLASH_SECONDS, RobotView, SoccerScene, TeamSide};
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Vec2};
use soccer_profile::params::FieldDimensions;

/// The home team's colour.
pub const HOME_BLUE: Color32 = Color32::from_rgb(40, 110, 235);
/// The away team's colour.
pub const AWAY_RED: Color32 = Color32::from_rgb(225, 50, 40);
/// Fill of the field and its border strip (a darker green lies outside).
pub const GRASS: Color32 = Color32::from_rgb(40, 125, 55);
/// The search target marker.
pub const SEARCH_MAGENTA: Color32 = Color32::from_rgb(240, 60, 220);
/// The selected robot's ring and its perceived ball.
pub const SELECTED_YELLOW: Color32 = Color32::from_rgb(255, 225, 40);
/// Goal depth behind the goal line (m); not a field parameter.
pub const GOAL_DEPTH: f64 = 0.6;
/// Robot body radius as drawn (m).
pub const ROBOT_RADIUS: f64 = 0.2;
/// A click this close to a robot's centre selects it (m).
pub const PICK_RADIUS: f64 = 0.45;

/// The colour of a team.
pub fn team_colour(team: TeamSide) -> Color32 {
    match team {
        TeamSide::Home => HOME_BLUE,
        TeamSide::Away => AWAY_RED,
    }
}

/// Which layers are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layers {
    /// The selected robot's search heatmap and target.
    pub heatmap: bool,
    /// The selected robot's Voronoi partition.
    pub voronoi: bool,
    /// Every robot's walk target and planned next destination.
    pub paths: bool,
    /// Team messages as they arrive.
    pub messages: bool,
    /// The selected robot's perceived ball.
    pub perceived_ball: bool,
}

impl Default for Layers {
    fn default() -> Self {
        Self {
            heatmap: true,
            voronoi: false,
            paths: true,
            messages: true,
            perceived_ball: true,
        }
    }
}

/// Maps field metres (x right, y up, origin at the centre spot) to screen points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldTransform {
    /// The screen point of the field's centre.
    pub centre: Pos2,
    /// Screen points per metre.
    pub scale: f32,
}

impl FieldTransform {
    /// The largest transform that shows the field and its border strip inside `rect`,
    /// centred (a degenerate field falls back to the default 9 m x 6 m extent).
    pub fn fit(rect: Rect, field: &FieldDimensions) -> Self {
        let border = if field.border_strip_width.is_finite() && field.border_strip_width >= 0.0 {
            field.border_strip_width
        } else {
            0.0
        };
        let ok = |v: f64| v.is_finite() && v > 0.0;
        let defaults = FieldDimensions::default();
        let length = if ok(field.length) {
            field.length
        } else {
            defaults.length
        };
        let width = if ok(field.width) {
            field.width
        } else {
            defaults.width
        };
        let extent_x = (length + 2.0 * border) as f32;
        let extent_y = (width + 2.0 * border) as f32;
        let scale = (rect.width() / extent_x).min(rect.height() / extent_y);
        let scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        Self {
            centre: rect.center(),
            scale,
        }
    }

    /// The screen point of field point `(x, y)`.
    pub fn to_screen(&self, x: f64, y: f64) -> Pos2 {
        Pos2::new(
            self.centre.x + x as f32 * self.scale,
            self.centre.y - y as f32 * self.scale,
        )
    }

    /// The field point under screen point `p`.
    pub fn to_field(&self, p: Pos2) -> [f64; 2] {
        [
            f64::from((p.x - self.centre.x) / self.scale),
            f64::from((self.centre.y - p.y) / self.scale),
        ]
    }

    /// `metres` in screen points.
    pub fn length(&self, metres: f64) -> f32 {
        metres as f32 * self.scale
    }

    /// The screen rectangle of the field rectangle with corners `(x0, y0)` and `(x1, y1)`.
    pub fn rect(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> Rect {
        Rect::from_two_pos(self.to_screen(x0, y0), self.to_screen(x1, y1))
    }
}

/// The heatmap's colour for a value in [0, 1] (relative to the map's maximum): transparent at
/// 0, then from translucent violet through red to opaque yellow, so it stands out on the grass.
pub fn heat_colour(value: f64) -> Color32 {
    let v = if value.is_finite() {
        value.clamp(0.0, 1.0)
    } else {
        0.0
    } as f32;
    if v <= 0.0 {
        return Color32::TRANSPARENT;
    }
    let lerp = |a: (f32, f32, f32), b: (f32, f32, f32), t: f32| {
        (
            a.0 + (b.0 - a.0) * t,
            a.1 + (b.1 - a.1) * t,
            a.2 + (b.2 - a.2) * t,
        )
    };
    let (violet, red, yellow) = (
        (90.0, 30.0, 160.0),
        (230.0, 50.0, 60.0),
        (255.0, 235.0, 60.0),
    );
    let (r, g, b) = if v < 0.5 {
        lerp(violet, red, v * 2.0)
    } else {
        lerp(red, yellow, v * 2.0 - 1.0)
    };
    let a = 70.0 + 150.0 * v;
    Color32::from_rgba_unmultiplied(r as u8, g as u8, b as u8, a as u8)
}

/// A distinct translucent colour per player number for the Voronoi regions.
pub fn region_colour(player: u8) -> Color32 {
    const PALETTE: [(u8, u8, u8); 8] = [
        (255, 255, 255),
        (120, 200, 255),
        (255, 160, 60),
        (190, 120, 255),
        (80, 240, 200),
        (255, 110, 150),
        (220, 230, 90),
        (150, 150, 255),
    ];
    let (r, g, b) = PALETTE[usize::from(player) % PALETTE.len()];
    Color32::from_rgba_unmultiplied(r, g, b, 70)
}

/// The short role name drawn under a robot.
pub fn role_tag(robot: &RobotView) -> String {
    if robot.penalized {
        return "penalized".into();
    }
    match robot.role.as_deref() {
        Some("goalkeeper") => "keeper".into(),
        Some("penalty_shootout") => "shootout".into(),
        Some(role) => role.into(),
        None if robot.decides => robot.branch.clone(),
        None => "scripted".into(),
    }
}

/// The field panel: remembers the last transform for hit tests and tests.
#[derive(Debug, Clone, Default)]
pub struct FieldView {
    /// The transform of the last frame.
    pub transform: Option<FieldTransform>,
    /// Field coordinates under the pointer.
    pub hovered: Option<[f64; 2]>,
}

impl FieldView {
    /// The robot under field point `p`, nearest first, within [`PICK_RADIUS`].
    pub fn robot_at(scene: &SoccerScene, p: [f64; 2]) -> Option<(TeamSide, u8)> {
        scene
            .robots
            .iter()
            .map(|r| ((r.x - p[0]).hypot(r.y - p[1]), r))
            .filter(|(d, _)| *d <= PICK_RADIUS)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, r)| r.key())
    }

    /// Draws `scene` filling the available space; returns the robot clicked, if any.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        scene: &SoccerScene,
        layers: &Layers,
    ) -> Option<(TeamSide, u8)> {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click());
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::accesskit::Role::Canvas, true, "soccer field")
        });
        let rect = response.rect;
        let painter = painter.with_clip_rect(rect);
        let tf = FieldTransform::fit(rect.shrink(8.0), &scene.field);
        self.transform = Some(tf);
        self.hovered = response.hover_pos().map(|p| tf.to_field(p));
        painter.rect_filled(rect, 0.0, Color32::from_rgb(30, 95, 42));
        let f = &scene.field;
        let (hl, hw) = (f.half_length(), f.half_width());
        let b = f.border_strip_width.max(0.0);
        painter.rect_filled(tf.rect(-hl - b, -hw - b, hl + b, hw + b), 0.0, GRASS);
        let mut shapes = Vec::new();
        if layers.voronoi
            && let Some(v) = scene.detail.as_ref().and_then(|d| d.voronoi.as_ref())
        {
            let half = v.resolution / 2.0;
            for c in &v.cells {
                shapes.push(Shape::rect_filled(
                    tf.rect(c.x - half, c.y - half, c.x + half, c.y + half),
                    0.0,
                    region_colour(c.player),
                ));
            }
        }
        if layers.heatmap
            && let Some(h) = scene.detail.as_ref().and_then(|d| d.heatmap.as_ref())
            && h.cells_x > 0
            && h.cells_y > 0
        {
            let (cl, cw) = (f.length / h.cells_x as f64, f.width / h.cells_y as f64);
            // Relative to the map's maximum, so a flat map still shows where it is highest.
            let max = h
                .values
                .iter()
                .copied()
                .filter(|v| v.is_finite())
                .fold(0.0, f64::max);
            for iy in 0..h.cells_y {
                for ix in 0..h.cells_x {
                    let v = if max > 0.0 {
                        h.value(ix, iy) / max
                    } else {
                        0.0
                    };
                    if v <= 0.0 {
                        continue;
                    }
                    let x0 = -hl + ix as f64 * cl;
                    let y0 = -hw + iy as f64 * cw;
                    shapes.push(Shape::rect_filled(
                        tf.rect(x0, y0, x0 + cl, y0 + cw),
                        0.0,
                        heat_colour(v),
                    ));
                }
            }
        }
        painter.extend(shapes);
        draw_lines(&painter, &tf, f);
        if layers.paths {
            draw_paths(&painter, &tf, scene);
        }
        if layers.messages {
            draw_messages(&painter, &tf, scene);
        }
        if layers.heatmap
            && let Some(t) = scene
                .detail
                .as_ref()
                .and_then(|d| d.heatmap.as_ref())
                .and_then(|h| h.target)
        {
            let p = tf.to_screen(t[0], t[1]);
            let r = tf.length(0.18).max(5.0);
            let stroke = Stroke::new(2.5, SEARCH_MAGENTA);
            painter.line_segment([p - Vec2::new(r, r), p + Vec2::new(r, r)], stroke);
            painter.line_segment([p - Vec2::new(r, -r), p + Vec2::new(r, -r)], stroke);
            painter.circle_stroke(p, r, stroke);
        }
        for robot in &scene.robots {
            draw_robot(&painter, &tf, robot, scene.selected == Some(robot.key()));
        }
        let ball_radius = tf.length(0.07).max(4.0);
        if !scene.ball_known {
            // No true ball (live, recordings): every robot's perceived ball, the selected
            // robot's in yellow, each joined to the robot that believes in it.
            if layers.perceived_ball {
                for r in &scene.robots {
                    let Some(p) = r.perceived_ball else { continue };
                    let selected = scene.selected == Some(r.key());
                    let colour = if selected {
                        SELECTED_YELLOW
                    } else {
                        team_colour(r.team)
                    };
                    let q = tf.to_screen(p[0], p[1]);
                    if selected {
                        painter.extend(Shape::dashed_line(
                            &[tf.to_screen(r.x, r.y), q],
                            Stroke::new(1.0, colour),
                            4.0,
                            3.0,
                        ));
                    }
                    painter.circle_stroke(q, ball_radius, Stroke::new(2.0, colour));
                }
            }
        } else {
            // The perceived ball of the selected robot, then the true ball on top.
            let ball = tf.to_screen(scene.ball.x, scene.ball.y);
            if layers.perceived_ball
                && let Some(p) = scene.selected_robot().and_then(|r| r.perceived_ball)
            {
                let q = tf.to_screen(p[0], p[1]);
                painter.extend(Shape::dashed_line(
                    &[q, ball],
                    Stroke::new(1.5, SELECTED_YELLOW),
                    4.0,
                    3.0,
                ));
                painter.circle_stroke(q, ball_radius + 2.0, Stroke::new(2.0, SELECTED_YELLOW));
            }
            painter.circle(
                ball,
                ball_radius,
                Color32::WHITE,
                Stroke::new(1.5, Color32::BLACK),
            );
        }
        // The score board.
        let board = if scene.ball_known {
            format!(
                "{} {} : {} {}   {}   {}",
                scene.team_names[0],
                scene.score[0],
                scene.score[1],
                scene.team_names[1],
                super::scene::mmss(scene.time),
                if scene.over { "over" } else { &scene.phase }
            )
        } else {
            // No score is published on the bus: only the teams, time and phase.
            format!(
                "{} : {}   {}   {}",
                scene.team_names[0],
                scene.team_names[1],
                super::scene::mmss(scene.time),
                scene.phase
            )
        };
        let galley = painter.layout_no_wrap(board, FontId::proportional(16.0), Color32::WHITE);
        let at = rect.left_top() + Vec2::new(10.0, 8.0);
        painter.rect_filled(
            Rect::from_min_size(at, galley.size()).expand(4.0),
            4.0,
            Color32::from_black_alpha(170),
        );
        painter.galley(at, galley, Color32::WHITE);
        if let Some([x, y]) = self.hovered {
            painter.text(
                rect.left_bottom() + Vec2::new(8.0, -6.0),
                Align2::LEFT_BOTTOM,
                format!("x = {x:.2} m, y = {y:.2} m"),
                FontId::monospace(12.0),
                Color32::WHITE,
            );
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            return Self::robot_at(scene, tf.to_field(p));
        }
        None
    }
}

fn draw_lines(painter: &egui::Painter, tf: &FieldTransform, f: &FieldDimensions) {
    let line = Stroke::new(tf.length(0.05).clamp(1.0, 4.0), Color32::WHITE);
    let (hl, hw) = (f.half_length(), f.half_width());
    let outline = StrokeKind::Middle;
    painter.rect_stroke(tf.rect(-hl, -hw, hl, hw), 0.0, line, outline);
    painter.line_segment([tf.to_screen(0.0, -hw), tf.to_screen(0.0, hw)], line);
    painter.circle_stroke(
        tf.to_screen(0.0, 0.0),
        tf.length(f.center_circle_diameter / 2.0),
        line,
    );
    let spot = tf.length(0.05).max(2.0);
    painter.circle_filled(tf.to_screen(0.0, 0.0), spot, Color32::WHITE);
    for s in [-1.0, 1.0] {
        let goal_line = s * hl;
        for (depth, width) in [
            (f.penalty_area_length, f.penalty_area_width),
            (f.goal_box_area_length, f.goal_box_area_width),
        ] {
            painter.rect_stroke(
                tf.rect(goal_line, -width / 2.0, goal_line - s * depth, width / 2.0),
                0.0,
                line,
                outline,
            );
        }
        painter.circle_filled(
            tf.to_screen(goal_line - s * f.penalty_marker_distance, 0.0),
            spot,
            Color32::WHITE,
        );
        // The goal: a net behind the line, in the colour of the team defending it.
        let defender = if s < 0.0 { HOME_BLUE } else { AWAY_RED };
        let g = f.goal_inner_width / 2.0;
        let net = tf.rect(goal_line, -g, goal_line + s * GOAL_DEPTH, g);
        painter.rect_filled(net, 0.0, defender.gamma_multiply(0.35));
        painter.rect_stroke(net, 0.0, Stroke::new(line.width, defender), outline);
        for post in [-g, g] {
            painter.circle_filled(
                tf.to_screen(goal_line, post),
                tf.length(0.05).max(2.5),
                Color32::WHITE,
            );
        }
    }
}

fn draw_paths(painter: &egui::Painter, tf: &FieldTransform, scene: &SoccerScene) {
    for r in &scene.robots {
        if r.penalized {
            continue;
        }
        let colour = team_colour(r.team).gamma_multiply(0.9);
        let mut points = vec![tf.to_screen(r.x, r.y)];
        if let Some(n) = r.path_next {
            points.push(tf.to_screen(n[0], n[1]));
        }
        if let Some(t) = r.target {
            points.push(tf.to_screen(t[0], t[1]));
        }
        if points.len() < 2 {
            continue;
        }
        painter.extend(Shape::dashed_line(
            &points,
            Stroke::new(1.5, colour),
            6.0,
            4.0,
        ));
        if let Some(t) = r.target {
            let p = tf.to_screen(t[0], t[1]);
            let s = 4.0;
            let stroke = Stroke::new(2.0, colour);
            painter.line_segment([p - Vec2::new(s, s), p + Vec2::new(s, s)], stroke);
            painter.line_segment([p - Vec2::new(s, -s), p + Vec2::new(s, -s)], stroke);
        }
    }
}

fn draw_messages(painter: &egui::Painter, tf: &FieldTransform, scene: &SoccerScene) {
    for m in scene.recent_messages() {
        let fade = (1.0 - ((scene.time - m.t) / MESSAGE_FLASH_SECONDS) as f32).clamp(0.0, 1.0);
        let Some(from) = m.pose.or_else(|| {
            scene
                .robots
                .iter()
                .find(|r| r.team == m.team && r.number == m.from)
                .map(|r| [r.x, r.y])
        }) else {
            continue;
        };
        let a = tf.to_screen(from[0], from[1]);
        let colour = Color32::from_rgb(250, 250, 210).gamma_multiply(fade);
        painter.circle_stroke(
            a,
            tf.length(ROBOT_RADIUS) + 6.0 + 10.0 * (1.0 - fade),
            Stroke::new(2.0, colour),
        );
        for mate in scene
            .robots
            .iter()
            .filter(|r| r.team == m.team && r.number != m.from && !r.penalized)
        {
            painter.line_segment(
                [a, tf.to_screen(mate.x, mate.y)],
                Stroke::new(1.0, colour.gamma_multiply(0.6)),
            );
        }
        if let Some(b) = m.ball {
            painter.circle_stroke(tf.to_screen(b[0], b[1]), 4.0, Stroke::new(1.5, colour));
        }
    }
}

/// White text with a dark shadow, readable on grass, heat and team colours.
fn shadowed_text(painter: &egui::Painter, at: Pos2, align: Align2, text: &str, font: FontId) {
    painter.text(
        at + Vec2::new(1.0, 1.0),
        align,
        text,
        font.clone(),
        Color32::from_black_alpha(220),
    );
    painter.text(at, align, text, font, Color32::WHITE);
}

fn draw_robot(painter: &egui::Painter, tf: &FieldTransform, r: &RobotView, selected: bool) {
    let c = tf.to_screen(r.x, r.y);
    let radius = tf.length(ROBOT_RADIUS).max(7.0);
    let colour = team_colour(r.team);
    let fill = if r.penalized || r.fallen || r.pose_lost {
        colour.gamma_multiply(0.45)
    } else {
        colour
    };
    if selected {
        painter.circle_stroke(c, radius + 4.0, Stroke::new(3.0, SELECTED_YELLOW));
    }
    let dir = |angle: f64| Vec2::new(angle.cos() as f32, -(angle.sin() as f32));
    // Head direction: a wedge-like line beyond the body.
    let head = dir(r.yaw + r.head_yaw);
    painter.line_segment(
        [
            c + head * radius * 0.6,
            c + head * (radius + tf.length(0.3)),
        ],
        Stroke::new(2.0, Color32::from_rgb(255, 240, 150)),
    );
    // Heading: a white nose on the rim.
    let fwd = dir(r.yaw);
    let side = Vec2::new(-fwd.y, fwd.x);
    painter.add(Shape::convex_polygon(
        vec![
            c + fwd * (radius + 6.0),
            c + fwd * (radius - 2.0) + side * radius * 0.45,
            c + fwd * (radius - 2.0) - side * radius * 0.45,
        ],
        Color32::WHITE,
        Stroke::new(1.0, Color32::BLACK),
    ));
    painter.circle(c, radius, fill, Stroke::new(1.5, Color32::BLACK));
    shadowed_text(
        painter,
        c,
        Align2::CENTER_CENTER,
        &r.number.to_string(),
        FontId::proportional((radius * 1.4).clamp(11.0, 22.0)),
    );
    shadowed_text(
        painter,
        c + Vec2::new(0.0, radius + 2.0),
        Align2::CENTER_TOP,
        &role_tag(r),
        FontId::proportional(11.0),
    );
    if r.fallen {
        let s = radius * 0.8;
        let stroke = Stroke::new(3.0, Color32::BLACK);
        painter.line_segment([c - Vec2::new(s, s), c + Vec2::new(s, s)], stroke);
        painter.line_segment([c - Vec2::new(s, -s), c + Vec2::new(s, -s)], stroke);
    }
    if r.penalized {
        painter.rect_stroke(
            Rect::from_center_size(c, Vec2::splat(radius * 2.4)),
            2.0,
            Stroke::new(2.0, Color32::from_rgb(255, 80, 80)),
            StrokeKind::Middle,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_fits_the_panel_centred_with_y_up() {
        let field = FieldDimensions::default(); // 9 x 6 plus 1 m border: 11 x 8
        let rect = Rect::from_min_size(Pos2::new(100.0, 50.0), Vec2::new(1100.0, 1600.0));
        let tf = FieldTransform::fit(rect, &field);
        assert_eq!(tf.scale, 100.0); // width-bound: 1100 / 11
        assert_eq!(tf.to_screen(0.0, 0.0), rect.center());
        let corner = tf.to_screen(4.5, 3.0);
        assert_eq!(corner, rect.center() + Vec2::new(450.0, -300.0));
        let back = tf.to_field(corner);
        assert!((back[0] - 4.5).abs() < 1e-4 && (back[1] - 3.0).abs() < 1e-4);
        // Height-bound panel.
        let wide = Rect::from_min_size(Pos2::ZERO, Vec2::new(2000.0, 400.0));
        assert_eq!(FieldTransform::fit(wide, &field).scale, 50.0);
        assert_eq!(tf.length(0.5), 50.0);
    }

    #[test]
    fn a_degenerate_field_still_gives_a_finite_transform() {
        let field = FieldDimensions {
            length: f64::NAN,
            width: 0.0,
            border_strip_width: -1.0,
            ..FieldDimensions::default()
        };
        let rect = Rect::from_min_size(Pos2::ZERO, Vec2::new(900.0, 600.0));
        let tf = FieldTransform::fit(rect, &field);
        assert_eq!(tf.scale, 100.0);
        let empty = FieldTransform::fit(Rect::NOTHING, &FieldDimensions::default());
        assert!(empty.scale.is_finite() && empty.scale > 0.0);
    }

    #[test]
    fn heat_is_transparent_at_zero_and_clamped() {
        assert_eq!(heat_colour(0.0), Color32::TRANSPARENT);
        assert_eq!(heat_colour(f64::NAN).a(), 0);
        assert_eq!(heat_colour(7.0), heat_colour(1.0));
        assert!(heat_colour(1.0).a() > heat_colour(0.2).a());
    }

    #[test]
    fn clicks_pick_the_nearest_robot_within_reach() {
        let robot = |team, number, x| RobotView {
            team,
            number,
            x,
            y: 0.0,
            yaw: 0.0,
            head_yaw: 0.0,
            role: None,
            branch: String::new(),
            motion: "stand".into(),
            fallen: false,
            penalized: false,
            pose_lost: false,
            decides: true,
            target: None,
            path_next: None,
            perceived_ball: None,
        };
        let scene = SoccerScene {
            robots: vec![robot(TeamSide::Home, 2, 0.0), robot(TeamSide::Away, 4, 0.5)],
            ..SoccerScene::default()
        };
        assert_eq!(
            FieldView::robot_at(&scene, [0.1, 0.0]),
            Some((TeamSide::Home, 2))
        );
        assert_eq!(
            FieldView::robot_at(&scene, [0.4, 0.1]),
            Some((TeamSide::Away, 4))
        );
        assert_eq!(FieldView::robot_at(&scene, [2.0, 0.0]), None);
    }
}
