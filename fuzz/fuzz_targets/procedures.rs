//! §5.2's procedures, generated: `for ... to`/`downto` with bounds from
//! the input (some huge), `while`, `break` and `continue` (inside loops,
//! and now and then outside them or inside a called frame), `if`/`elif`/
//! `else`, `+=` and friends, `a, b = ...` and several results, truth
//! values, `min`/`max`/`abs`/`len`, local arrays sized from the input,
//! arrays passed to parameters. Each program is parsed, checked, formatted
//! and run every way; nothing panics, aborts or hangs, and the forms agree.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// What a statement may refer to where it is generated.
#[derive(Clone, Copy)]
struct Scope {
    /// Local arrays and arrays passed to parameters are generated (half
    /// the programs: without them, the rest of §5.2 compiles on its own).
    arrays: bool,
    /// Nested in a loop (`break` and `continue` are then legal).
    in_loop: bool,
    /// Inside `TWO`, which returns two results.
    two: bool,
    depth: u32,
}

const LOCALS: [&str; 3] = ["x", "y", "z"];

fn int(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0..=9u8)? {
        0 => i64::MAX.to_string(),
        1 => "-9223372036854775807".to_string(),
        2 => "true".into(),
        3 => "false".into(),
        4 => "'a'".into(),
        _ => u.int_in_range(-3..=12i64)?.to_string(),
    })
}

fn place(u: &mut Unstructured, s: Scope) -> Result<String> {
    Ok(match u.int_in_range(0..=5u8)? {
        0 => format!("A[{}]", expr(u, s, 1)?),
        1 if s.arrays => format!("L[{}]", expr(u, s, 1)?),
        1 => "total".into(),
        2 => "total".into(),
        i => LOCALS[i as usize - 3].into(),
    })
}

fn expr(u: &mut Unstructured, s: Scope, depth: u32) -> Result<String> {
    if depth > 2 {
        return int(u);
    }
    let d = depth + 1;
    Ok(match u.int_in_range(0..=16u8)? {
        0 | 1 => int(u)?,
        2 | 3 => place(u, s)?,
        4 => "n".into(),
        5 => "len(A)".into(),
        6 => format!("min({}, {})", expr(u, s, d)?, expr(u, s, d)?),
        7 => format!(
            "max({}, {}, {})",
            expr(u, s, d)?,
            expr(u, s, d)?,
            expr(u, s, d)?
        ),
        8 => format!("abs({})", expr(u, s, d)?),
        9 if s.arrays => format!("ONE({}, A)", expr(u, s, d)?),
        9 => format!("ONE({})", expr(u, s, d)?),
        10 => format!("({} == {})", expr(u, s, d)?, expr(u, s, d)?),
        11 => format!(
            "(not {} or {} < {})",
            expr(u, s, d)?,
            expr(u, s, d)?,
            expr(u, s, d)?
        ),
        op => {
            let op = ["+", "-", "*", "/", "%"][op as usize - 12];
            format!("({} {op} {})", expr(u, s, d)?, expr(u, s, d)?)
        }
    })
}

fn block(u: &mut Unstructured, scope: &Scope, indent: usize, out: &mut String) -> Result<()> {
    let count = u.int_in_range(1..=3u8)?;
    for _ in 0..count {
        stmt(u, scope, indent, out)?;
    }
    Ok(())
}

fn stmt(u: &mut Unstructured, scope: &Scope, indent: usize, out: &mut String) -> Result<()> {
    let pad = "  ".repeat(indent);
    let inner = Scope {
        depth: scope.depth + 1,
        ..*scope
    };
    let looped = Scope {
        in_loop: true,
        ..inner
    };
    let nested = scope.depth < 3;
    match u.int_in_range(0..=14u8)? {
        0 | 1 => out.push_str(&format!(
            "{pad}{} = {}\n",
            place(u, *scope)?,
            expr(u, *scope, 0)?
        )),
        2 => {
            let op = ["+=", "-=", "*=", "/=", "%="][u.int_in_range(0..=4usize)?];
            out.push_str(&format!(
                "{pad}{} {op} {}\n",
                place(u, *scope)?,
                expr(u, *scope, 0)?
            ));
        }
        3 => out.push_str(&format!(
            "{pad}{}, {} = {}, {}\n",
            place(u, *scope)?,
            place(u, *scope)?,
            expr(u, *scope, 0)?,
            expr(u, *scope, 0)?
        )),
        4 => out.push_str(&format!(
            "{pad}{}, {} = TWO({})\n",
            place(u, *scope)?,
            place(u, *scope)?,
            expr(u, *scope, 0)?
        )),
        5 if nested => {
            let way = if u.arbitrary()? { "to" } else { "downto" };
            let bound = match u.int_in_range(0..=3u8)? {
                0 => "k".to_string(),
                1 => "9223372036854775806".to_string(),
                _ => expr(u, *scope, 1)?,
            };
            out.push_str(&format!(
                "{pad}for i = {} {way} {bound}:\n",
                expr(u, *scope, 1)?
            ));
            block(u, &looped, indent + 1, out)?;
        }
        6 if nested => {
            out.push_str(&format!("{pad}while {}:\n", expr(u, *scope, 0)?));
            block(u, &looped, indent + 1, out)?;
        }
        7 | 8 if nested => {
            out.push_str(&format!("{pad}if {}:\n", expr(u, *scope, 0)?));
            block(u, &inner, indent + 1, out)?;
            if u.arbitrary()? {
                out.push_str(&format!("{pad}elif {}:\n", expr(u, *scope, 0)?));
                block(u, &inner, indent + 1, out)?;
            }
            if u.arbitrary()? {
                out.push_str(&format!("{pad}else:\n"));
                block(u, &inner, indent + 1, out)?;
            }
        }
        // Mostly inside loops; now and then where it is an error.
        9 if scope.in_loop || u.int_in_range(0..=9u8)? == 0 => {
            out.push_str(&format!(
                "{pad}{}\n",
                if u.arbitrary()? { "break" } else { "continue" }
            ));
        }
        10 if scope.arrays => {
            out.push_str(&format!(
                "{pad}var L[{}] = {}\n",
                expr(u, *scope, 1)?,
                expr(u, *scope, 1)?
            ));
        }
        11 if scope.two => out.push_str(&format!(
            "{pad}return {}, {}\n",
            expr(u, *scope, 0)?,
            expr(u, *scope, 0)?
        )),
        12 if scope.arrays => out.push_str(&format!("{pad}PROC({}, A)\n", expr(u, *scope, 0)?)),
        12 => out.push_str(&format!("{pad}PROC({})\n", expr(u, *scope, 0)?)),
        _ => out.push_str(&format!("{pad}total += 1\n")),
    }
    Ok(())
}

/// A definition `head` whose locals are set first (a local read before
/// it is set is a compile error), with a generated body.
fn def(u: &mut Unstructured, head: &str, scope: Scope, tail: &str, out: &mut String) -> Result<()> {
    out.push_str(&format!("\ndef {head}:\n  x = 0\n  y = 1\n  z = 2\n"));
    if scope.arrays {
        out.push_str("  var L[3] = 0\n");
    }
    block(u, &scope, 1, out)?;
    out.push_str(tail);
    Ok(())
}

fn program(u: &mut Unstructured) -> Result<String> {
    let mut out = String::from("env ram()\ninput k\ninput A[n]\nvar total = 0\n");
    let top = Scope {
        arrays: u.arbitrary()?,
        in_loop: false,
        two: false,
        depth: 0,
    };
    def(u, "MAIN()", top, "", &mut out)?;
    // Recursions bounded by `d`, which each call lowers.
    if top.arrays {
        let one = "  if d > 0 and len(B) > 0:\n    return ONE(d - 1, B) + B[0]\n  return x\n";
        def(u, "ONE(d, B)", top, one, &mut out)?;
        def(
            u,
            "PROC(d, B)",
            top,
            "  if d > 0:\n    PROC(d - 1, B)\n",
            &mut out,
        )?;
    } else {
        let one = "  if d > 0:\n    return ONE(d - 1) + x\n  return x\n";
        def(u, "ONE(d)", top, one, &mut out)?;
        def(
            u,
            "PROC(d)",
            top,
            "  if d > 0:\n    PROC(d - 1)\n",
            &mut out,
        )?;
    }
    let two = Scope { two: true, ..top };
    def(u, "TWO(d)", two, "  return y, z\n", &mut out)?;
    Ok(out)
}

fn case(u: &mut Unstructured) -> Result<()> {
    let text = program(u)?;
    let k: i64 = u.int_in_range(-2..=1_000_000)?;
    let n = u.int_in_range(0..=6i64)?;
    let a: Vec<String> = (0..n).map(|i| (i * 7 % 5 - 2).to_string()).collect();
    let input = format!("{{\"k\": {k}, \"A\": [{}]}}", a.join(", "));
    // The formatter lays out every file that parses, or says why not.
    let _ = cnpi::format::format(&text);
    if let Some(compiled) = cnpi_fuzz::compiled(&text) {
        cnpi_fuzz::run_every_way(&compiled, &input, 2_000);
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = case(&mut Unstructured::new(data));
});
