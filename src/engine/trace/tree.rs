//! Textbook game trees: leaf values under a tree of MAX and MIN levels, in the three forms
//! teaching tools use (nested lists, a branching factor with the leaves, parenthesised text).

use thiserror::Error;

/// The most nodes a textbook tree may have, leaves included.
pub const MAX_TREE_NODES: usize = 4_096;

/// The deepest a textbook tree may be (the root is at depth 0).
pub const MAX_TREE_DEPTH: usize = 24;

/// A textbook game tree: a leaf with its value, or an inner node with its children, left to
/// right. The root is a MAX node; levels alternate.
///
/// ```
/// use minimax_move::engine::Tree;
/// let tree = Tree::parse("((3 12 8)(2 4 6)(14 5 2))").unwrap();
/// assert_eq!(tree, Tree::from_leaves(3, &[3.0, 12.0, 8.0, 2.0, 4.0, 6.0, 14.0, 5.0, 2.0]).unwrap());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Tree {
    /// A leaf and its value, from MAX's point of view.
    Leaf(f64),
    /// An inner node and its children, at least one.
    Node(Vec<Tree>),
}

/// Why a textbook tree cannot be traced.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TreeError {
    /// An inner node without children.
    #[error("an inner node needs at least one child")]
    EmptyNode,
    /// A leaf value that is not a finite number.
    #[error("a leaf value must be a finite number")]
    NotFinite,
    /// More nodes than [`MAX_TREE_NODES`].
    #[error("the tree has more than {limit} nodes")]
    TooManyNodes {
        /// The limit.
        limit: usize,
    },
    /// Deeper than [`MAX_TREE_DEPTH`].
    #[error("the tree is deeper than {limit} levels")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// A branching factor below 2.
    #[error("the branching factor must be at least 2, got {0}")]
    Branching(usize),
    /// A number of leaves that is not a power of the branching factor.
    #[error("{leaves} leaves is not a power of the branching factor {branching} (such as {})", powers(*branching))]
    LeafCount {
        /// The branching factor.
        branching: usize,
        /// The number of leaves given.
        leaves: usize,
    },
    /// Text that does not read as a parenthesised tree.
    #[error("character {position}: {problem}")]
    Text {
        /// Zero-based character position.
        position: usize,
        /// What is wrong there.
        problem: &'static str,
    },
}

/// The first three powers of `branching` that a leaf count could be ("3, 9, 27"), fewer when the
/// next would not fit in a `usize`.
fn powers(branching: usize) -> String {
    let mut out = vec![branching];
    while out.len() < 3 {
        match out.last().and_then(|last| last.checked_mul(branching)) {
            Some(next) => out.push(next),
            None => break,
        }
    }
    out.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Tree {
    /// A complete tree with `branching` children at every inner node and these leaves, left to
    /// right; the number of leaves must be a power of `branching` (one leaf is a lone root).
    ///
    /// # Errors
    /// [`TreeError`] for a branching factor below 2, a leaf count that is not a power of it, a
    /// value that is not finite, or a tree over the size limits.
    pub fn from_leaves(branching: usize, leaves: &[f64]) -> Result<Self, TreeError> {
        if branching < 2 {
            return Err(TreeError::Branching(branching));
        }
        let mut level: Vec<Self> = leaves.iter().map(|&v| Self::Leaf(v)).collect();
        let mut count = leaves.len();
        while count > 1 {
            if !count.is_multiple_of(branching) {
                return Err(TreeError::LeafCount {
                    branching,
                    leaves: leaves.len(),
                });
            }
            count /= branching;
            let mut parents = Vec::with_capacity(count);
            let mut rest = level.into_iter();
            for _ in 0..count {
                parents.push(Self::Node(rest.by_ref().take(branching).collect()));
            }
            level = parents;
        }
        match level.pop() {
            Some(root) => root.checked(),
            None => Err(TreeError::LeafCount {
                branching,
                leaves: leaves.len(),
            }),
        }
    }

    /// Reads the parenthesised form: a group `( … )` is an inner node, a number is a leaf,
    /// separated by spaces or commas; a group holding one number and nothing else is that leaf,
    /// so `((3)(12)(8))` and `(3 12 8)` are both a root with the leaves 3, 12 and 8.
    ///
    /// # Errors
    /// [`TreeError::Text`] naming the first character that does not fit, or the errors of a
    /// tree over the size limits.
    pub fn parse(text: &str) -> Result<Self, TreeError> {
        let chars: Vec<char> = text.chars().collect();
        let mut at = skip_separators(&chars, 0);
        if chars.get(at) != Some(&'(') {
            return Err(TreeError::Text {
                position: at,
                problem: "the tree must start with '('",
            });
        }
        let (tree, end) = parse_group(&chars, at, 0)?;
        at = skip_separators(&chars, end);
        if at < chars.len() {
            return Err(TreeError::Text {
                position: at,
                problem: "nothing may follow the root's closing ')'",
            });
        }
        tree.checked()
    }

    /// This tree, if it is within the limits and every value is finite.
    ///
    /// # Errors
    /// [`TreeError`] naming the first problem found.
    pub fn checked(self) -> Result<Self, TreeError> {
        let mut nodes = 0;
        self.check(0, &mut nodes)?;
        Ok(self)
    }

    fn check(&self, depth: usize, nodes: &mut usize) -> Result<(), TreeError> {
        *nodes += 1;
        if *nodes > MAX_TREE_NODES {
            return Err(TreeError::TooManyNodes {
                limit: MAX_TREE_NODES,
            });
        }
        if depth > MAX_TREE_DEPTH {
            return Err(TreeError::TooDeep {
                limit: MAX_TREE_DEPTH,
            });
        }
        match self {
            Self::Leaf(v) if v.is_finite() => Ok(()),
            Self::Leaf(_) => Err(TreeError::NotFinite),
            Self::Node(children) if children.is_empty() => Err(TreeError::EmptyNode),
            Self::Node(children) => children
                .iter()
                .try_for_each(|child| child.check(depth + 1, nodes)),
        }
    }
}

fn skip_separators(chars: &[char], mut at: usize) -> usize {
    while chars
        .get(at)
        .is_some_and(|c| c.is_whitespace() || *c == ',')
    {
        at += 1;
    }
    at
}

/// Reads the group opening at `start`; returns it and the position after its `)`.
fn parse_group(chars: &[char], start: usize, depth: usize) -> Result<(Tree, usize), TreeError> {
    if depth > MAX_TREE_DEPTH {
        return Err(TreeError::TooDeep {
            limit: MAX_TREE_DEPTH,
        });
    }
    let mut children = Vec::new();
    let mut at = start + 1;
    loop {
        at = skip_separators(chars, at);
        match chars.get(at) {
            None => {
                return Err(TreeError::Text {
                    position: at,
                    problem: "a '(' is never closed",
                });
            }
            Some(')') => break,
            Some('(') => {
                let (child, end) = parse_group(chars, at, depth + 1)?;
                children.push(child);
                at = end;
            }
            Some(_) => {
                let end = (at..chars.len())
                    .find(|&i| matches!(chars[i], '(' | ')' | ',') || chars[i].is_whitespace())
                    .unwrap_or(chars.len());
                let word: String = chars[at..end].iter().collect();
                let value =
                    word.parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or(TreeError::Text {
                            position: at,
                            problem: "expected a number, '(' or ')'",
                        })?;
                children.push(Tree::Leaf(value));
                at = end;
            }
        }
    }
    let tree = match children.as_slice() {
        [] => {
            return Err(TreeError::Text {
                position: start,
                problem: "an empty group '()' is neither a leaf nor a node",
            });
        }
        [Tree::Leaf(value)] => Tree::Leaf(*value),
        _ => Tree::Node(children),
    };
    Ok((tree, at + 1))
}

/// A tree flattened for the search: node `0` is the root.
#[derive(Clone, Debug)]
pub(super) struct FlatTree {
    pub nodes: Vec<FlatNode>,
}

#[derive(Clone, Debug)]
pub(super) struct FlatNode {
    pub value: Option<f64>,
    pub children: Vec<usize>,
    pub depth: u32,
    /// The node's name: A, B, …, Z, AA, … in breadth-first order, as textbooks letter them.
    pub label: String,
}

impl FlatTree {
    /// Flattens a tree in breadth-first order, so that the labels run level by level.
    pub fn new(tree: &Tree) -> Self {
        let mut nodes = Vec::new();
        let mut queue = std::collections::VecDeque::from([(tree, 0_u32)]);
        let mut next_child = 1;
        while let Some((node, depth)) = queue.pop_front() {
            let label = letters(nodes.len());
            let (value, children) = match node {
                Tree::Leaf(v) => (Some(*v), Vec::new()),
                Tree::Node(children) => {
                    let ids = (next_child..next_child + children.len()).collect();
                    next_child += children.len();
                    queue.extend(children.iter().map(|c| (c, depth + 1)));
                    (None, ids)
                }
            };
            nodes.push(FlatNode {
                value,
                children,
                depth,
                label,
            });
        }
        Self { nodes }
    }
}

/// 0 → A, 25 → Z, 26 → AA, …
fn letters(mut n: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'A' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}
