//! The `graph` environment: a directed graph with a colour and a child
//! cursor per vertex, and an output tape of vertices.
//!
//! Input `{"graph": [[1, 2], [3], [3], []]}` (the children of each vertex);
//! every vertex starts WHITE with its cursor on its first child. ACTs
//! `COLOR`, `EMIT`, `NEXT_CHILD` (plus `NOP`, `MOVE`, `SET`); observations
//! `color(v)`, `has_child(v)`, `child(v)`, which read as END / false at a
//! position that is not a vertex. Output: the tape.

use serde_json::{Map, Value};

use super::errors::{self, Extent};
use super::input::{self, NotI64, integer, not_i64};
use super::{
    ActContext, EnvState, Environment, InputForm, Mark, Panel, Picture, Shape, index, len_i64,
    list, object_text, row,
};
use crate::diagnostic::{Diagnostic, codes};
use crate::program::declared::{MOVE, NOP, SET};
use crate::program::{
    ActArg, ActDecl, Color, EnvAct, EnvKind, Observation, ObservationKind, ParamType,
};

const ACTS: &[ActDecl] = &[
    NOP,
    MOVE,
    SET,
    ActDecl::new("COLOR", &[ParamType::Pointer, ParamType::Color]),
    ActDecl::new("EMIT", &[ParamType::Pointer]),
    ActDecl::advancing("NEXT_CHILD", &[ParamType::Pointer]),
];

const OBSERVATIONS: &[Observation] = &[
    Observation {
        name: "color",
        indexed: false,
        kind: ObservationKind::Symbol,
    },
    Observation {
        name: "has_child",
        indexed: false,
        kind: ObservationKind::Test,
    },
    Observation {
        name: "child",
        indexed: false,
        kind: ObservationKind::Position,
    },
];

/// The graph environment (registered in `env::ENVIRONMENTS`).
pub(super) const GRAPH: Environment = Environment {
    name: "graph",
    stdlib: include_str!("../../stdlib/graph.cnpi"),
    acts: ACTS,
    observations: OBSERVATIONS,
    input: InputForm {
        shape: r#"a JSON object `{"graph": [...]}`"#,
        example: r#"{"graph": [[1, 2], [3], [3], []]}"#,
        empty: r#"{"graph": []}"#,
    },
    abilities: &[],
    read: |layout, input| {
        let value = input.parsed(layout.env)?;
        Ok(Box::new(GraphState::from_json(layout.env, value)?))
    },
};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphState {
    /// The children of each vertex, all in `0..n`.
    pub children: Vec<Vec<usize>>,
    pub colors: Vec<Color>,
    /// Per vertex, the index into its children of the one under its cursor.
    pub cursors: Vec<usize>,
    pub output: Vec<i64>,
}

impl GraphState {
    fn from_json(kind: EnvKind, value: Value) -> Result<GraphState, Diagnostic> {
        let [graph] = input::fields(kind, value, ["graph"])?;
        let Value::Array(vertices) = graph else {
            return Err(input::wrong_shape(
                kind,
                "`graph` to be a JSON array with the children of each vertex",
                &graph,
            ));
        };
        let n = vertices.len();
        let children = vertices
            .iter()
            .enumerate()
            .map(|(v, list)| read_children(kind, v, list, n))
            .collect::<Result<_, _>>()?;
        Ok(GraphState {
            children,
            colors: vec![Color::White; n],
            cursors: vec![0; n],
            output: Vec::new(),
        })
    }

    fn vertex(&self, at: i64) -> Option<usize> {
        index(at, self.children.len())
    }

    fn color(&self, at: i64) -> Option<Color> {
        self.vertex(at).map(|v| self.colors[v])
    }

    /// The vertex under the cursor of `at`, if any.
    fn current_child(&self, at: i64) -> Option<usize> {
        let v = self.vertex(at)?;
        self.children[v].get(self.cursors[v]).copied()
    }

    fn has_child(&self, at: i64) -> bool {
        self.current_child(at).is_some()
    }

    fn child(&self, at: i64) -> i64 {
        self.current_child(at).map_or(self.len(), len_i64)
    }

    fn extent(&self) -> Extent {
        Extent {
            needs: "on a vertex",
            verdict: "is not a vertex",
            describe: errors::describe_extent(
                "the graph",
                self.children.len(),
                "vertex",
                "vertices",
            ),
        }
    }
}

impl EnvState for GraphState {
    fn len(&self) -> i64 {
        len_i64(self.children.len())
    }

    fn symbol(&self, observation: &Observation, at: i64) -> Option<Color> {
        match observation.name {
            "color" => self.color(at),
            _ => None,
        }
    }

    fn test(&self, observation: &Observation, at: i64) -> bool {
        match observation.name {
            "has_child" => self.has_child(at),
            _ => false,
        }
    }

    fn position(&self, observation: &Observation, at: i64) -> i64 {
        match observation.name {
            "child" => self.child(at),
            _ => self.len(),
        }
    }

    fn apply(&mut self, act: &EnvAct, ctx: &ActContext) -> Result<bool, Diagnostic> {
        let vertex = |p| {
            self.vertex(ctx.pointer(p).0)
                .ok_or_else(|| errors::off_environment(ctx, p, self.extent()))
        };
        Ok(match (act.name(), act.args.as_slice()) {
            ("COLOR", &[ActArg::Pointer(p), ActArg::Color(color)]) => {
                let v = vertex(p)?;
                std::mem::replace(&mut self.colors[v], color) != color
            }
            ("EMIT", &[ActArg::Pointer(p)]) => {
                let v = vertex(p)?;
                super::room_on_tape(self.output.len(), ctx.app)?;
                self.output.push(len_i64(v));
                true
            }
            ("NEXT_CHILD", &[ActArg::Pointer(p)]) => {
                let v = vertex(p)?;
                let advances = self.cursors[v] < self.children[v].len();
                if advances {
                    self.cursors[v] += 1;
                }
                advances
            }
            _ => return Err(errors::foreign_act(ctx.app, "graph")),
        })
    }

    fn to_json_text(&self, more: &[(&str, Value)]) -> String {
        let mut object = Map::new();
        object.insert("output".into(), self.output.clone().into());
        object_text(object, more)
    }

    fn to_text(&self) -> String {
        row("output", list(&self.output))
    }

    /// The vertices in their colours with the edges, each vertex's child
    /// under its cursor (with the pointers under them), the output tape.
    fn picture(&self) -> Picture {
        let edges = (self.children.iter().enumerate())
            .flat_map(|(v, children)| children.iter().map(move |&c| (v, c)))
            .collect();
        let colors = self.colors.iter().map(|&c| Mark::from(c)).collect();
        let cursors = (self.children.iter().zip(&self.cursors))
            .map(|(children, &k)| {
                children
                    .get(k)
                    .map_or(Mark::Sym("END"), |&c| Mark::Int(len_i64(c)))
            })
            .collect();
        vec![
            Panel::new("colour", Shape::Graph { edges }, colors),
            Panel::new("child", Shape::Row { pointers: true }, cursors),
            Panel::row("output", false, &self.output),
        ]
    }
}

/// The children of vertex `v`, each checked to be a vertex of `0..n`.
fn read_children(
    kind: EnvKind,
    v: usize,
    list: &Value,
    n: usize,
) -> Result<Vec<usize>, Diagnostic> {
    let Value::Array(items) = list else {
        return Err(input::wrong_shape(
            kind,
            &format!("vertex {v}'s children to be a JSON array of vertex numbers"),
            list,
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let what = format!("vertex {v}'s child {i}");
            match integer(item) {
                Ok(k) => index(k, n).ok_or_else(|| out_of_range(&what, &input::show(item), n)),
                Err(NotI64::OutOfRange) => Err(out_of_range(&what, &input::show(item), n)),
                Err(why) => Err(not_i64(kind, &what, item, why)),
            }
        })
        .collect()
}

/// E0605: a child that is not a vertex.
fn out_of_range(what: &str, shown: &str, n: usize) -> Diagnostic {
    let vertices = match n {
        1 => "only vertex 0".to_string(),
        _ => format!("vertices 0..{}", n - 1),
    };
    Diagnostic::error(
        codes::E0605,
        format!("{what} is {shown}, but the graph has {vertices}"),
    )
    .with_help("children are vertex numbers: list one entry per vertex, numbered from 0")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::parse_input;

    fn graph() -> EnvKind {
        EnvKind::from_name("graph").expect("registered")
    }

    fn error(json: &str) -> Diagnostic {
        parse_input(graph(), json).expect_err("the input is invalid")
    }

    #[test]
    fn vertices_start_white_with_their_cursor_on_the_first_child() {
        let state = parse_input(graph(), r#"{"graph": [[2, 1], [], [0]]}"#).expect("valid");
        let g: &GraphState = state.downcast().expect("a graph state");
        assert_eq!(g.colors, [Color::White; 3]);
        assert_eq!((g.child(0), g.child(1), g.child(7)), (2, 3, 3));
        assert_eq!(
            (g.has_child(0), g.has_child(1), g.has_child(-1)),
            (true, false, false)
        );
        assert_eq!((g.color(2), g.color(3)), (Some(Color::White), None));
    }

    #[test]
    fn children_outside_the_graph_are_named() {
        let e = error(r#"{"graph": [[1], [], [0, 7], [], []]}"#);
        assert_eq!(e.code, codes::E0605);
        assert_eq!(
            e.message,
            "vertex 2's child 1 is 7, but the graph has vertices 0..4"
        );
        assert_eq!(
            error(r#"{"graph": [[-1]]}"#).message,
            "vertex 0's child 0 is -1, but the graph has only vertex 0"
        );
        assert_eq!(error(r#"{"graph": [[1e30]]}"#).code, codes::E0605);
    }

    #[test]
    fn shapes_are_checked() {
        assert_eq!(
            error("[[1], []]").message,
            r#"expected a JSON object `{"graph": [...]}`, found an array"#
        );
        assert_eq!(error("{}").message, "the graph input has no `graph` field");
        assert_eq!(
            error(r#"{"graph": [], "edges": []}"#).message,
            "the graph input has an unexpected field `edges`"
        );
        assert_eq!(
            error(r#"{"graph": [[], "1"]}"#).message,
            "expected vertex 1's children to be a JSON array of vertex numbers, found a string"
        );
        let e = error(r#"{"graph": [[0.5]]}"#);
        assert_eq!(
            (e.code, e.message.as_str()),
            (codes::E0603, "vertex 0's child 0 is 0.5, not an integer")
        );
    }
}
