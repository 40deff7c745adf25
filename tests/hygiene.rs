//! The repository itself: no merge left half done.

#[test]
fn no_conflict_markers_in_tracked_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("git")
        .args(["ls-files"])
        .current_dir(root)
        .output();
    let Ok(out) = out else { return }; // not a git checkout (e.g. a packaged crate)
    let mut bad = Vec::new();
    for path in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(text) = std::fs::read_to_string(root.join(path)) else {
            continue;
        };
        if text
            .lines()
            .any(|l| l.starts_with("<<<<<<< ") || l.starts_with(">>>>>>> ") || l == "=======")
        {
            bad.push(path.to_string());
        }
    }
    assert!(bad.is_empty(), "conflict markers in: {bad:?}");
}
