//! Reading files, following `<include>`, and turning elements into [`XmlNode`]s.

use std::collections::HashSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::lenient::{self, Prepared};
use crate::{Attribute, Diagnostic, Document, Position, TreeDefinition, XmlNode};

/// Deepest element nesting accepted inside a BehaviorTree (BT.CPP 4.10's `kMaxNestingDepth`:
/// the child of `<BehaviorTree>` is at depth 1).
const MAX_DEPTH: usize = 256;

/// BT.CPP 4.10's `findForbiddenChar`: the first character of `name` that a tree, node or port
/// name must not contain (ASCII controls, whitespace, `< > & " ' / \ : * ? | .`); non-ASCII
/// characters are allowed.
pub fn find_forbidden_char(name: &str) -> Option<char> {
    const FORBIDDEN: &[char] = &[
        ' ', '\t', '\n', '\r', '<', '>', '&', '"', '\'', '/', '\\', ':', '*', '?', '|', '.',
    ];
    name.chars()
        .find(|&c| c.is_ascii() && (c.is_ascii_control() || FORBIDDEN.contains(&c)))
}

/// BT.CPP 4.10's `IsReservedAttribute`: `name`, `ID`, `_autoremap` and the pre/post-condition
/// attributes.
pub fn is_reserved_attribute(name: &str) -> bool {
    matches!(
        name,
        "name"
            | "ID"
            | "_autoremap"
            | "_failureIf"
            | "_successIf"
            | "_skipIf"
            | "_while"
            | "_onSuccess"
            | "_onFailure"
            | "_onHalted"
            | "_post"
    )
}

/// BT.CPP 4.10's `IsAllowedPortName`: starts with an ASCII letter, no forbidden character,
/// not reserved.
pub fn is_allowed_port_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && find_forbidden_char(name).is_none()
        && !is_reserved_attribute(name)
}

/// `'c'`, or `control character (ASCII n)`, as BT.CPP names a forbidden character.
fn describe_char(c: char) -> String {
    if c.is_ascii_control() {
        format!("control character (ASCII {})", c as u32)
    } else {
        format!("'{c}'")
    }
}

/// BT.CPP 4.10's `validateModelName` (BehaviorTree and SubTree IDs, node element names).
fn model_name_problem(what: &str, name: &str) -> Option<String> {
    if name.is_empty() {
        Some(format!("empty {what}"))
    } else if name == "Root" || name == "root" {
        Some(format!("the {what} \"{name}\" is reserved"))
    } else {
        find_forbidden_char(name).map(|c| {
            format!(
                "the {what} \"{name}\" contains the forbidden character {}",
                describe_char(c)
            )
        })
    }
}

/// BT.CPP 4.10's `validatePortName` (ports of a SubTree model in `<TreeNodesModel>`).
fn port_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        Some("empty port name".to_string())
    } else if name.starts_with(|c: char| c.is_ascii_digit()) {
        Some(format!("the port name \"{name}\" starts with a digit"))
    } else if let Some(c) = find_forbidden_char(name) {
        Some(format!(
            "the port name \"{name}\" contains the forbidden character {}",
            describe_char(c)
        ))
    } else if is_reserved_attribute(name) {
        Some(format!(
            "the port name \"{name}\" is a reserved attribute name"
        ))
    } else {
        None
    }
}

/// Loads `path` and everything it includes; all problems are returned at once.
pub fn load_file(path: &Path) -> Result<Document, Vec<Diagnostic>> {
    let mut loader = Loader::default();
    let base = path.parent().unwrap_or(Path::new(""));
    match fs::read(path) {
        Ok(bytes) => {
            let identity = fs::canonicalize(path).ok();
            loader.load_bytes(bytes, path.to_path_buf(), base, identity, true);
        }
        Err(e) => loader.diags.push(Diagnostic {
            position: start_of(path),
            message: format!("cannot read the file: {e}"),
        }),
    }
    loader.finish()
}

/// Loads XML text named `file_name` (used in positions); includes are relative to `base_dir`.
pub fn load_str(text: &str, file_name: &str, base_dir: &Path) -> Result<Document, Vec<Diagnostic>> {
    let mut loader = Loader::default();
    let identity = fs::canonicalize(base_dir.join(file_name)).ok();
    loader.load_text(text, PathBuf::from(file_name), base_dir, identity, true);
    loader.finish()
}

fn start_of(file: &Path) -> Position {
    Position {
        file: file.to_path_buf(),
        line: 1,
        column: 1,
    }
}

#[derive(Default)]
struct Loader {
    trees: Vec<TreeDefinition>,
    diags: Vec<Diagnostic>,
    files: Vec<PathBuf>,
    /// Canonical paths of the files read so far (each is loaded once).
    loaded: HashSet<PathBuf>,
    /// The chain of includes being loaded: (canonical, as displayed).
    stack: Vec<(PathBuf, PathBuf)>,
    /// Counter for unnamed trees (`BehaviorTree_N`).
    unnamed: usize,
    main_tree: Option<String>,
    format: Option<String>,
    root_attributes: Vec<(String, String)>,
}

/// Byte offset to line and column for one text.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    fn line_col(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let col = text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (to_u32(line), to_u32(col + 1))
    }

    /// The byte offset of a roxmltree `TextPos` (1-based row, column in characters).
    fn offset_of(&self, text: &str, row: u32, col: u32) -> usize {
        let row = usize::try_from(row).unwrap_or(usize::MAX).max(1);
        let Some(&start) = self.starts.get(row - 1) else {
            return text.len();
        };
        let skip = usize::try_from(col).unwrap_or(usize::MAX).saturating_sub(1);
        text[start..]
            .char_indices()
            .nth(skip)
            .map_or(text.len(), |(i, _)| start + i)
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// One file being converted: positions in the prepared text map back to the original.
struct FileCtx<'a> {
    file: PathBuf,
    base_dir: PathBuf,
    original: &'a str,
    index: LineIndex,
    prepared: &'a Prepared,
}

impl FileCtx<'_> {
    fn pos(&self, prepared_offset: usize) -> Position {
        self.pos_original(self.prepared.to_original(prepared_offset))
    }

    fn pos_original(&self, offset: usize) -> Position {
        let (line, column) = self.index.line_col(self.original, offset);
        Position {
            file: self.file.clone(),
            line,
            column,
        }
    }

    fn node_pos(&self, node: roxmltree::Node) -> Position {
        self.pos(node.range().start)
    }
}

fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

fn attribute<'a>(
    node: roxmltree::Node<'a, '_>,
    name: &str,
) -> Option<roxmltree::Attribute<'a, 'a>> {
    node.attributes().find(|a| a.name() == name)
}

impl Loader {
    fn finish(self) -> Result<Document, Vec<Diagnostic>> {
        if self.diags.is_empty() {
            Ok(Document {
                trees: self.trees,
                main_tree: self.main_tree,
                format: self.format,
                root_attributes: self.root_attributes,
                files: self.files,
            })
        } else {
            Err(self.diags)
        }
    }

    fn error(&mut self, position: Position, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            position,
            message: message.into(),
        });
    }

    fn load_bytes(
        &mut self,
        bytes: Vec<u8>,
        file: PathBuf,
        base_dir: &Path,
        identity: Option<PathBuf>,
        is_main: bool,
    ) {
        match String::from_utf8(bytes) {
            Ok(text) => self.load_text(&text, file, base_dir, identity, is_main),
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
                let (line, column) = LineIndex::new(&prefix).line_col(&prefix, valid);
                self.files.push(file.clone());
                self.error(
                    Position { file, line, column },
                    "the file is not valid UTF-8",
                );
            }
        }
    }

    fn load_text(
        &mut self,
        text: &str,
        file: PathBuf,
        base_dir: &Path,
        identity: Option<PathBuf>,
        is_main: bool,
    ) {
        self.files.push(file.clone());
        if let Some(id) = &identity {
            self.loaded.insert(id.clone());
        }
        let pushed = identity
            .map(|id| self.stack.push((id, file.clone())))
            .is_some();
        let prepared = lenient::prepare(text);
        let ctx = FileCtx {
            file,
            base_dir: base_dir.to_path_buf(),
            original: text,
            index: LineIndex::new(text),
            prepared: &prepared,
        };
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        };
        match roxmltree::Document::parse_with_options(&prepared.text, options) {
            Ok(doc) => self.load_root(&ctx, doc.root_element(), is_main),
            Err(e) => {
                let position = match e {
                    roxmltree::Error::UnclosedRootNode
                    | roxmltree::Error::UnexpectedEndOfStream => ctx.pos_original(text.len()),
                    _ => {
                        let p = e.pos();
                        let index = LineIndex::new(&prepared.text);
                        ctx.pos(index.offset_of(&prepared.text, p.row, p.col))
                    }
                };
                let message = e.to_string().replace(&format!(" at {}", e.pos()), "");
                self.error(position, format!("XML syntax error: {message}"));
            }
        }
        if pushed {
            self.stack.pop();
        }
    }

    fn check_text(&mut self, ctx: &FileCtx, node: roxmltree::Node, parent: &str) {
        let Some(text) = node.text() else { return };
        if text.chars().all(is_xml_space) {
            return;
        }
        let raw = ctx.prepared.text.get(node.range()).unwrap_or_default();
        let lead = raw.len() - raw.trim_start_matches(is_xml_space).len();
        let snippet: String = text.trim_matches(is_xml_space).chars().take(30).collect();
        self.error(
            ctx.pos(node.range().start + lead),
            format!("unexpected text \"{snippet}\" inside <{parent}>"),
        );
    }

    fn load_root(&mut self, ctx: &FileCtx, root: roxmltree::Node, is_main: bool) {
        let tag = root.tag_name().name();
        if tag != "root" {
            self.error(
                ctx.node_pos(root),
                format!("the root element must be <root>, found <{tag}>"),
            );
            return;
        }
        let format = attribute(root, "BTCPP_format");
        if let Some(a) = &format
            && a.value() != "4"
            && a.value() != "3"
        {
            self.error(
                ctx.pos(a.range().start),
                format!(
                    "unsupported BTCPP_format=\"{}\" (expected \"4\" or \"3\")",
                    a.value()
                ),
            );
        }
        if is_main {
            self.format = format.map(|a| a.value().to_string());
            self.main_tree = attribute(root, "main_tree_to_execute").map(|a| a.value().to_string());
            self.root_attributes = root
                .attributes()
                .filter(|a| !matches!(a.name(), "BTCPP_format" | "main_tree_to_execute"))
                .map(|a| (a.name().to_owned(), a.value().to_owned()))
                .collect();
        }
        for child in root.children() {
            if child.is_text() {
                self.check_text(ctx, child, "root");
            }
        }
        // As in BT.CPP: first every include (recursively), then this file's trees.
        for el in root.children().filter(|n| n.has_tag_name("include")) {
            self.include(ctx, el);
        }
        let trees: Vec<_> = root
            .children()
            .filter(|n| n.has_tag_name("BehaviorTree"))
            .collect();
        let several = trees.len() > 1;
        for el in trees {
            self.behavior_tree(ctx, el, several);
        }
        // Of <TreeNodesModel>, only the port names of SubTree models are checked (BT.CPP's
        // `validatePortName`); any other element under <root> is ignored, as BT.CPP does.
        for model in root.children().filter(|n| n.has_tag_name("TreeNodesModel")) {
            self.tree_nodes_model(ctx, model);
        }
    }

    fn tree_nodes_model(&mut self, ctx: &FileCtx, model: roxmltree::Node) {
        for port in model
            .children()
            .filter(|n| n.has_tag_name("SubTree"))
            .flat_map(|n| n.children())
            .filter(|n| {
                n.has_tag_name("input_port")
                    || n.has_tag_name("output_port")
                    || n.has_tag_name("inout_port")
            })
        {
            match attribute(port, "name") {
                None => self.error(
                    ctx.node_pos(port),
                    "a port of a SubTree model needs the attribute name",
                ),
                Some(a) => {
                    if let Some(problem) = port_name_problem(a.value()) {
                        self.error(ctx.pos(a.range().start), problem);
                    }
                }
            }
        }
    }

    fn include(&mut self, ctx: &FileCtx, el: roxmltree::Node) {
        if let Some(a) = attribute(el, "ros_pkg") {
            self.error(
                ctx.pos(a.range().start),
                "<include ros_pkg=...> is not supported; use a path relative to this file",
            );
            return;
        }
        let Some(path) = attribute(el, "path").map(|a| a.value().to_string()) else {
            self.error(ctx.node_pos(el), "<include> needs the attribute path");
            return;
        };
        let relative = Path::new(&path);
        let target = if relative.is_absolute() {
            relative.to_path_buf()
        } else {
            ctx.base_dir.join(relative)
        };
        let shown = normalize(&target);
        let canonical = match fs::canonicalize(&target) {
            Ok(c) => c,
            Err(e) => {
                self.error(
                    ctx.node_pos(el),
                    format!(
                        "cannot open the included file \"{path}\" ({}): {e}",
                        shown.display()
                    ),
                );
                return;
            }
        };
        if let Some(i) = self.stack.iter().position(|(c, _)| *c == canonical) {
            let chain: Vec<String> = self.stack[i..]
                .iter()
                .map(|(_, shown)| shown.display().to_string())
                .chain(std::iter::once(shown.display().to_string()))
                .collect();
            self.error(
                ctx.node_pos(el),
                format!("include cycle: {}", chain.join(" -> ")),
            );
            return;
        }
        if self.loaded.contains(&canonical) {
            return;
        }
        match fs::read(&target) {
            Ok(bytes) => {
                let base = shown.parent().unwrap_or(Path::new("")).to_path_buf();
                self.load_bytes(bytes, shown, &base, Some(canonical), false);
            }
            Err(e) => self.error(
                ctx.node_pos(el),
                format!(
                    "cannot read the included file \"{path}\" ({}): {e}",
                    shown.display()
                ),
            ),
        }
    }

    fn behavior_tree(&mut self, ctx: &FileCtx, el: roxmltree::Node, several: bool) {
        let position = ctx.node_pos(el);
        let id = match attribute(el, "ID") {
            Some(a) => {
                if let Some(problem) = model_name_problem("BehaviorTree ID", a.value()) {
                    self.error(ctx.pos(a.range().start), problem);
                }
                Some(a.value().to_string())
            }
            None if several => {
                self.error(
                    position.clone(),
                    "<BehaviorTree> needs the attribute ID when its file defines several trees",
                );
                None
            }
            None => {
                let id = format!("BehaviorTree_{}", self.unnamed);
                self.unnamed += 1;
                Some(id)
            }
        };
        let shown_id = id.as_deref().unwrap_or("?");
        let mut roots = Vec::new();
        for child in el.children() {
            if child.is_element() {
                roots.push(self.convert(ctx, child, 1));
            } else if child.is_text() {
                self.check_text(ctx, child, "BehaviorTree");
            }
        }
        if roots.len() != 1 {
            self.error(
                position.clone(),
                format!(
                    "<BehaviorTree ID=\"{shown_id}\"> must have exactly 1 child element, found {}",
                    roots.len()
                ),
            );
            return;
        }
        let (Some(id), Some(root)) = (id, roots.pop()) else {
            return;
        };
        if let Some(first) = self.trees.iter().find(|t| t.id == id) {
            let message = format!(
                "duplicate BehaviorTree ID \"{id}\" (first defined at {})",
                first.position
            );
            self.error(position, message);
            return;
        }
        self.trees.push(TreeDefinition { id, root, position });
    }

    fn convert(&mut self, ctx: &FileCtx, el: roxmltree::Node, depth: usize) -> XmlNode {
        let position = ctx.node_pos(el);
        let name = el.tag_name().name();
        let mut attributes: Vec<Attribute> = el
            .attributes()
            .map(|a| Attribute {
                name: a.name().to_string(),
                value: ctx
                    .prepared
                    .value_at(a.range_value().start)
                    .unwrap_or(a.value())
                    .to_string(),
                position: ctx.pos(a.range().start),
            })
            .collect();
        let mut children = Vec::new();
        for child in el.children() {
            if child.is_element() {
                if depth >= MAX_DEPTH {
                    self.error(
                        ctx.node_pos(child),
                        format!("elements nested deeper than {MAX_DEPTH} levels"),
                    );
                } else {
                    children.push(self.convert(ctx, child, depth + 1));
                }
            } else if child.is_text() {
                self.check_text(ctx, child, name);
            }
        }
        let mut tag = name.to_string();
        match name {
            "Action" | "Condition" | "Control" | "Decorator" => {
                match attributes.iter().position(|a| a.name == "ID") {
                    Some(i) if !attributes[i].value.is_empty() => {
                        tag = attributes.remove(i).value;
                    }
                    _ => self.error(
                        position.clone(),
                        format!("<{name}> needs a non-empty attribute ID"),
                    ),
                }
                let n = children.len();
                let problem = match name {
                    "Action" | "Condition" if n != 0 => Some("must not have any child"),
                    "Decorator" if n != 1 => Some("must have exactly 1 child"),
                    "Control" if n == 0 => Some("must have at least 1 child"),
                    _ => None,
                };
                if let Some(problem) = problem {
                    self.error(
                        position.clone(),
                        format!("<{name} ID=\"{tag}\"> {problem}, found {n}"),
                    );
                }
            }
            "SubTree" => {
                match attributes.iter().find(|a| a.name == "ID") {
                    Some(a) if !a.value.is_empty() => {
                        if let Some(problem) = model_name_problem("SubTree ID", &a.value) {
                            self.error(a.position.clone(), problem);
                        }
                    }
                    _ => self.error(position.clone(), "<SubTree> needs a non-empty attribute ID"),
                }
                if !children.is_empty() {
                    self.error(
                        position.clone(),
                        "<SubTree> must not have child elements (its tree is named by ID)",
                    );
                }
            }
            _ => {
                if let Some(problem) = model_name_problem("node name", name) {
                    self.error(position.clone(), problem);
                }
            }
        }
        XmlNode {
            tag,
            attributes,
            children,
            position,
        }
    }
}

/// Removes `.` and folds `name/..` without touching the file system (for display only).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_paths() {
        assert_eq!(
            normalize(Path::new("a/./b/../c.xml")),
            PathBuf::from("a/c.xml")
        );
        assert_eq!(normalize(Path::new("../x.xml")), PathBuf::from("../x.xml"));
        assert_eq!(normalize(Path::new("/../x.xml")), PathBuf::from("/x.xml"));
        assert_eq!(normalize(Path::new("./x.xml")), PathBuf::from("x.xml"));
    }

    #[test]
    fn line_index_counts_characters() {
        let text = "ab\nçd\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 0), (1, 1));
        assert_eq!(idx.line_col(text, 3), (2, 1));
        assert_eq!(idx.line_col(text, 5), (2, 2));
        assert_eq!(idx.offset_of(text, 2, 2), 5);
        assert_eq!(idx.offset_of(text, 9, 1), text.len());
    }
}
