//! `evaluate --report DIR`: `DIR/index.html`, readable offline, with SVG plots drawn by
//! plotters: each metric's per-match values of A and B side by side, the paired differences,
//! and per match a strip of which decision was in effect over time.

use super::{Lane, Played};
use plotters::prelude::*;
use std::fmt::Write;
use std::path::Path;

/// Colour of config A's marks.
const A_COLOUR: RGBColor = RGBColor(31, 119, 180);
/// Colour of config B's marks.
const B_COLOUR: RGBColor = RGBColor(255, 127, 14);

/// A distinct colour per legend position (cycling after 20).
fn item_colour(k: usize) -> RGBColor {
    const PALETTE: [(u8, u8, u8); 20] = [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
        (174, 199, 232),
        (255, 187, 120),
        (152, 223, 138),
        (255, 152, 150),
        (197, 176, 213),
        (196, 156, 148),
        (247, 182, 210),
        (199, 199, 199),
        (219, 219, 141),
        (158, 218, 229),
    ];
    let (r, g, b) = PALETTE[k % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The range `values` span, widened so that a constant metric still has a visible axis.
fn span(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return (-1.0, 1.0);
    }
    let pad = ((hi - lo) * 0.1).max(lo.abs().max(1.0) * 0.05);
    (lo - pad, hi + pad)
}

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

type Plot = Result<String, String>;

/// A chart over `n` matches (x) and `range` (y) on a white `root`, with its title and axes.
fn per_match_chart<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    title: &str,
    n: usize,
    (lo, hi): (f64, f64),
) -> Result<
    ChartContext<
        'a,
        SVGBackend<'b>,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    String,
> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 15))
        .margin(8)
        .x_label_area_size(28)
        .y_label_area_size(52)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, lo..hi)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("match")
        .x_labels(n.min(10))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(chart)
}

/// Per-match values of one metric: A's and B's marks side by side.
fn values_plot(title: &str, a: &[f64], b: Option<&[f64]>) -> Plot {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (460, 220)).into_drawing_area();
        let range = span(a.iter().chain(b.unwrap_or(&[])).copied());
        let mut chart = per_match_chart(&root, title, a.len(), range)?;
        let offset = if b.is_some() { 0.15 } else { 0.0 };
        chart
            .draw_series(
                a.iter()
                    .enumerate()
                    .filter(|(_, v)| !v.is_nan())
                    .map(|(i, &v)| Circle::new((i as f64 - offset, v), 4, A_COLOUR.filled())),
            )
            .map_err(|e| e.to_string())?
            .label("A")
            .legend(|(x, y)| Circle::new((x, y), 4, A_COLOUR.filled()));
        if let Some(b) = b {
            chart
                .draw_series(
                    b.iter()
                        .enumerate()
                        .filter(|(_, v)| !v.is_nan())
                        .map(|(i, &v)| {
                            TriangleMarker::new((i as f64 + offset, v), 5, B_COLOUR.filled())
                        }),
                )
                .map_err(|e| e.to_string())?
                .label("B")
                .legend(|(x, y)| TriangleMarker::new((x, y), 5, B_COLOUR.filled()));
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .border_style(BLACK)
                .background_style(WHITE.mix(0.8))
                .draw()
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The paired differences B - A per match, with the zero line and their `mean` (the
/// evaluation's paired difference; the line lies at 0 when no match pairs a value).
fn differences_plot(title: &str, a: &[f64], b: &[f64], mean: f64) -> Plot {
    // NaN where a match has no value in A or B: no mark.
    let differences: Vec<f64> = a.iter().zip(b).map(|(a, b)| b - a).collect();
    let mean = if mean.is_nan() { 0.0 } else { mean };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (460, 220)).into_drawing_area();
        let n = differences.len();
        let range = span(differences.iter().copied().chain([0.0]));
        let mut chart = per_match_chart(&root, title, n, range)?;
        chart
            .draw_series(LineSeries::new(
                [(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
                BLACK.stroke_width(1),
            ))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                [(-0.5, mean), (n as f64 - 0.5, mean)],
                B_COLOUR.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(
                differences
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| !d.is_nan())
                    .map(|(i, &d)| {
                        Rectangle::new(
                            [(i as f64 - 0.3, 0.0), (i as f64 + 0.3, d)],
                            B_COLOUR.filled(),
                        )
                    }),
            )
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// One row per lane of each match and config: what was in effect over time.
fn strips_plot(rows: &[(String, &Lane)]) -> Plot {
    let end = rows
        .iter()
        .flat_map(|(_, lane)| lane.segments.last().map(|s| s.to))
        .fold(1.0f64, f64::max);
    let height = 40 + 18 * rows.len() as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (940, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..end, 0f64..rows.len() as f64)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_mesh()
            .disable_y_axis()
            .x_desc("simulated time (s)")
            .draw()
            .map_err(|e| e.to_string())?;
        for (row, (_, lane)) in rows.iter().enumerate() {
            let top = (rows.len() - row) as f64 - 0.1;
            let bottom = top - 0.8;
            chart
                .draw_series(lane.segments.iter().filter_map(|s| {
                    let colour = item_colour(s.item?);
                    Some(Rectangle::new(
                        [(s.from, bottom), (s.to, top)],
                        colour.filled(),
                    ))
                }))
                .map_err(|e| e.to_string())?;
            // The row's label left of the plot, in pixels.
            let (_, y) = chart.backend_coord(&(0.0, (top + bottom) / 2.0));
            root.draw(&Text::new(
                rows[row].0.clone(),
                (12, y - 6),
                ("sans-serif", 13),
            ))
            .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Matches whose strips the report draws (a soccer match has a strip per robot).
const STRIP_MATCHES: usize = 20;

/// Writes `dir/index.html` for what was `played`.
pub fn write_report(dir: &Path, played: &Played) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let evaluation = &played.evaluation;
    let (a, b) = (&played.a, played.b.as_deref());
    let mut html = String::new();
    let title = format!("robot-decision evaluate ({})", evaluation.profile);
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{title}</title><style>body{{font-family:sans-serif;margin:1.5em;color:#222}}\
         .plots{{display:flex;flex-wrap:wrap;gap:8px}}.swatch{{display:inline-block;width:12px;\
         height:12px;margin:0 4px 0 12px;vertical-align:middle}}</style></head><body>\n\
         <h1>{title}</h1>\n<pre>{}</pre>\n",
        escape(&super::report::table(evaluation))
    );
    let _ = writeln!(html, "<h2>Metrics per match</h2>");
    for (k, metric) in evaluation.metrics.iter().enumerate() {
        let a_values: Vec<f64> = a.iter().map(|r| r.values[k]).collect();
        let b_values: Option<Vec<f64>> = b.map(|rs| rs.iter().map(|r| r.values[k]).collect());
        let name = format!(
            "{} ({}, {} is better)",
            metric.name, metric.unit, metric.better
        );
        let _ = writeln!(html, "<div class=\"plots\">");
        html.push_str(&values_plot(&name, &a_values, b_values.as_deref())?);
        if let Some(b_values) = &b_values {
            let caption = format!("{}: B - A per match", metric.name);
            let mean = metric.difference.as_ref().map_or(f64::NAN, |d| d.mean);
            html.push_str(&differences_plot(&caption, &a_values, b_values, mean)?);
        }
        let _ = writeln!(html, "</div>");
    }
    let what = if evaluation.profile == "soccer" {
        "Role of each robot over time"
    } else {
        "Decision in effect over time"
    };
    let _ = writeln!(html, "<h2>{what}</h2>\n<p>");
    for (position, name) in played.legend.iter().enumerate() {
        let RGBColor(r, g, bl) = item_colour(position);
        let _ = write!(
            html,
            "<span class=\"swatch\" style=\"background:rgb({r},{g},{bl})\"></span>{}",
            escape(name)
        );
    }
    let _ = writeln!(html, "</p>");
    let mut rows: Vec<(String, &Lane)> = Vec::new();
    for (i, result) in a.iter().enumerate().take(STRIP_MATCHES) {
        let configs =
            std::iter::once(("A", result)).chain(b.and_then(|b| b.get(i)).map(|r| ("B", r)));
        for (config, result) in configs {
            for lane in &result.lanes {
                let label = format!("{i} {config}{}", lane.label);
                rows.push((label.trim_end().to_owned(), lane));
            }
        }
    }
    html.push_str(&strips_plot(&rows)?);
    html.push_str("\n</body></html>\n");
    let path = dir.join("index.html");
    std::fs::write(&path, html).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}
