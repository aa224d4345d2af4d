//! The text tables of the experiments' summaries, laid out in one place:
//! each column as wide as its widest cell, the first (the row's name)
//! flush left, the others (numbers) flush right, one space between.

/// `header` over `rows`, one line each (each ends with `\n`).
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    let lines: Vec<&Vec<String>> = std::iter::once(&header).chain(rows).collect();
    let columns = lines.iter().map(|line| line.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            let cell = |line: &&Vec<String>| line.get(c).map_or(0, |s| s.chars().count());
            lines.iter().map(cell).max().unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for line in lines {
        let cells = line.iter().zip(&widths).enumerate();
        let padded: Vec<String> = cells
            .map(|(c, (cell, &width))| match c {
                0 => format!("{cell:<width$}"),
                _ => format!("{cell:>width$}"),
            })
            .collect();
        text.push_str(padded.join(" ").trim_end());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_as_wide_as_their_widest_cell() {
        let rows = [
            vec!["state0".to_string(), "16".into(), "99.5 %".into()],
            vec!["input".to_string(), "128".into(), "±".into()],
        ];
        let text = table(&["variant", "cells", "accuracy"], &rows);
        assert_eq!(
            text,
            "variant cells accuracy\nstate0     16   99.5 %\ninput     128        ±\n"
        );
    }
}
