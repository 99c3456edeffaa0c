//! No input makes the loader panic: truncated and mutated versions of every fixture.

use std::path::{Path, PathBuf};

fn fixtures(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            fixtures(&p, out);
        } else if p.extension().is_some_and(|x| x == "xml") {
            out.push(p);
        }
    }
}

#[test]
fn truncated_and_mutated_inputs_do_not_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    fixtures(&root, &mut files);
    files.sort();
    assert!(files.len() > 20);
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let inserts = [
        "&", "<", "\"", "'", ">", "&lt;", "&#", "&#x;", "\r\n", "]]>", "<!--", "é",
    ];
    let mut runs = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let base = f.parent().unwrap_or(Path::new("."));
        let cuts: Vec<usize> = (0..=text.len())
            .filter(|i| text.is_char_boundary(*i))
            .collect();
        for &cut in cuts.iter().step_by(3) {
            let _ = bt_xml::load_str(&text[..cut], "cut.xml", base);
            runs += 1;
        }
        for _ in 0..60 {
            let at = cuts[(next() as usize) % cuts.len()];
            let ins = inserts[(next() as usize) % inserts.len()];
            let mutated = format!("{}{}{}", &text[..at], ins, &text[at..]);
            if let Ok(doc) = bt_xml::load_str(&mutated, "mutated.xml", base) {
                for t in &doc.trees {
                    let _ = doc.expand(&t.id);
                }
                let _ = doc.main_tree_id(None);
            }
            runs += 1;
        }
    }
    assert!(runs > 1000);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 5000;
    let text = format!(
        "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">{}<Noop/>{}</BehaviorTree></root>",
        "<Inverter>".repeat(depth),
        "</Inverter>".repeat(depth)
    );
    let d = match bt_xml::load_str(&text, "deep.xml", Path::new(".")) {
        Ok(_) => panic!("should not load"),
        Err(d) => d,
    };
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].message, "elements nested deeper than 256 levels");
    assert_eq!(
        (d[0].position.line, d[0].position.column),
        (1, 45 + 10 * 256)
    );
}
