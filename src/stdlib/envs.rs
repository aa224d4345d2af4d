//! The environment files: `env KIND()` followed by `act` and `observe`
//! declarations.
//!
//! Every declaration is checked against the Rust side: an ACT must be one
//! [`Act::build`] can build with arguments of its parameter types, an
//! observation one [`ObservationKind::from_name`] knows, read at one
//! position and giving the declared type.

use crate::diagnostic::Diagnostic;
use crate::env::EnvKind;
use crate::program::{Act, ActArg, Color, Direction, ObservationKind, ParamType, PosExpr, PosKind};
use crate::span::Span;
use crate::syntax::ast::{self, Item};

use super::{ActSignature, EnvLibrary, ObservationSignature, StdlibFile, file_start, internal};

pub(super) fn load_env(
    file: &ast::File,
    kind: EnvKind,
    source: &StdlibFile,
) -> Result<EnvLibrary, Diagnostic> {
    let mut items = file.items.iter();
    match items.next() {
        Some(Item::Env(env)) if env.kind.name == kind.name() && env.pointers.is_empty() => {}
        _ => {
            let message = format!("`{}` must start with `env {}()`", source.name, kind.name());
            return Err(internal(file_start(source), message));
        }
    }
    let mut library = EnvLibrary {
        kind,
        acts: Vec::new(),
        observations: Vec::new(),
    };
    for item in items {
        match item {
            Item::Act(decl) => {
                let act = load_act(decl)?;
                if library.acts.contains(&act) {
                    return Err(internal(
                        decl.span,
                        format!("`{}` is declared twice", act.display()),
                    ));
                }
                library.acts.push(act);
            }
            Item::Observe(decl) => {
                let observation = load_observation(decl)?;
                if library.observation(&observation.name).is_some() {
                    return Err(internal(decl.span, "observation declared twice"));
                }
                library.observations.push(observation);
            }
            other => {
                return Err(internal(
                    other.span(),
                    "an environment file declares only ACTs and observations",
                ));
            }
        }
    }
    Ok(library)
}

fn load_act(decl: &ast::ActDecl) -> Result<ActSignature, Diagnostic> {
    let params = decl
        .params
        .iter()
        .flatten()
        .map(|p| {
            ParamType::from_name(&p.name)
                .ok_or_else(|| internal(p.span, format!("unknown parameter type `{}`", p.name)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let signature = ActSignature {
        name: decl.name.name.clone(),
        params,
    };
    // Build it once with stand-in arguments: a declaration the runtime
    // cannot build is caught here rather than in a user's program.
    let stand_ins = signature.params.iter().map(|p| stand_in(*p)).collect();
    match Act::build(&signature.name, stand_ins) {
        Some(_) => Ok(signature),
        None => Err(internal(
            decl.span,
            format!("the runtime has no ACT `{}`", signature.display()),
        )),
    }
}

fn stand_in(param: ParamType) -> ActArg {
    match param {
        ParamType::Pointer => ActArg::Pointer(0),
        ParamType::Position => ActArg::Position(PosExpr {
            kind: PosKind::Int(0),
            span: Span::default(),
        }),
        ParamType::Direction => ActArg::Direction(Direction::Left),
        ParamType::Color => ActArg::Color(Color::White),
        ParamType::Ok => ActArg::Ok,
    }
}

fn load_observation(decl: &ast::ObserveDecl) -> Result<ObservationSignature, Diagnostic> {
    let name = &decl.name.name;
    let kind = ObservationKind::from_name(name).ok_or_else(|| {
        internal(
            decl.name.span,
            format!("the runtime has no observation `{name}`"),
        )
    })?;
    if !matches!(decl.params.as_slice(), [p] if p.name == "position") {
        return Err(internal(decl.span, "an observation takes one position"));
    }
    let result = match kind {
        ObservationKind::Value(_) => "value",
        ObservationKind::Color => "symbol",
        ObservationKind::HasChild => "bool",
        ObservationKind::Child => "position",
    };
    if decl.result.name != result {
        return Err(internal(
            decl.result.span,
            format!("`{name}` gives a {result}"),
        ));
    }
    Ok(ObservationSignature {
        name: name.clone(),
        indexed: decl.indexed,
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::SourceId;

    fn load(text: &str) -> Result<EnvLibrary, Diagnostic> {
        let file = crate::stdlib::testing::parse(text, SourceId(2));
        load_env(&file, EnvKind::Array, &super::super::ARRAY)
    }

    fn message(text: &str) -> String {
        crate::stdlib::testing::internal_error(load(text))
    }

    #[test]
    fn declarations_load() {
        let library =
            load("env array()\nact OUT(pointer)\nact OUT(OK)\nobserve A[position] -> value\n")
                .expect("loads");
        assert_eq!(library.overloads("OUT").count(), 2);
        assert!(library.observation("A").is_some_and(|o| o.indexed));
    }

    #[test]
    fn declarations_the_runtime_lacks_are_internal_errors() {
        assert!(message("env graph()\n").contains("must start with `env array()`"));
        assert!(message("env array()\nact JUMP(pointer)\n").contains("no ACT `JUMP(pointer)`"));
        assert!(
            message("env array()\nact MOVE(pointer, colour)\n").contains("unknown parameter type")
        );
        assert!(message("env array()\nobserve A[position] -> bool\n").contains("gives a value"));
        assert!(
            message("env array()\nobserve B(position) -> value\n").contains("no observation `B`")
        );
        assert!(message("env array()\nact NOP\nact NOP\n").contains("declared twice"));
    }
}
