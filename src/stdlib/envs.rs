//! The environment files: `env KIND()` followed by `act` and `observe`
//! declarations.
//!
//! Every declaration is checked against the environment's Rust side
//! (`env::Environment`): an ACT must be one it implements, with the same
//! name and parameter types; an observation one it implements, read at one
//! position the same way (`A[i]` or `sum(i)`) and giving the declared type.
//! The library holds the Rust declarations themselves.

use crate::diagnostic::Diagnostic;
use crate::env::environment;
use crate::program::declared::act_form;
use crate::program::{ActDecl, EnvKind, Observation, ParamType};
use crate::syntax::ast::{self, Item};

use super::{EnvLibrary, StdlibFile, file_start, internal};

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
                let act = load_act(decl, kind)?;
                if library.acts.contains(&act) {
                    return Err(internal(
                        decl.span,
                        format!("`{}` is declared twice", act.display()),
                    ));
                }
                library.acts.push(act);
            }
            Item::Observe(decl) => {
                let observation = load_observation(decl, kind)?;
                if library.observation(observation.name).is_some() {
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

/// The environment's own declaration of the ACT `decl` declares: a
/// declaration the runtime does not implement is caught here rather than in
/// a user's program.
fn load_act(decl: &ast::ActDecl, kind: EnvKind) -> Result<&'static ActDecl, Diagnostic> {
    let params = decl
        .params
        .iter()
        .flatten()
        .map(|p| {
            ParamType::from_name(&p.name)
                .ok_or_else(|| internal(p.span, format!("unknown parameter type `{}`", p.name)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let name = decl.name.name.as_str();
    let implemented = environment(kind)
        .acts
        .iter()
        .find(|act| act.name == name && act.params == params.as_slice());
    implemented.ok_or_else(|| {
        let written = act_form(name, &params);
        internal(decl.span, format!("the runtime has no ACT `{written}`"))
    })
}

/// The environment's own declaration of the observation `decl` declares.
fn load_observation(
    decl: &ast::ObserveDecl,
    kind: EnvKind,
) -> Result<&'static Observation, Diagnostic> {
    let name = &decl.name.name;
    let observation = environment(kind)
        .observations
        .iter()
        .find(|o| o.name == name)
        .ok_or_else(|| {
            internal(
                decl.name.span,
                format!("the runtime has no observation `{name}`"),
            )
        })?;
    if !matches!(decl.params.as_slice(), [p] if p.name == "position") {
        return Err(internal(decl.span, "an observation takes one position"));
    }
    if decl.indexed != observation.indexed {
        let form = match observation.indexed {
            true => format!("`{name}[position]`"),
            false => format!("`{name}(position)`"),
        };
        return Err(internal(decl.span, format!("`{name}` is read as {form}")));
    }
    let result = observation.kind.name();
    if decl.result.name != result {
        return Err(internal(
            decl.result.span,
            format!("`{name}` gives a {result}"),
        ));
    }
    Ok(observation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::SourceId;

    fn load(text: &str) -> Result<EnvLibrary, Diagnostic> {
        let file = crate::stdlib::testing::parse(text, SourceId(2));
        let array = EnvKind::from_name("array").expect("registered");
        load_env(&file, array, &crate::stdlib::files()[1])
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
            message("env array()\nobserve A(position) -> value\n")
                .contains("read as `A[position]`")
        );
        assert!(
            message("env array()\nobserve B(position) -> value\n").contains("no observation `B`")
        );
        assert!(message("env array()\nact NOP\nact NOP\n").contains("declared twice"));
    }
}
