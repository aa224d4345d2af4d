//! The examples of `cnpic learn`: a JSON array of `{"input": INPUT,
//! "output": {MEMBER: VALUE, ...}}`, where `INPUT` is what `cnpic run
//! --input` takes and the members are those of `cnpic run --format json`
//! that a run must reproduce (`"A"`, `"output"`, any `ram` name).

use serde_json::{Map, Value};

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::env::{self, Declarations, Member, State};
use cnpi::exec::Outcome;

/// The most examples a file may hold (each is run at every check).
pub const MAX_EXAMPLES: usize = 1_000;

/// One example: a start state and the members its run must end with.
#[derive(Clone, Debug)]
pub struct Example {
    pub input: State,
    pub output: Map<String, Value>,
    /// The input as written (read again against a combinatorized
    /// program's layout).
    pub json: Value,
}

impl Example {
    /// Whether a run's outcome has every member this example asks for.
    /// Read from the state's integers where its environment holds them
    /// so (`ram`; a fifteenth of a check's time went into writing and
    /// reading back its JSON), from its JSON otherwise.
    pub fn matches(&self, outcome: &Outcome) -> bool {
        let more = env::run_members(outcome.steps, "neural");
        let Some(members) = outcome.state.members(&more) else {
            let json = outcome.to_json("neural");
            return (self.output.iter()).all(|(member, value)| json.get(member) == Some(value));
        };
        (self.output.iter()).all(|(member, value)| {
            (members.iter()).any(|(name, held)| name == member && same(*held, value))
        })
    }
}

/// Whether `member` is written as `value` in a state's JSON.
fn same(member: Member, value: &Value) -> bool {
    let list = |numbers: &[i64], value: &Value| {
        value.as_array().is_some_and(|items| {
            items.len() == numbers.len()
                && (items.iter().zip(numbers)).all(|(item, n)| item.as_i64() == Some(*n))
        })
    };
    match member {
        Member::Integer(n) => value.as_i64() == Some(n),
        Member::List(numbers) => list(numbers, value),
        Member::Rows { .. } => value.as_array().is_some_and(|rows| {
            rows.len() == member.rows().count()
                && (rows.iter().zip(member.rows())).all(|(row, numbers)| list(numbers, row))
        }),
        Member::Json(json) => json == value,
    }
}

/// E1401 with `message` about the examples file `name`.
fn bad(name: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(
        codes::E1401,
        format!("the examples `{name}`: {}", message.into()),
    )
    .with_help(
        "write a JSON array of {\"input\": INPUT, \"output\": {MEMBER: VALUE}}, \
         as in examples/learn/*.json",
    )
}

/// Reads the examples in `text` (the file `name`), each input against the
/// sketch's declarations `layout` (its environment, registers and, in
/// `ram`, its named data), as `cnpic run` reads `--input`.
pub fn read(name: &str, text: &str, layout: &Declarations) -> Result<Vec<Example>, Diagnostic> {
    // The reader of `cnpic run --input`: a key twice is E0602 there too.
    let value = env::parse_strict("the file", text).map_err(|d| match d.code == codes::E0602 {
        true => Diagnostic::error(d.code, format!("the examples `{name}`: {}", d.message))
            .with_help("write each key of an object once"),
        false => bad(name, d.message),
    })?;
    from_value(name, value, layout)
}

/// The examples in `value` (the file, or the Python list, `name`), read
/// as [`read`] reads its text.
pub fn from_value(
    name: &str,
    value: Value,
    layout: &Declarations,
) -> Result<Vec<Example>, Diagnostic> {
    let Value::Array(items) = value else {
        return Err(bad(
            name,
            "they are not an array (a JSON array or a Python list)",
        ));
    };
    if items.is_empty() {
        return Err(bad(name, "there is no example"));
    }
    if items.len() > MAX_EXAMPLES {
        return Err(bad(
            name,
            format!("{} examples, more than {MAX_EXAMPLES}", items.len()),
        ));
    }
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| example(name, i, item, layout))
        .collect()
}

fn example(
    name: &str,
    i: usize,
    item: Value,
    layout: &Declarations,
) -> Result<Example, Diagnostic> {
    let Value::Object(mut fields) = item else {
        return Err(bad(name, format!("example {i} is not an object")));
    };
    let input = fields
        .remove("input")
        .ok_or_else(|| bad(name, format!("example {i} has no \"input\"")))?;
    let Some(Value::Object(output)) = fields.remove("output") else {
        return Err(bad(name, format!("example {i} has no \"output\" object")));
    };
    if let Some(other) = fields.keys().next() {
        return Err(bad(
            name,
            format!("example {i} has an unknown field \"{other}\""),
        ));
    }
    if output.is_empty() {
        return Err(bad(name, format!("example {i} asks for no output member")));
    }
    let json = input.clone();
    let input = env::read_value(layout, input).map_err(|d| {
        let message = format!("example {i}'s input: {}", d.message);
        bad(name, message)
    })?;
    // The members a run of this environment reports (`ram` reports its
    // registers too, recorded when the run finishes).
    let mut finished = input.clone();
    finished.finish(&vec![0; layout.registers.len()]);
    let members = finished.to_json(0, "neural");
    if let Some(unknown) = output.keys().find(|m| members.get(m.as_str()).is_none()) {
        let known: Vec<&str> = members
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        return Err(bad(
            name,
            format!(
                "example {i} asks for \"{unknown}\", which a `{}` run does not report (it reports {})",
                layout.env.name(),
                known.join(", ")
            ),
        ));
    }
    if let Some(member) = output
        .iter()
        .find_map(|(m, wanted)| (!can_hold(&members[m.as_str()], wanted)).then_some(m))
    {
        return Err(bad(
            name,
            format!(
                "example {i} asks for a value of \"{member}\" that no run can report: it is always {}",
                kind_of(&members[member.as_str()])
            ),
        ));
    }
    Ok(Example {
        input,
        output,
        json,
    })
}

/// Whether a member that starts as `start` can end as `wanted`: an integer
/// stays an integer, an array an array of the same nesting (an empty one,
/// such as the output tape, holds integers), anything else keeps its JSON
/// type.
fn can_hold(start: &Value, wanted: &Value) -> bool {
    match (start, wanted) {
        (Value::Number(_), _) => wanted.as_i64().is_some(),
        (Value::Array(first), Value::Array(items)) => match first.first() {
            Some(element) => items.iter().all(|item| can_hold(element, item)),
            None => items.iter().all(|item| item.as_i64().is_some()),
        },
        (Value::Array(_), _) => false,
        _ => std::mem::discriminant(start) == std::mem::discriminant(wanted),
    }
}

/// What a member that starts as `start` always is, in words.
fn kind_of(start: &Value) -> String {
    match start {
        Value::Number(_) => "an integer".into(),
        Value::Array(items) => format!("an array of {}", contents(items)),
        Value::String(_) => "a string".into(),
        Value::Bool(_) => "a boolean".into(),
        Value::Null => "null".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// "integers", "arrays of integers", ...: what the array `items` holds.
fn contents(items: &[Value]) -> String {
    match items.first() {
        Some(Value::Array(inner)) => format!("arrays of {}", contents(inner)),
        _ => "integers".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a program of `array` declares: nothing but its environment.
    fn array() -> Declarations {
        let kind = cnpi::program::EnvKind::from_name("array").expect("array is registered");
        Declarations::none(kind)
    }

    #[test]
    fn examples_are_read_and_bad_ones_are_refused_with_e1401() {
        let good = r#"[{"input": [3, 1], "output": {"A": [1, 3]}}]"#;
        let examples = read("ex.json", good, &array()).expect("reads");
        assert_eq!(examples.len(), 1);
        assert_eq!(examples[0].input.len(), 2);
        for bad in [
            "{",
            "{}",
            "[]",
            r#"[{"input": [1]}]"#,
            r#"[{"input": [1], "output": {}}]"#,
            r#"[{"input": [1], "output": {"sum": 1}}]"#,
            r#"[{"input": "x", "output": {"A": [1]}}]"#,
            r#"[{"input": [1], "output": {"A": [1]}, "extra": 1}]"#,
            r#"[{"input": [1], "output": {"A": "x"}}]"#,
            r#"[{"input": [1], "output": {"A": [1.5]}}]"#,
            r#"[{"input": [1], "output": {"A": [[1]]}}]"#,
            r#"[{"input": [1], "output": {"output": [[1]]}}]"#,
        ] {
            let error = read("ex.json", bad, &array()).err().map(|d| d.code);
            assert_eq!(error, Some(codes::E1401), "{bad}");
        }
        let never = r#"[{"input": [1], "output": {"A": "x"}}]"#;
        let error = read("ex.json", never, &array()).unwrap_err();
        assert!(
            error.message.ends_with("it is always an array of integers"),
            "{}",
            error.message
        );
        let tape = r#"[{"input": [1], "output": {"A": [7], "output": [1, 2]}}]"#;
        assert!(read("ex.json", tape, &array()).is_ok());
    }

    /// A `ram` run's members are read as integers ([`Example::matches`]):
    /// each output is matched exactly when the run's JSON holds it.
    #[test]
    fn a_ram_run_matches_as_its_json_says() {
        let text = "env ram()\ninput A[n]\ninput W[m][m]\nvar q = 0\n\ndef P():\n  q = n + 1\n  SWAP(A[0], A[1])\n";
        let program = cnpi::compile::compile("p.cnpi", text, None)
            .program
            .expect("checks");
        let layout = Declarations::of(&program);
        let input = r#"[{"input": {"A": [1, 2], "W": [[1, 2], [3, 4]]}, "output": {"q": 3}}]"#;
        let example = read("ex.json", input, &layout).expect("reads").remove(0);
        let outcome = cnpi::symbolic::run(
            &program,
            example.input.clone(),
            cnpi::exec::Options::steps(100),
        )
        .expect("runs");
        let json = outcome.to_json("neural");
        assert!(outcome.state.members(&[]).is_some(), "ram holds integers");
        let outputs = [
            r#"{"q": 3}"#,
            r#"{"q": 3, "A": [2, 1]}"#,
            r#"{"A": [2, 1], "W": [[1, 2], [3, 4]], "n": 2}"#,
            r#"{"q": 3.0}"#,
            r#"{"q": 4}"#,
            r#"{"A": [1, 2]}"#,
            r#"{"A": [2, 1, 0]}"#,
            r#"{"A": [2]}"#,
            r#"{"W": [[1, 2], [3, 5]]}"#,
            r#"{"W": [[1, 2]]}"#,
            r#"{"W": [1, 2, 3, 4]}"#,
            r#"{"engine": "neural"}"#,
            r#"{"engine": "reference"}"#,
            r#"{"missing": 1}"#,
        ];
        let mut matched = 0;
        for output in outputs {
            let output: Map<String, Value> = serde_json::from_str(output).expect("an object");
            let by_json = (output.iter()).all(|(member, value)| json.get(member) == Some(value));
            let example = Example {
                output,
                ..example.clone()
            };
            assert_eq!(example.matches(&outcome), by_json, "{:?}", example.output);
            matched += usize::from(by_json);
        }
        assert_eq!(matched, 4, "the first three and the engine match");
    }

    /// Issue 47: serde_json keeps the last of a key written twice, so an
    /// example could silently lose its first output; the examples are
    /// read as `run --input` is, and a key twice at any depth is E0602.
    #[test]
    fn a_key_written_twice_anywhere_is_refused_with_e0602() {
        for twice in [
            r#"[{"input": [1], "output": {"A": [1]}, "output": {"A": [2]}}]"#,
            r#"[{"input": [1], "output": {"A": [1], "A": [2]}}]"#,
            r#"[{"input": [1], "input": [2], "output": {"A": [1]}}]"#,
        ] {
            let error = read("ex.json", twice, &array()).unwrap_err();
            assert_eq!(error.code, codes::E0602, "{twice}");
            assert!(error.message.contains("twice"), "{}", error.message);
        }
        let input = r#"{"A": [1], "A": [2]}"#;
        let run = env::read_input(&array(), input).map(|_| ());
        let error = run.unwrap_err();
        assert_eq!(error.code, codes::E0602, "as `run --input` refuses");
        assert!(error.message.contains("twice"), "{}", error.message);
    }
}
