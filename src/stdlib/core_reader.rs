//! The combinators of `stdlib/core.cnpi` read as plain text, for
//! `build.rs`, which writes them out as `src/stdlib/kept.rs` keeps them.
//! It reads the file's plain form only and gives `None` for anything else
//! (the compiler then reads the file at run time and words the
//! diagnostic); the unit tests of `kept.rs` hold it to the compiler's
//! reading (`super::combinators`).

/// One combinator of core.cnpi: its kind, the slots it runs when `c`
/// holds and when not, and whether it reads `c`, each as Rust source.
pub type Found = (&'static str, Vec<&'static str>, Vec<&'static str>, bool);

/// The combinators of core.cnpi in its order, if each is `combinator
/// NAME(PARAMS):` (`_mapself` with `detects _top != SENTINEL`) over a body
/// of slot names, or of one `if c:` and one `else:` of them.
pub fn core_combinators(text: &str) -> Option<Vec<Found>> {
    // Each combinator as found, with its parameters and its body's lines
    // (indentation, text).
    type Reading = (Found, Vec<String>, Vec<(usize, String)>);
    let lines = (text.lines())
        .map(|line| line.split('#').next().unwrap_or_default().trim_end())
        .filter(|line| !line.is_empty());
    let mut found: Vec<Reading> = Vec::new();
    for line in lines {
        let Some(header) = line.strip_prefix("combinator ") else {
            let indent = line.len() - line.trim_start().len();
            let (_, _, body) = found.last_mut()?;
            body.push((indent, line.trim_start().to_string()));
            continue;
        };
        let (name, rest) = header.split_once('(')?;
        let (params, rest) = rest.split_once(')')?;
        let kind = match (name, rest) {
            ("seq", ":") => "User(Combinator::Seq)",
            ("cond", ":") => "User(Combinator::Cond)",
            ("linrec", ":") => "User(Combinator::Linrec)",
            ("treerec", ":") => "User(Combinator::Treerec)",
            ("_mapself", " detects _top != SENTINEL:") => "Builtin",
            _ => return None,
        };
        if found.iter().any(|((k, ..), ..)| *k == kind) {
            return None;
        }
        let params: Vec<String> = (params.split(','))
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect();
        found.push(((kind, Vec::new(), Vec::new(), false), params, Vec::new()));
    }
    for ((kind, when_true, when_false, reads_c), params, body) in &mut found {
        let slot = |(indent, name): &(usize, String)| -> Option<(usize, &'static str)> {
            const ARGS: [&str; 3] = ["A1", "A2", "A3"];
            let slot = match params.iter().position(|p| p == name) {
                Some(i) => ARGS.get(i)?,
                None => match name.as_str() {
                    "self" => "SelfSlot",
                    "_push_sentinel" => "PushSentinel",
                    "_mapself" => "MapSelf",
                    "_pop" => "Pop",
                    "_load_state" => "LoadState",
                    "NOP" => "Nop",
                    _ => return None,
                },
            };
            Some((*indent, slot))
        };
        let branch = body.iter().position(|(_, line)| line == "else:");
        match (body.first(), branch) {
            (Some((indent, first)), Some(at)) if first == "if c:" && body[at].0 == *indent => {
                let inner = |lines: &[(usize, String)]| -> Option<Vec<&'static str>> {
                    let slots = lines.iter().map(slot).collect::<Option<Vec<_>>>()?;
                    let deeper = slots.iter().all(|(i, _)| i > indent);
                    (deeper && !slots.is_empty()).then(|| slots.into_iter().map(|s| s.1).collect())
                };
                *when_true = inner(&body[1..at])?;
                *when_false = inner(&body[at + 1..])?;
                *reads_c = true;
            }
            (Some((indent, _)), None) if *kind != "Builtin" => {
                let slots = body.iter().map(slot).collect::<Option<Vec<_>>>()?;
                if slots.iter().any(|(i, _)| i != indent) {
                    return None;
                }
                *when_true = slots.into_iter().map(|s| s.1).collect();
                *when_false = when_true.clone();
            }
            _ => return None,
        }
        if params.len() > 3 {
            return None;
        }
    }
    Some(found.into_iter().map(|(found, ..)| found).collect())
}
