//! Commands arranged by their argv words ([`crate::Command::argv_path`]): the tree a tool's
//! parser is built from (the runtime's clap face, the emitter's Rust types) and the order a
//! derive-built tool lists its commands in (groups together, in order of first appearance).

/// One node of the argv tree: what sits at these words, and the words that go deeper.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgvTree<T> {
    /// The items whose path ends here, in insertion order (one in a well-formed spec).
    pub here: Vec<T>,
    /// The next words, in order of first appearance.
    pub children: Vec<(String, ArgvTree<T>)>,
}

impl<T> Default for ArgvTree<T> {
    fn default() -> Self {
        ArgvTree {
            here: Vec::new(),
            children: Vec::new(),
        }
    }
}

impl<T> ArgvTree<T> {
    /// A tree of one node holding `item`.
    pub fn leaf(item: T) -> Self {
        ArgvTree {
            here: vec![item],
            children: Vec::new(),
        }
    }

    /// Puts `item` at `path`, making the nodes on the way; returns the item that was there
    /// before, if any (two commands with the same words).
    pub fn insert(&mut self, path: &[String], item: T) -> Option<&T> {
        let mut node = self;
        for word in path {
            let at = match node.children.iter().position(|(w, _)| w == word) {
                Some(at) => at,
                None => {
                    node.children.push((word.clone(), ArgvTree::default()));
                    node.children.len() - 1
                }
            };
            node = &mut node.children[at].1;
        }
        node.here.push(item);
        let before = node.here.len().checked_sub(2)?;
        node.here.get(before)
    }

    /// The item at this node: the last one put here.
    pub fn item(&self) -> Option<&T> {
        self.here.last()
    }

    /// Every item, depth first: a node's own items before its children's.
    pub fn depth_first(&self) -> Vec<&T> {
        fn walk<'t, T>(node: &'t ArgvTree<T>, out: &mut Vec<&'t T>) {
            out.extend(&node.here);
            for (_, child) in &node.children {
                walk(child, out);
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(path: &str) -> Vec<String> {
        path.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn groups_keep_the_order_of_first_appearance() {
        let mut tree = ArgvTree::default();
        for (index, path) in ["a x", "b", "a y", "", "b z"].into_iter().enumerate() {
            assert!(tree.insert(&words(path), index).is_none());
        }
        assert_eq!(tree.depth_first(), [&3, &0, &2, &1, &4]);
        assert_eq!(tree.item(), Some(&3));
        assert_eq!(tree.children[0].0, "a");
    }

    #[test]
    fn the_same_words_twice_return_the_first() {
        let mut tree = ArgvTree::default();
        assert!(tree.insert(&words("a"), 1).is_none());
        assert_eq!(tree.insert(&words("a"), 2), Some(&1));
        assert_eq!(tree.children[0].1.item(), Some(&2));
    }
}
