//! What each trial of a run says of its own parameters, worked out from
//! the run's configuration alone (the `config` of its result files), so
//! that `merge` can refuse a row that contradicts the settings it was run
//! with: a seed the run never drew, a cell count or a variant it never
//! swept. Each experiment's [`crate::Experiment::planned`] builds its list
//! with [`grid`], [`field`] and [`seeds`].

use serde_json::{Map, Value};

/// The parameters one trial's row must hold, field by field.
pub type Planned = Map<String, Value>;

/// The configuration's member at `path` (keys, outermost first).
pub fn field(config: &Value, path: &[&str]) -> Result<Value, String> {
    path.iter()
        .try_fold(config, |value, key| value.get(key))
        .cloned()
        .ok_or_else(|| format!("its settings have no `{}`", path.join(".")))
}

/// The list at `path` in the configuration.
pub fn list(config: &Value, path: &[&str]) -> Result<Vec<Value>, String> {
    match field(config, path)? {
        Value::Array(items) => Ok(items),
        _ => Err(format!("its settings' `{}` is no list", path.join("."))),
    }
}

/// `count` seeds from `config.seed` on (trial `i` uses `seed + i`).
pub fn seeds(config: &Value) -> Result<Vec<Value>, String> {
    let number = |key: &str| {
        field(config, &[key])?
            .as_u64()
            .ok_or_else(|| format!("its settings' `{key}` is no whole number"))
    };
    let (seed, count) = (number("seed")?, number("trials")?);
    Ok((0..count).map(|i| seed.wrapping_add(i).into()).collect())
}

/// Every combination of the axes' values, the first axis outermost (the
/// order in which the sweeps list their trials).
pub fn grid(axes: &[(&str, Vec<Value>)]) -> Vec<Planned> {
    axes.iter()
        .fold(vec![Planned::new()], |rows, (name, values)| {
            rows.iter()
                .flat_map(|row| {
                    values.iter().map(move |value| {
                        let mut row = row.clone();
                        row.insert(name.to_string(), value.clone());
                        row
                    })
                })
                .collect()
        })
}

/// The first field in which `row` (serialized) differs from `planned`,
/// with its value in the row.
pub fn contradiction<'a>(row: &Value, planned: &'a Planned) -> Option<(&'a str, &'a Value, Value)> {
    planned.iter().find_map(|(name, value)| {
        let found = row.get(name).cloned().unwrap_or(Value::Null);
        (found != *value).then_some((name.as_str(), value, found))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_grid_lists_the_first_axis_outermost() {
        let rows = grid(&[
            ("variant", vec![json!("a"), json!("b")]),
            ("seed", vec![json!(1), json!(2), json!(3)]),
        ]);
        let pairs: Vec<(&Value, &Value)> =
            rows.iter().map(|r| (&r["variant"], &r["seed"])).collect();
        assert_eq!(pairs.len(), 6);
        assert_eq!(pairs[1], (&json!("a"), &json!(2)));
        assert_eq!(pairs[3], (&json!("b"), &json!(1)));
        let config = json!({"seed": 7, "trials": 2});
        assert_eq!(seeds(&config), Ok(vec![json!(7), json!(8)]));
        assert!(seeds(&json!({"seed": 7})).is_err());
        let row = json!({"variant": "b", "seed": 9, "accuracy": 1.0});
        assert_eq!(
            contradiction(&row, &rows[3]),
            Some(("seed", &json!(1), json!(9)))
        );
        assert_eq!(
            contradiction(&row, &grid(&[("variant", vec![json!("b")])])[0]),
            None
        );
    }
}
