//! Writing an output directory: atomic, write-if-changed, with `adgen-outputs.txt`.
//!
//! Every file is first written into a fresh temporary directory next to the output
//! directory (same file system), so that a failure while writing leaves the output
//! directory as it was. Then:
//! - if the output directory does not exist, the temporary tree is renamed into place in
//!   one step;
//! - otherwise each file is renamed over its old version, except files whose content is
//!   unchanged, which are left alone (their modification time is kept, so build systems
//!   do not recompile them). `adgen-outputs.txt` is moved last.
//!
//! Files in the output directory that this run did not generate are left alone: the
//! directory may be shared with other files (Tapenade's `-O .`).

use std::io;
use std::path::{Component, Path, PathBuf};

use crate::Generated;

/// Name of the list of files to compile, relative to the output directory.
pub const OUTPUTS_LIST: &str = "adgen-outputs.txt";

/// Extensions of the files listed in [`OUTPUTS_LIST`]: everything a compiler takes (the
/// derivatives of a Fortran source keep its free-form extension, `back::files`).
pub const COMPILED_EXTENSIONS: [&str; 7] = ["c", "f90", "f95", "f03", "f08", "f", "F90"];

/// True when `path` names a file to compile (C or Fortran).
pub fn is_compiled(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| COMPILED_EXTENSIONS.contains(&ext))
}

/// The text of `adgen-outputs.txt`: every file to compile, in `generated.files` order.
pub fn outputs_list(generated: &Generated) -> String {
    generated
        .files
        .iter()
        .filter(|f| is_compiled(&f.path))
        .map(|f| format!("{}\n", f.path))
        .collect()
}

/// What [`write_outputs`] did: the paths (relative to the output directory, in
/// `generated.files` order, [`OUTPUTS_LIST`] last) it wrote and those it left unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteReport {
    pub written: Vec<String>,
    pub unchanged: Vec<String>,
}

/// Writes every generated file under `dir`, plus [`OUTPUTS_LIST`], atomically and
/// only where the content changed.
pub fn write_outputs(dir: &Path, generated: &Generated) -> io::Result<WriteReport> {
    let mut files: Vec<(&str, &[u8])> = Vec::new();
    for file in &generated.files {
        check_relative(&file.path)?;
        if file.path == OUTPUTS_LIST {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a generated file may not be named `{OUTPUTS_LIST}`"),
            ));
        }
        if files.iter().any(|(p, _)| *p == file.path) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("two generated files are named `{}`", file.path),
            ));
        }
        files.push((&file.path, file.contents.as_bytes()));
    }
    let list = outputs_list(generated);
    files.push((OUTPUTS_LIST, list.as_bytes()));

    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)?;
    let staging = tempfile::Builder::new()
        .prefix(".adgen-tmp-")
        .tempdir_in(&parent)?;
    // A plain subdirectory gets the usual permissions (the temporary one is private).
    let tree = staging.path().join("out");
    std::fs::create_dir(&tree)?;
    for (path, contents) in &files {
        let target = tree.join(path);
        if let Some(p) = target.parent() {
            std::fs::create_dir_all(p)?;
        }
        std::fs::write(&target, contents)?;
    }

    let mut report = WriteReport::default();
    if !dir.exists() {
        std::fs::rename(&tree, dir)?;
        report.written = files.iter().map(|(p, _)| p.to_string()).collect();
        return Ok(report);
    }
    if !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("`{}` exists and is not a directory", dir.display()),
        ));
    }
    for (path, contents) in &files {
        let target = dir.join(path);
        if std::fs::read(&target).is_ok_and(|old| old == *contents) {
            report.unchanged.push(path.to_string());
            continue;
        }
        if let Some(p) = target.parent() {
            std::fs::create_dir_all(p)?;
        }
        std::fs::rename(tree.join(path), &target)?;
        report.written.push(path.to_string());
    }
    Ok(report)
}

/// A generated path must stay inside the output directory.
fn check_relative(path: &str) -> io::Result<()> {
    let p = Path::new(path);
    let inside = !path.is_empty()
        && p.components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if inside {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("generated path `{path}` is not relative to the output directory"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GeneratedFile;

    fn generated(files: &[(&str, &str)]) -> Generated {
        Generated {
            files: files
                .iter()
                .map(|(p, c)| GeneratedFile {
                    path: p.to_string(),
                    contents: c.to_string(),
                })
                .collect(),
            warnings: String::new(),
            signatures: Vec::new(),
        }
    }

    fn read(dir: &Path, path: &str) -> String {
        std::fs::read_to_string(dir.join(path)).unwrap()
    }

    fn mtime(dir: &Path, path: &str) -> std::time::SystemTime {
        std::fs::metadata(dir.join(path))
            .unwrap()
            .modified()
            .unwrap()
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_files_and_list_in_order() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("a/b/out");
        let g = generated(&[
            ("adgen_runtime.h", "h"),
            ("adgen_runtime.c", "c"),
            ("sub/heat_d.f90", "d"),
            ("heat_b.f90", "b"),
            ("notes.txt", "n"),
            ("old.f", "f"),
        ]);
        write_outputs(&out, &g).unwrap();
        assert_eq!(
            read(&out, OUTPUTS_LIST),
            "adgen_runtime.c\nsub/heat_d.f90\nheat_b.f90\nold.f\n"
        );
        assert_eq!(read(&out, "sub/heat_d.f90"), "d");
        assert_eq!(read(&out, "notes.txt"), "n");
        // No temporary directory is left behind.
        assert_eq!(entries(&root.path().join("a/b")), ["out"]);
    }

    #[test]
    fn unchanged_files_keep_their_mtime() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        write_outputs(&out, &generated(&[("a.f90", "1"), ("b.f90", "2")])).unwrap();
        let before_a = mtime(&out, "a.f90");
        let before_b = mtime(&out, "b.f90");
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(out.join("mine.txt"), "user file").unwrap();
        let report = write_outputs(&out, &generated(&[("a.f90", "1"), ("b.f90", "3")])).unwrap();
        assert_eq!(report.written, ["b.f90"]);
        assert_eq!(report.unchanged, ["a.f90", OUTPUTS_LIST]);
        assert_eq!(mtime(&out, "a.f90"), before_a);
        assert_ne!(mtime(&out, "b.f90"), before_b);
        assert_eq!(read(&out, "b.f90"), "3");
        assert_eq!(read(&out, "mine.txt"), "user file");
        assert_eq!(entries(root.path()), ["out"]);
    }

    #[test]
    fn bad_paths_leave_the_directory_untouched() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        for bad in ["../x.f90", "/abs.f90", "", OUTPUTS_LIST] {
            let err = write_outputs(&out, &generated(&[("a.f90", "1"), (bad, "2")]));
            assert!(err.is_err(), "{bad:?} accepted");
        }
        assert!(write_outputs(&out, &generated(&[("a.f90", "1"), ("a.f90", "2")])).is_err());
        assert!(!out.exists());
        assert!(entries(root.path()).is_empty());
    }

    #[test]
    fn deterministic() {
        let g = generated(&[("x/y.f90", "y"), ("z.c", "z")]);
        let one = tempfile::tempdir().unwrap();
        let two = tempfile::tempdir().unwrap();
        write_outputs(&one.path().join("o"), &g).unwrap();
        write_outputs(&two.path().join("o"), &g).unwrap();
        for p in ["x/y.f90", "z.c", OUTPUTS_LIST] {
            assert_eq!(
                read(&one.path().join("o"), p),
                read(&two.path().join("o"), p)
            );
        }
    }

    /// The derivatives of a `.f03` source are `.f03` files, and are compiled: listed
    /// (they were left out, and CMake's add_ad_library did not build them).
    #[test]
    fn every_fortran_extension_is_listed() {
        let g = generated(&[
            ("p_d.f03", "d"),
            ("q_b.f08", "b"),
            ("r.f95", "r"),
            ("notes.txt", "n"),
        ]);
        assert_eq!(outputs_list(&g), "p_d.f03\nq_b.f08\nr.f95\n");
    }
}
