//! Bit-exactness against OpenCV 4.6 outputs committed in `tests/fixtures/` (made by
//! `make_fixture.py`): PNG -> grey like `imread(IMREAD_GRAYSCALE)`, and `INTER_LINEAR` resize.

mod common;

use common::{TestResult, diff_report, fixture, fnv1a64, read_pgm};
use std::path::Path;
use waypoint_graph::ObstacleMap;
use waypoint_graph::map::{decode_png_grey, resize_linear_u8};

fn grey_of(path: &Path) -> TestResult<(u32, u32, Vec<u8>)> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let g = decode_png_grey(&bytes)?;
    Ok((g.width, g.height, g.pixels))
}

#[test]
fn map_png_grey_matches_imread_grayscale() -> TestResult {
    let got = grey_of(&fixture("map.png"))?;
    let want = read_pgm(&fixture("map_grey.pgm"))?;
    assert_eq!((got.0, got.1), (want.0, want.1));
    assert!(got.2 == want.2, "{}", diff_report(got.0, &got.2, &want.2));
    Ok(())
}

#[test]
fn png_variants_match_imread_grayscale() -> TestResult {
    let mut names: Vec<String> = std::fs::read_dir(fixture(""))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("v_") && n.ends_with(".png"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 20,
        "expected the PNG variant fixtures, found {names:?}"
    );
    let mut failures = Vec::new();
    for name in &names {
        let got = grey_of(&fixture(name))?;
        let want = read_pgm(&fixture(&name.replace(".png", ".pgm")))?;
        if (got.0, got.1) != (want.0, want.1) || got.2 != want.2 {
            failures.push(format!("{name}: {}", diff_report(got.0, &got.2, &want.2)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}

#[test]
fn resize_matches_inter_linear_on_the_fixture_sizes() -> TestResult {
    let (w, h, grey) = read_pgm(&fixture("map_grey.pgm"))?;
    // 137x90: upscale, non-integer ratio; 45x30: downscale; 122x82: exact 2x up;
    // 1x5 and 200x3: degenerate; 61x41: identity.
    for (dw, dh) in [(137, 90), (45, 30), (122, 82), (1, 5), (200, 3), (61, 41)] {
        let want = read_pgm(&fixture(&format!("map_{dw}x{dh}.pgm")))?;
        assert_eq!((want.0, want.1), (dw, dh));
        let got = resize_linear_u8(&grey, w, h, dw, dh);
        assert!(
            got == want.2,
            "{dw}x{dh}: {}",
            diff_report(dw, &got, &want.2)
        );
    }
    Ok(())
}

#[test]
fn exact_half_downscale_matches_opencv() -> TestResult {
    let (w, _, grey) = read_pgm(&fixture("map_grey.pgm"))?;
    let crop: Vec<u8> = grey
        .chunks_exact(w as usize)
        .take(40)
        .flat_map(|row| row.iter().take(60).copied())
        .collect();
    let want = read_pgm(&fixture("crop60x40_30x20.pgm"))?;
    let got = resize_linear_u8(&crop, 60, 40, 30, 20);
    assert!(got == want.2, "{}", diff_report(30, &got, &want.2));
    Ok(())
}

/// Expected hashes of OpenCV's grey and resized `resources/RMUL.png`.
fn rmul_hashes() -> TestResult<Vec<(String, u32, u32, u64)>> {
    let text = std::fs::read_to_string(fixture("rmul_hashes.txt"))?;
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [name, w, h, hash] = f.as_slice() else {
            return Err(format!("bad hash line {line:?}").into());
        };
        out.push((
            name.to_string(),
            w.parse()?,
            h.parse()?,
            u64::from_str_radix(hash, 16)?,
        ));
    }
    Ok(out)
}

#[test]
fn workspace_rmul_map_matches_opencv_hashes() -> TestResult {
    let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("../resources/RMUL.png");
    let (w, h, grey) = grey_of(&png)?;
    let hashes = rmul_hashes()?;
    assert_eq!(hashes.len(), 3, "{hashes:?}");
    for (name, hw, hh, hash) in hashes {
        if name == "grey" {
            assert_eq!((w, h), (hw, hh));
            assert_eq!(fnv1a64(&grey), hash, "grey of RMUL.png");
        } else {
            let field = if hw == 1620 {
                (12.0, 8.0)
            } else {
                (25.0, 15.0)
            };
            let map = ObstacleMap::load_png(&png, field.0, field.1)?;
            assert_eq!((map.cols(), map.rows()), (hw, hh));
            assert_eq!(fnv1a64(map.pixels()), hash, "RMUL.png resized to {hw}x{hh}");
        }
    }
    Ok(())
}
