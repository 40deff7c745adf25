//! One `[[root]]` table checked: its name or head, its modes, and its independents and
//! dependents; whether the sources define it and what it reads and writes is checked
//! against the parsed program afterwards.

use super::*;

impl<'a> Checker<'a> {
    pub(super) fn modes(
        &mut self,
        modes: &Spanned<Vec<Spanned<String>>>,
        key: &str,
    ) -> BTreeSet<Mode> {
        let mut set = BTreeSet::new();
        if modes.get_ref().is_empty() {
            self.error(E_EMPTY, modes.span(), format!("`{key}` is empty"))
                .help = Some("list at least one of `tangent`, `adjoint`".into());
        }
        for name in modes.get_ref() {
            match parse_mode(name.get_ref()) {
                Ok(m) => {
                    set.insert(m);
                }
                Err((code, message)) => {
                    let help = if code == E_UNKNOWN_MODE {
                        suggestion_help(name.get_ref(), &MODE_NAMES)
                    } else {
                        "use `tangent` or `adjoint` for now".into()
                    };
                    self.error(code, name.span(), format!("`{key}`: {message}"))
                        .help = Some(help);
                }
            }
        }
        set
    }

    pub(super) fn root(
        &mut self,
        raw: RawRoot,
        invalid: &BTreeSet<String>,
        table_span: Range<usize>,
        index: usize,
        default_modes: &BTreeSet<Mode>,
    ) -> Option<RootRequest> {
        let ordinal = index + 1;
        let modes = match &raw.modes {
            Some(m) => self.modes(m, "root.modes"),
            None => default_modes.clone(),
        };
        let (name, span, mut dependents, mut independents) = match (&raw.name, &raw.head) {
            (Some(_), Some(head)) => {
                self.error(
                    E_ROOT_NAME,
                    head.span(),
                    format!("root #{ordinal} has both `name` and `head`"),
                )
                .help = Some("keep one of them".into());
                return None;
            }
            (None, None) if invalid.contains("name") || invalid.contains("head") => return None,
            (None, None) => {
                self.error(
                    E_ROOT_NAME,
                    table_span,
                    format!("root #{ordinal} has neither `name` nor `head`"),
                )
                .help =
                    Some("add `name = \"procedure\"` or `head = \"f(outputs)/(inputs)\"`".into());
                return None;
            }
            (Some(name), None) => {
                if let Err(e) = check_identifier(name.get_ref()) {
                    self.error(E_BAD_NAME, name.span(), format!("root name {e}"));
                    return None;
                }
                (name.get_ref().clone(), name.span(), Vec::new(), Vec::new())
            }
            (None, Some(head)) => match parse_head(head.get_ref()) {
                Ok(h) => (h.name, head.span(), h.dependents, h.independents),
                Err(e) => {
                    self.error(
                        E_BAD_HEAD,
                        head.span(),
                        format!("invalid `head` `{}`: {e}", head.get_ref()),
                    );
                    return None;
                }
            },
        };
        let mut ok = true;
        let mut entry_origins = Vec::new();
        for (key, list, from_head) in [
            ("independents", &raw.independents, &mut independents),
            ("dependents", &raw.dependents, &mut dependents),
        ] {
            match list {
                Some(list) if !from_head.is_empty() => {
                    self.error(
                        E_ROOT_NAME,
                        list.span(),
                        format!("root `{name}` gives its {key} both in `head` and in `{key}`"),
                    )
                    .help = Some("keep one of them".into());
                    ok = false;
                }
                Some(list) => {
                    if list.get_ref().is_empty() {
                        self.error(
                            E_EMPTY,
                            list.span(),
                            format!("root `{name}`: `{key}` is empty"),
                        );
                        ok = false;
                    }
                    for v in list.get_ref() {
                        if let Err(e) = check_variable(v.get_ref()) {
                            self.error(
                                E_BAD_NAME,
                                v.span(),
                                format!("root `{name}`: `{key}`: {e}"),
                            );
                            ok = false;
                        }
                        from_head.push(v.get_ref().clone());
                        let (line, col) = self.file.line_col(v.span().start as u32);
                        entry_origins.push((
                            key == "dependents",
                            v.get_ref().clone(),
                            (self.file.display_path.clone(), line, col),
                        ));
                    }
                }
                None if invalid.contains(key) => ok = false,
                None if from_head.is_empty() => {
                    self.error(
                        E_MISSING,
                        span.clone(),
                        format!("root `{name}` has no `{key}`"),
                    )
                    .help = Some(format!(
                        "add `{key} = [...]`, or give them in `head = \"{name}(outputs)/(inputs)\"`"
                    ));
                    ok = false;
                }
                None => {}
            }
        }
        let (line, col) = self.file.line_col(span.start as u32);
        ok.then(|| RootRequest {
            name,
            independents,
            dependents,
            modes,
            origin: Some((self.file.display_path.clone(), line, col)),
            entry_origins,
        })
    }
}
