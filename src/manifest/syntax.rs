//! Where a TOML syntax error comes from, for one error at its cause.

/// The offset of an array's `[` that is still open where the parser failed (at
/// `error_at`), on an earlier line: the usual cause of a cascade of syntax errors.
pub(super) fn unclosed_array(text: &str, error_at: usize) -> Option<usize> {
    let mut open: Vec<usize> = Vec::new();
    let mut in_string: Option<char> = None;
    let mut line_start = true;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if i >= error_at {
            break;
        }
        if let Some(q) = in_string {
            if c == '\\' && q == '"' {
                chars.next();
            } else if c == q {
                in_string = None;
            }
            if c == '\n' {
                line_start = true;
            }
            continue;
        }
        match c {
            '"' | '\'' => in_string = Some(c),
            '#' => {
                // A comment: to the end of the line.
                while chars.peek().is_some_and(|(_, c)| *c != '\n') {
                    chars.next();
                }
            }
            // A table header `[x]` / `[[x]]` at the start of a line is not an array.
            '[' if line_start && open.is_empty() => {
                while chars.peek().is_some_and(|(_, c)| *c != '\n') {
                    chars.next();
                }
            }
            '[' => open.push(i),
            ']' => {
                open.pop();
            }
            _ => {}
        }
        if c == '\n' {
            line_start = true;
        } else if !c.is_whitespace() {
            line_start = false;
        }
    }
    let first = *open.first()?;
    // Only when the failure is on a later line than the `[`.
    text[first..error_at].contains('\n').then_some(first)
}
