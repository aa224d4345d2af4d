//! Reading a `ram` input: the one reader, [`RamState::read`].
//!
//! The input is a JSON object with a member for each `input` the program
//! declares, read against its [`Declarations`]: integers, arrays (or a
//! string, its characters' code points) and matrices, the sizes their
//! shapes bind, then the scratch memory made ([`RamState::build`]). Every
//! error is an E06xx diagnostic naming the member. A valid input's text
//! is read without a `serde_json::Value` tree first ([`typed`]: a large
//! matrix costs a few instructions a digit); anything that way does not
//! read is read from the parsed value, which finds the error and words its
//! diagnostic, so both ways give the same state or the same diagnostic.
//! The tests below hold them to that.

use serde_json::Value;

use super::input::{self, integer, not_i64};
use super::{RamState, Region, typed};
use crate::diagnostic::{Diagnostic, codes};
use crate::env::{Declarations, Given, Input};
use crate::program::{Data, DataKind, EnvKind};

impl RamState {
    /// The state `input` describes for a program that declares `layout`;
    /// every member is checked as it is read, with its diagnostic.
    pub(super) fn read(layout: &Declarations, input: Input) -> Result<RamState, Diagnostic> {
        let kind = layout.env;
        let input = match input {
            Input::Text(text) => match RamState::read_valid(layout, input::without_bom(text)) {
                Some(state) => return Ok(state),
                None => input,
            },
            Input::Given(members) => match found(layout, members) {
                Ok(mut found) => {
                    return RamState::build(layout, |id, data| {
                        found[id].take().ok_or_else(|| missing(kind, data))
                    });
                }
                Err(members) => Input::Given(members),
            },
            Input::Value(_) => input,
        };
        let mut members = match input.parsed(kind)? {
            Value::Object(map) => map,
            other => return Err(input::wrong_shape(kind, "a JSON object", &other)),
        };
        RamState::build(layout, |_, data| {
            let value = members
                .remove(&data.name)
                .ok_or_else(|| missing(kind, data))?;
            read_member(kind, data, value)
        })
    }

    /// The state of the input text `text` when it is valid, read without
    /// a `Value` tree ([`typed`]); `None` when anything is off, and then
    /// [`RamState::read`] reads the parsed value and words the diagnostic.
    fn read_valid(layout: &Declarations, text: &str) -> Option<RamState> {
        let mut members = typed::members(layout, text)?;
        let state = RamState::build(layout, |id, data| {
            members[id].take().ok_or_else(|| missing(layout.env, data))
        });
        state.ok()
    }
}

/// The members given as integers by declared input (data id), each the
/// memory and lengths it is read into, when every one the program
/// declares as an input has its declared shape and is given once (any
/// other is passed over, as the parsed value's are); else `members` back,
/// for the parsed value to word the diagnostic.
fn found(
    layout: &Declarations,
    members: Vec<(String, Given)>,
) -> Result<Vec<Option<typed::Member>>, Vec<(String, Given)>> {
    let mut ids = Vec::with_capacity(members.len());
    for (name, given) in &members {
        let id = layout
            .data
            .iter()
            .position(|d| d.kind == DataKind::Input && d.name == *name);
        let dims = match given {
            Given::Integer(_) => Some(0),
            Given::List(_) => Some(1),
            Given::Rows { rows, cols, values } => {
                (Some(values.len()) == rows.checked_mul(*cols)).then_some(2)
            }
        };
        match id {
            Some(id) if dims != Some(layout.data[id].dims.len()) || ids.contains(&Some(id)) => {
                return Err(members);
            }
            id => ids.push(id),
        }
    }
    let mut found = vec![None; layout.data.len()];
    for (id, (_, given)) in ids.into_iter().zip(members) {
        let Some(id) = id else { continue };
        found[id] = Some(match given {
            Given::Integer(k) => (Region::Scalar(k), Vec::new()),
            Given::List(values) => {
                let n = values.len();
                (Region::Array(values), vec![n])
            }
            Given::Rows { rows, cols, values } => {
                // No rows have no columns, as `[]` reads.
                let cols = if rows == 0 { 0 } else { cols };
                (Region::Matrix { rows, cols, values }, vec![rows, cols])
            }
        });
    }
    Ok(found)
}

/// The memory of the input member `data`, and its lengths.
fn read_member(kind: EnvKind, data: &Data, value: Value) -> Result<typed::Member, Diagnostic> {
    let name = &data.name;
    // The member's name is written out only for an error.
    let int = |what: &dyn Fn() -> String, item: &Value| {
        integer(item).map_err(|why| not_i64(kind, &what(), item, why))
    };
    match data.dims.len() {
        0 => Ok((
            Region::Scalar(int(&|| format!("`{name}`"), &value)?),
            Vec::new(),
        )),
        1 => {
            // A string is its characters' code points (language.md §5.2).
            if let Value::String(text) = &value {
                let values: Vec<i64> = text.chars().map(|c| i64::from(u32::from(c))).collect();
                let n = values.len();
                return Ok((Region::Array(values), vec![n]));
            }
            let Value::Array(items) = value else {
                return Err(shape(kind, data, &value));
            };
            let values = items
                .iter()
                .enumerate()
                .map(|(i, item)| int(&|| format!("`{name}[{i}]`"), item))
                .collect::<Result<Vec<_>, _>>()?;
            let n = values.len();
            Ok((Region::Array(values), vec![n]))
        }
        _ => {
            let Value::Array(rows) = value else {
                return Err(shape(kind, data, &value));
            };
            let mut values = Vec::new();
            let mut cols = None;
            for (i, row) in rows.iter().enumerate() {
                let Value::Array(items) = row else {
                    return Err(input::wrong_shape(
                        kind,
                        &format!("row {i} of `{name}` to be an array"),
                        row,
                    ));
                };
                match cols {
                    None => cols = Some(items.len()),
                    Some(c) if c != items.len() => {
                        return Err(Diagnostic::error(
                            codes::E0602,
                            format!(
                                "the rows of the matrix `{name}` differ in length: row 0 has {c} elements, row {i} has {}",
                                items.len()
                            ),
                        )
                        .with_help("a matrix is an array of equal-length arrays of integers"));
                    }
                    Some(_) => {}
                }
                for (j, item) in items.iter().enumerate() {
                    values.push(int(&|| format!("`{name}[{i}][{j}]`"), item)?);
                }
            }
            let (rows, cols) = (rows.len(), cols.unwrap_or(0));
            Ok((Region::Matrix { rows, cols, values }, vec![rows, cols]))
        }
    }
}

/// E0602: the member `data` is not of its declared shape.
fn shape(kind: EnvKind, data: &Data, found: &Value) -> Diagnostic {
    let what = match data.dims.len() {
        0 => "an integer",
        1 => "an array of integers",
        _ => "an array of equal-length arrays of integers",
    };
    input::wrong_shape(kind, &format!("`{}` to be {what}", data.name), found)
}

/// E0607: the input has no member `data`.
fn missing(kind: EnvKind, data: &Data) -> Diagnostic {
    Diagnostic::error(
        codes::E0607,
        format!(
            "the input has no member `{}`, which the program declares as {}",
            data.name,
            data.shape()
        ),
    )
    .with_help(input::help(kind))
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::typed::PARALLEL_BYTES;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    use serde_json::{Value, json};

    use super::RamState;
    use crate::diagnostic::Diagnostic;
    use crate::env::{Declarations, Given, Input, input, read_given, read_input};
    use crate::program::Program;

    fn program() -> Program {
        let text = "env ram(i = 0)\ninput A[n][m]\ninput B[m]\ninput x\nvar t[n] = 7\n\
                    def MAIN: seq(; NOP, NOP, NOP)\n";
        let compiled = crate::compile::compile("p.cnpi", text, None).program;
        compiled.expect("the program compiles")
    }

    /// What the reader makes of `text` parsed first (the checked way):
    /// its state or its diagnostic.
    fn checked(program: &Program, text: &str) -> Result<RamState, Diagnostic> {
        let layout = Declarations::of(program);
        let value = input::parse_json(layout.env, text)?;
        RamState::read(&layout, Input::Value(value))
    }

    #[test]
    fn a_valid_input_reads_as_the_checked_path_reads_it() {
        let program = program();
        let layout = Declarations::of(&program);
        for text in [
            r#"{"A": [[1, 2], [3, -4]], "B": [5, 0], "x": 9}"#,
            r#" {"x": -9223372036854775808, "B": [], "A": [[], [], []]} "#,
            "\t{\"x\":9223372036854775807,\r\n\"B\":[ ],\"A\":[ ]}\n",
            r#"{"A": [], "B": [], "x": 0, "other": {"k": 1, "k": [1.5, "é"]}}"#,
            // `-0` is 0 on both paths.
            r#"{"A": [[-0]], "B": [0], "x": -0}"#,
            r#"{"n": [true, false, null, {}], "A": [], "x": 1, "B": [], "t": "a\"\\\/\b\f\n\r\tb"}"#,
            r#"{"": -0.5e+7, "y": [0E-0, 1e400, -12.25], "A": [], "B": [], "x": 3}"#,
        ] {
            let fast = RamState::read_valid(&layout, text).expect("read fast");
            assert_eq!(Ok(fast), checked(&program, text), "{text}");
        }
    }

    #[test]
    fn anything_off_is_left_to_the_checked_path_and_diagnosed_as_before() {
        let program = program();
        let layout = Declarations::of(&program);
        let big = "9".repeat(320);
        let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
        let deep_but_valid = format!("{}{}", "[".repeat(100), "]".repeat(100));
        for text in [
            // Keys written twice.
            r#"{"A": [[1]], "B": [5], "x": 9, "x": 9}"#.to_string(),
            r#"{"A": [[1]], "B": [5], "x": 9, "y": 1, "y": 2}"#.into(),
            // A ragged matrix, lengths that disagree, a missing member.
            r#"{"A": [[1, 2], [3]], "B": [5, 6], "x": 9}"#.into(),
            r#"{"A": [[1]], "B": [5, 6], "x": 9}"#.into(),
            r#"{"A": [[1]], "B": [5]}"#.into(),
            // Numbers that are no i64.
            r#"{"A": [[1]], "B": [5], "x": 9.0}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 1e3}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 1e999999999}"#.into(),
            r#"{"A": [[1.5]], "B": [5], "x": 1}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9223372036854775808}"#.into(),
            r#"{"A": [[1]], "B": [-9223372036854775809], "x": 1}"#.into(),
            format!(r#"{{"A": [[1]], "B": [5], "x": {big}}}"#),
            r#"{"A": [[1]], "B": [5], "x": "9"}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 09}"#.into(),
            r#"{"A": [[1]], "B": [null], "x": 1}"#.into(),
            r#"{"A": [1], "B": [5], "x": 1}"#.into(),
            // Syntax errors.
            r#"{"A": [[1]], "B": [5], "x": 9} 0"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9,}"#.into(),
            r#"{"A": [[1]], "B": [5,], "x": 9}"#.into(),
            r#"{"A": [[1]] "B": [5], "x": 9}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9, "y": tru}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9, "y": 1.}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9, "y": "a	b"}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9"#.into(),
            r#"{"A": [[1]], "B": [5], "x": - 9}"#.into(),
            "[1, 2]".into(),
            String::new(),
            // A lone surrogate, and an escape the scanner leaves to serde.
            r#"{"A": [[1]], "B": [5], "x": 9, "y": "\ud800"}"#.into(),
            r#"{"A": [[1]], "B": [5], "x": 9, "y": "\u00e9"}"#.into(),
            r#"{"\u0041": [[1]], "B": [5], "x": 9}"#.into(),
            // Nesting past serde_json's limit, and short of it.
            format!(r#"{{"A": [[1]], "B": [5], "x": 9, "y": {deep}}}"#),
            format!(r#"{{"A": [[1]], "B": [5], "x": 9, "y": {deep_but_valid}}}"#),
        ] {
            assert!(RamState::read_valid(&layout, &text).is_none(), "{text}");
            let read = read_input(&layout, &text).map(|state| state.to_json(0, "symbolic"));
            let before = checked(&program, &text).map(|_| ());
            assert_eq!(read.is_ok(), before.is_ok(), "{text}");
            if let Err(diagnostic) = before {
                assert_eq!(read.unwrap_err(), diagnostic, "{text}");
            }
        }
    }

    #[test]
    fn members_given_as_integers_read_as_their_text_reads() {
        let program = program();
        let layout = Declarations::of(&program);
        let rows = |rows, cols, values: &[i64]| Given::Rows {
            rows,
            cols,
            values: values.to_vec(),
        };
        let a = |given| ("A".to_string(), given);
        let b = |values: &[i64]| ("B".to_string(), Given::List(values.to_vec()));
        let x = |k| ("x".to_string(), Given::Integer(k));
        let cases = [
            (
                vec![a(rows(2, 2, &[1, 2, 3, -4])), b(&[5, 0]), x(9)],
                r#"{"A": [[1, 2], [3, -4]], "B": [5, 0], "x": 9}"#,
            ),
            // No rows have no columns, whatever `cols` says.
            (
                vec![x(i64::MIN), b(&[]), a(rows(0, 3, &[]))],
                r#"{"x": -9223372036854775808, "B": [], "A": []}"#,
            ),
            (
                vec![a(rows(3, 0, &[])), b(&[]), x(0)],
                r#"{"A": [[], [], []], "B": [], "x": 0}"#,
            ),
            // Members the program does not declare as inputs are passed over.
            (
                vec![
                    a(rows(1, 1, &[1])),
                    b(&[5]),
                    x(1),
                    ("t".into(), Given::Integer(3)),
                ],
                r#"{"A": [[1]], "B": [5], "x": 1, "t": 3}"#,
            ),
            // Lengths that disagree, a member missing, given twice, of
            // another shape, a matrix's values not rows × cols.
            (
                vec![a(rows(1, 1, &[1])), b(&[5, 6]), x(9)],
                r#"{"A": [[1]], "B": [5, 6], "x": 9}"#,
            ),
            (
                vec![a(rows(1, 1, &[1])), b(&[5])],
                r#"{"A": [[1]], "B": [5]}"#,
            ),
            (
                vec![a(rows(1, 1, &[1])), b(&[5]), x(1), x(2)],
                r#"{"A": [[1]], "B": [5], "x": 1, "x": 2}"#,
            ),
            (
                vec![a(Given::List(vec![1])), b(&[5]), x(1)],
                r#"{"A": [1], "B": [5], "x": 1}"#,
            ),
            (
                vec![a(rows(1, 1, &[1])), ("B".into(), Given::Integer(5)), x(1)],
                r#"{"A": [[1]], "B": 5, "x": 1}"#,
            ),
            (
                vec![a(rows(2, 2, &[1, 2, 3])), b(&[5, 6]), x(1)],
                r#"{"A": [[1, 2], [3]], "B": [5, 6], "x": 1}"#,
            ),
        ];
        let mut read = 0;
        for (members, text) in cases {
            let given = read_given(&layout, members);
            read += usize::from(given.is_ok());
            // Given members have no text for a key twice to be placed in.
            let unplaced = |mut d: Diagnostic| {
                d.message
                    .truncate(d.message.find(" at line").unwrap_or(d.message.len()));
                d
            };
            assert_eq!(given, read_input(&layout, text).map_err(unplaced), "{text}");
        }
        assert_eq!(read, 4, "the first four read, the others are refused");
    }

    /// Fragments a mutation puts in.
    const FRAGMENTS: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "\\",
        "-",
        "0",
        "7",
        ".",
        "e",
        " ",
        "\n",
        "\"x\": 1, ",
        "\"A\": [], ",
        "null",
        "1.5",
        "-0",
        "1e400",
        "99999999999999999999",
        "é",
        "\"y\": [",
        "\\u",
        "\"W\"",
        "true",
        "-1e19",
        "\u{feff}",
        "[[]]",
        "{}",
    ];

    #[test]
    fn what_the_scanner_reads_the_checked_path_reads_alike() {
        let program = program();
        let layout = Declarations::of(&program);
        let mut rng = ChaCha8Rng::seed_from_u64(32);
        let valid = [
            r#"{"A": [[1, -22], [0, 9223372036854775807]], "B": [5, 0], "x": -9}"#,
            r#"{"x": 0, "y": {"k": [1.5e-3, "a\n", true]}, "B": [], "A": [[], []]}"#,
        ];
        let (mut read, mut given_up) = (0, 0);
        for _ in 0..20_000 {
            let mut text = valid[rng.random_range(0..valid.len())].to_string();
            for _ in 0..rng.random_range(1..4) {
                let mut at = rng.random_range(0..=text.len());
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                if rng.random_bool(0.5) {
                    text.insert_str(at, FRAGMENTS[rng.random_range(0..FRAGMENTS.len())]);
                } else if at < text.len() {
                    text.remove(at);
                }
            }
            match RamState::read_valid(&layout, &text) {
                Some(fast) => {
                    read += 1;
                    assert_eq!(Ok(fast), checked(&program, &text), "{text}");
                }
                None => given_up += 1,
            }
        }
        // Both kinds of case were met.
        assert!(
            read > 1_000 && given_up > 1_000,
            "{read} read, {given_up} given up"
        );
    }

    /// A matrix of `rows` rows of `cols` integers, as JSON text over
    /// [`PARALLEL_BYTES`] for 300 rows of 1,000.
    fn matrix(rows: usize, cols: usize) -> Vec<Vec<i64>> {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut cell = || rng.random_range(-10_000_000..10_000_000);
        (0..rows)
            .map(|_| (0..cols).map(|_| cell()).collect())
            .collect()
    }

    #[test]
    fn a_large_matrix_read_on_two_threads_reads_as_on_one() {
        let program = program();
        let layout = Declarations::of(&program);
        let (a, b) = (matrix(300, 1_000), vec![3; 1_000]);
        let big = serde_json::to_string(&a).unwrap();
        let small = serde_json::to_string(&a[..2]).unwrap();
        let b = serde_json::to_string(&b).unwrap();
        let words = format!("\"{}\"", "[w".repeat(800_000));
        for text in [
            format!(r#"{{"A": {big}, "B": {b}, "x": 1}}"#),
            // Whitespace and the other members around the matrix.
            format!(
                "{{\"x\": 1,\n\"A\":\n{}\n ,\"B\": {b}}}",
                big.replace(",[", ",\n  [")
            ),
            // The middle of the text past the matrix: in a string of `[`s,
            // in a member of its own.
            format!(r#"{{"A": {small}, "B": {b}, "x": 1, "w": {words}}}"#),
            format!(r#"{{"A": {small}, "B": {b}, "x": 1, "w": {big}}}"#),
        ] {
            assert!(text.len() > PARALLEL_BYTES);
            let fast = RamState::read_valid(&layout, &text).expect("read fast");
            assert_eq!(Ok(fast), checked(&program, &text));
        }
    }

    #[test]
    fn a_large_matrix_off_in_either_half_is_left_to_the_checked_path() {
        let program = program();
        let layout = Declarations::of(&program);
        let b = serde_json::to_string(&vec![3; 1_000]).unwrap();
        let a = serde_json::to_string(&matrix(300, 1_000)).unwrap();
        let rows: Vec<usize> = a.match_indices(",[").map(|(at, _)| at + 1).collect();
        for row in [rows[10], rows[250]] {
            for (what, with) in [("[", "[1.5, "), ("[", "[1, 2, "), ("[", "[-, "), ("[", "")] {
                let mut a = a.clone();
                a.replace_range(row..row + what.len(), with);
                let text = format!(r#"{{"A": {a}, "B": {b}, "x": 1}}"#);
                assert!(RamState::read_valid(&layout, &text).is_none());
                let read = read_input(&layout, &text).map(|_| ());
                assert_eq!(read, checked(&program, &text).map(|_| ()));
                assert!(read.is_err());
            }
        }
    }

    #[test]
    fn a_second_half_of_other_rows_is_left_to_the_checked_path() {
        let program = program();
        let layout = Declarations::of(&program);
        let b = serde_json::to_string(&vec![3; 1_000]).unwrap();
        let (mut a, longer) = (matrix(300, 1_000), matrix(150, 1_001));
        a.splice(150.., longer);
        let a = serde_json::to_string(&a).unwrap();
        let text = format!(r#"{{"A": {a}, "B": {b}, "x": 1}}"#);
        assert!(text.len() > PARALLEL_BYTES);
        assert!(RamState::read_valid(&layout, &text).is_none());
        let read = read_input(&layout, &text).map(|_| ());
        assert_eq!(read, checked(&program, &text).map(|_| ()));
        assert!(read.is_err());
    }

    // Property tests of the reader's public face (`read_input`): valid
    // inputs (scalars, arrays and matrices of any i64, matrices with rows
    // and no columns, keys in any order) are read back member for member;
    // their text, mutated, is read or refused with an input error (E06xx),
    // never a panic.

    /// The program whose declarations the property tests read inputs against.
    const SOURCE: &str = "env ram(i = 0)\ninput A[n]\ninput W[r][c]\ninput x\nvar D[n][2] = x\n\n\
                          def MAIN():\n  i = n + r + c\n";

    /// [`SOURCE`], compiled.
    fn fuzzed() -> Program {
        crate::compile::compile("ram_input.cnpi", SOURCE, None)
            .program
            .expect("the program compiles")
    }

    /// Seeded; 10,000 cases by default, `CNPI_FUZZ_CASES` for more.
    fn runner() -> TestRunner {
        let cases = std::env::var("CNPI_FUZZ_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(10_000);
        let config = Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        };
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
    }

    /// Small integers and any i64, the extremes among them.
    fn int() -> impl Strategy<Value = i64> {
        prop_oneof![-3i64..3, any::<i64>(), Just(i64::MIN), Just(i64::MAX)]
    }

    /// A valid input: `A`, `W` (rows of equal length, maybe none or empty
    /// ones) and `x`, as a JSON object.
    fn inputs() -> impl Strategy<Value = Value> {
        let matrix = (0usize..4, 0usize..4).prop_flat_map(|(rows, cols)| {
            prop::collection::vec(prop::collection::vec(int(), cols), rows)
        });
        (prop::collection::vec(int(), 0..6), matrix, int())
            .prop_map(|(a, w, x)| json!({"W": w, "x": x, "A": a}))
    }

    #[test]
    fn valid_inputs_are_read_back_member_for_member() {
        let program = fuzzed();
        let layout = Declarations::of(&program);
        runner()
            .run(&inputs(), |input| {
                let state = read_input(&layout, &input.to_string())
                    .map_err(|d| TestCaseError::fail(format!("{}: {}", d.code, d.message)))?;
                let out = state.to_json(0, "symbolic");
                let rows = input["W"].as_array().map_or(0, Vec::len);
                let cols = input["W"][0].as_array().map_or(0, Vec::len);
                for member in ["A", "W", "x"] {
                    prop_assert_eq!(&out[member], &input[member], "{}", member);
                }
                prop_assert_eq!(&out["n"], &json!(input["A"].as_array().map_or(0, Vec::len)));
                prop_assert_eq!((&out["r"], &out["c"]), (&json!(rows), &json!(cols)));
                let d = out["D"].as_array().expect("D is a matrix");
                prop_assert!(d.iter().all(|row| row == &json!([input["x"], input["x"]])));
                Ok(())
            })
            .expect("every valid input is read as written");
    }

    #[test]
    fn mutated_inputs_are_read_or_refused_never_a_panic() {
        let program = program();
        let layout = Declarations::of(&program);
        let edit = (any::<usize>(), 0..FRAGMENTS.len() + 3);
        let strategy = (inputs(), prop::collection::vec(edit, 1..5));
        runner()
            .run(&strategy, |(input, edits)| {
                let mut text: Vec<char> = input.to_string().chars().collect();
                for (at, what) in edits {
                    let at = at % (text.len() + 1);
                    match FRAGMENTS.get(what) {
                        Some(fragment) => drop(text.splice(at..at, fragment.chars())),
                        None => drop(text.drain(at..(at + what % 4).min(text.len()))),
                    }
                }
                let text: String = text.into_iter().collect();
                if let Err(diagnostic) = read_input(&layout, &text) {
                    let code = diagnostic.code.to_string();
                    prop_assert!(
                        code.starts_with("E06"),
                        "{code} for {text}: {}",
                        diagnostic.message
                    );
                }
                Ok(())
            })
            .expect("every mutated input is read or refused with an input error");
    }
}
