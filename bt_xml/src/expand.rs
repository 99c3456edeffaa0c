//! Inlining `<SubTree ID="X">` nodes.

use std::collections::HashSet;

use crate::{Diagnostic, Document, Position, XmlNode, suggestion_suffix};

/// Most nodes an expanded tree may have (a DAG of subtrees can grow exponentially).
const MAX_NODES: usize = 100_000;
/// Deepest nesting of an expanded tree (keeps recursion bounded).
const MAX_DEPTH: usize = 2048;

pub(crate) fn expand(doc: &Document, id: &str) -> Result<XmlNode, Vec<Diagnostic>> {
    let Some(tree) = doc.tree(id) else {
        return Err(vec![Diagnostic {
            position: Position {
                file: doc.main_file().to_path_buf(),
                line: 1,
                column: 1,
            },
            message: format!(
                "no BehaviorTree with ID \"{id}\"{}; the trees are: {}",
                suggestion_suffix(id, doc.tree_ids()),
                doc.id_list()
            ),
        }]);
    };
    let mut ex = Expander {
        doc,
        stack: vec![tree.id.as_str()],
        diags: Vec::new(),
        count: 0,
        limit_hit: false,
        instance: Vec::new(),
        paths: HashSet::new(),
        unnamed: 0,
    };
    let root = ex.node(&tree.root, 0);
    if ex.diags.is_empty() {
        Ok(root)
    } else {
        let mut seen = HashSet::new();
        ex.diags.retain(|d| seen.insert(d.clone()));
        Err(ex.diags)
    }
}

struct Expander<'d> {
    doc: &'d Document,
    /// Tree IDs being expanded, outermost first.
    stack: Vec<&'d str>,
    diags: Vec<Diagnostic>,
    count: usize,
    limit_hit: bool,
    /// Instance paths of the SubTrees being expanded, outermost first (`task`, `task/sub`).
    instance: Vec<String>,
    /// Every SubTree instance path so far: BT.CPP refuses a second one (Groot2 issue 56).
    paths: HashSet<String>,
    /// SubTrees without a `name` so far: their paths are `ID::N`, unique by construction.
    unnamed: usize,
}

impl<'d> Expander<'d> {
    fn node(&mut self, n: &'d XmlNode, depth: usize) -> XmlNode {
        let mut out = XmlNode {
            tag: n.tag.clone(),
            attributes: n.attributes.clone(),
            children: Vec::new(),
            position: n.position.clone(),
        };
        self.count += 1;
        if self.count > MAX_NODES || depth > MAX_DEPTH {
            if !self.limit_hit {
                self.limit_hit = true;
                self.diags.push(Diagnostic {
                    position: n.position.clone(),
                    message: format!(
                        "the expanded tree is too large (more than {MAX_NODES} nodes or \
                         {MAX_DEPTH} levels)"
                    ),
                });
            }
            return out;
        }
        if n.tag == "SubTree" {
            if let Some(id) = n.attribute("ID") {
                self.subtree(n, id, depth, &mut out);
            }
        } else {
            for c in &n.children {
                let child = self.node(c, depth + 1);
                out.children.push(child);
            }
        }
        out
    }

    fn subtree(&mut self, n: &'d XmlNode, id: &str, depth: usize, out: &mut XmlNode) {
        if let Some(i) = self.stack.iter().position(|s| *s == id) {
            let mut chain: Vec<&str> = self.stack[i..].to_vec();
            chain.push(id);
            self.diags.push(Diagnostic {
                position: n.position.clone(),
                message: format!("recursive SubTree: {}", chain.join(" -> ")),
            });
            return;
        }
        let Some(tree) = self.doc.tree(id) else {
            self.diags.push(Diagnostic {
                position: n.position.clone(),
                message: format!(
                    "unknown SubTree ID \"{id}\"{}",
                    suggestion_suffix(id, self.doc.tree_ids())
                ),
            });
            return;
        };
        let own = match n.attribute("name") {
            Some(name) => name.to_owned(),
            None => {
                self.unnamed += 1;
                format!("{id}::{}", self.unnamed)
            }
        };
        let path = match self.instance.last() {
            Some(parent) if !parent.is_empty() => format!("{parent}/{own}"),
            _ => own,
        };
        if !self.paths.insert(path.clone()) {
            self.diags.push(Diagnostic {
                position: n.position.clone(),
                message: format!(
                    "Duplicate SubTree path detected: '{path}' (two SubTrees with the same \
                     `name` under the same parent; give them unique names or omit `name`)"
                ),
            });
            return;
        }
        self.instance.push(path);
        self.stack.push(tree.id.as_str());
        let child = self.node(&tree.root, depth + 1);
        self.stack.pop();
        self.instance.pop();
        out.children.push(child);
    }
}
