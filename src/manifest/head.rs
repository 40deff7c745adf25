//! Tapenade's head strings, `name(outputs)/(inputs)`, as a root's alternative to its
//! `independents` and `dependents` lists.

use super::*;

/// A root given as Tapenade's head string `f(y1 y2)/(x1, x2)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    pub name: String,
    /// Outputs: the names in the first parentheses.
    pub dependents: Vec<String>,
    /// Inputs: the names in the second parentheses.
    pub independents: Vec<String>,
}

/// Parses a head string: `name`, or `name(outputs)/(inputs)`, names separated by spaces
/// or commas. A head without parentheses leaves both lists empty.
pub fn parse_head(head: &str) -> Result<Head, String> {
    let (parsed, rest) = parse_one_head(head)?;
    if !rest.trim().is_empty() {
        return Err(format!("unexpected text `{}` after the head", rest.trim()));
    }
    Ok(parsed)
}

/// Parses one or more heads separated by spaces, as Tapenade's `-head` accepts:
/// `"f(y)/(x) g(z)/(w)"`.
pub fn parse_heads(heads: &str) -> Result<Vec<Head>, String> {
    let mut rest = heads.trim();
    let mut parsed = Vec::new();
    while !rest.is_empty() {
        let (head, after) = parse_one_head(rest)?;
        parsed.push(head);
        rest = after.trim_start();
    }
    if parsed.is_empty() {
        return Err("the head is empty".into());
    }
    Ok(parsed)
}

/// Parses the head at the start of `text`; returns it and the text after it.
fn parse_one_head(text: &str) -> Result<(Head, &str), String> {
    let text = text.trim_start();
    let name_end = text
        .find(|c: char| c == '(' || c.is_whitespace())
        .unwrap_or(text.len());
    let name = &text[..name_end];
    check_identifier(name).map_err(|e| format!("procedure name {e}"))?;
    let rest = text[name_end..].trim_start();
    let Some(rest) = rest.strip_prefix('(') else {
        let head = Head {
            name: name.to_string(),
            dependents: Vec::new(),
            independents: Vec::new(),
        };
        return Ok((head, &text[name_end..]));
    };
    let expected = "expected `name(outputs)/(inputs)`";
    let close = rest
        .find(')')
        .ok_or(format!("missing `)` after the outputs; {expected}"))?;
    let outputs = &rest[..close];
    let rest = rest[close + 1..].trim_start();
    let rest = rest
        .strip_prefix('/')
        .ok_or(format!(
            "missing `/` between outputs and inputs; {expected}"
        ))?
        .trim_start();
    let rest = rest
        .strip_prefix('(')
        .ok_or(format!("missing `(` before the inputs; {expected}"))?;
    let close = rest
        .find(')')
        .ok_or(format!("missing `)` after the inputs; {expected}"))?;
    let inputs = &rest[..close];
    let split = |list: &str| -> Result<Vec<String>, String> {
        let names: Vec<String> = list
            .split([' ', ',', '\t'])
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        for n in &names {
            check_variable(n)?;
        }
        Ok(names)
    };
    let head = Head {
        name: name.to_string(),
        dependents: split(outputs)?,
        independents: split(inputs)?,
    };
    Ok((head, &rest[close + 1..]))
}
