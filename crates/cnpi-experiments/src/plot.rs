//! Line charts with spread bars, written as PNG and SVG with plotters.
//!
//! Text in the PNG is drawn with DejaVu Sans, shipped inside the binary
//! (`fonts/DejaVuSans.ttf`, its licence in `fonts/LICENSE`) and rendered by
//! plotters' pure-Rust `ab_glyph` feature: no system font, no fontconfig.
//! A plot that cannot be drawn is the caller's warning (W1301), never a
//! reason to lose the rows it was drawn from.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cnpi::diagnostic::{Diagnostic, codes};
use image::ImageEncoder;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The size of both plots, in pixels.
const WIDTH: u32 = 800;
const HEIGHT: u32 = 560;

/// One line: `(x, mean, low, high)` per point.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64, f64, f64)>,
}

const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
];

/// The font every plot's text is drawn with.
const FONT: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// Registers [`FONT`] as plotters' `sans-serif`, once per process.
fn register_font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
                .map_err(|_| "the shipped font is not a valid font file".to_string())
        })
        .clone()
}

/// Draws `stem.png` and `stem.svg` in memory: the two paths and their
/// bytes, or a W1301 warning that names the plot.
pub fn line_chart(
    stem: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<[(PathBuf, Vec<u8>); 2], Diagnostic> {
    let png = stem.with_extension("png");
    let svg = stem.with_extension("svg");
    register_font().map_err(|e| failed(&png, e))?;
    let mut pixels = vec![0u8; (WIDTH * HEIGHT * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, title, x_label, y_label, series).map_err(|e| failed(&png, e))?;
        root.present().map_err(|e| failed(&png, e))?;
    }
    let mut svg_text = String::new();
    {
        let root = SVGBackend::with_string(&mut svg_text, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, title, x_label, y_label, series).map_err(|e| failed(&svg, e))?;
        root.present().map_err(|e| failed(&svg, e))?;
    }
    let mut png_bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png_bytes)
        .write_image(&pixels, WIDTH, HEIGHT, image::ColorType::Rgb8)
        .map_err(|e| failed(&png, e))?;
    Ok([(png, png_bytes), (svg, svg_text.into_bytes())])
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x_min, x_max) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (x_min, x_max) = if x_min.is_finite() {
        (x_min, x_max)
    } else {
        (0.0, 1.0)
    };
    let lows = series.iter().flat_map(|s| s.points.iter().map(|p| p.2));
    let y_min = lows.fold(100.0f64, f64::min).min(90.0);
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(x_min - 0.5..x_max + 0.5, (y_min - 2.0).floor()..101.0)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        // Offset the variants a little so their bars do not overlap.
        let shift = (i as f64 - 1.0) * 0.12;
        chart
            .draw_series(LineSeries::new(
                s.points.iter().map(|p| (p.0 + shift, p.1)),
                color.stroke_width(2),
            ))?
            .label(s.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart.draw_series(
            s.points
                .iter()
                .map(|p| ErrorBar::new_vertical(p.0 + shift, p.2, p.1, p.3, color.filled(), 6)),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

pub(crate) fn failed(path: &Path, error: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::warning(
        codes::W1301,
        format!("cannot draw the plot `{}`: {error}", path.display()),
    )
    .with_help("the rows and tables were written; only the plot is missing")
}
