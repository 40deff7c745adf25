//! Running gfortran/gcc and the programs they build, with timeouts and captured output.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Flags for code adgen generated: it must compile without a single warning.
pub const GENERATED_FFLAGS: &[&str] = &["-O0", "-g", "-fcheck=all", "-Wall", "-Werror"];
/// Flags for the user's own sources and their round-tripped form.
pub const ORIGINAL_FFLAGS: &[&str] = &["-O0", "-g", "-fcheck=all"];
/// Flags for the user's sources and the generated ones under `adgen validate`: as the
/// user's build compiles them, without the corpus's run-time checks, which legacy code
/// declaring `C(1)` for an array of any size fails (`fflags` can add them).
pub const USER_FFLAGS: &[&str] = &["-O0", "-g"];
/// Flags for the drivers the harness writes.
pub const DRIVER_FFLAGS: &[&str] = &["-O0", "-g", "-fcheck=all", "-ffree-line-length-none"];
/// Flags for the runtime and any generated C: warning-free as well.
pub const CFLAGS: &[&str] = &["-std=c99", "-O0", "-g", "-Wall", "-Wextra", "-Werror"];
/// Flags for C sources whose warnings are not failures (the user's, C drivers).
pub const CFLAGS_LENIENT: &[&str] = &["-std=c99", "-O0", "-g"];

/// Flags added to every C compile and to the link of a case checked with sanitizers.
pub const SANITIZE: &[&str] = &["-fsanitize=address,undefined", "-fno-omit-frame-pointer"];

/// gfortran's flag for the fixed-form line length a manifest gives (`usize::MAX`:
/// `"none"`).
pub fn fixed_line_length_flag(length: Option<usize>) -> Option<String> {
    match length? {
        usize::MAX => Some("-ffixed-line-length-none".to_string()),
        n => Some(format!("-ffixed-line-length-{n}")),
    }
}

/// gfortran's flags for a manifest's preprocessing: `-cpp` and a `-D` per define (none
/// when it asks for none).
pub fn cpp_flags(p: &crate::request::Preprocessor) -> Vec<String> {
    if !p.all && p.defines.is_empty() {
        return Vec::new();
    }
    std::iter::once("-cpp".to_string())
        .chain(p.defines.iter().map(|d| format!("-D{d}")))
        .collect()
}

/// What a finished command did.
#[derive(Debug)]
pub struct Outcome {
    pub success: bool,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
    pub command: String,
}

impl Outcome {
    /// Command line and output, for a failure report.
    pub fn report(&self) -> String {
        let mut s = format!("$ {}\n", self.command);
        if self.timed_out {
            s.push_str("(timed out)\n");
        }
        for text in [&self.stdout, &self.stderr] {
            let t = text.trim_end();
            if !t.is_empty() {
                // Keep reports readable: the end of long outputs is what matters.
                let tail: Vec<&str> = t.lines().collect();
                let start = tail.len().saturating_sub(60);
                if start > 0 {
                    s.push_str("...\n");
                }
                s.push_str(&tail[start..].join("\n"));
                s.push('\n');
            }
        }
        s
    }
}

/// Runs `program args` in `dir`, killing it after `timeout`. Output goes through files so
/// that a chatty program cannot block on a full pipe.
pub fn run(program: &Path, args: &[String], dir: &Path, timeout: Duration) -> Outcome {
    let command = std::iter::once(program.display().to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let stem = format!(
        "{}.{}",
        program
            .file_name()
            .map(|f| f.to_string_lossy().to_string())
            .unwrap_or_default(),
        std::process::id()
    );
    let out_path = dir.join(format!(".{stem}.{}.out", unique()));
    let err_path = dir.join(format!(".{stem}.{}.err", unique()));
    let fail = |msg: String| Outcome {
        success: false,
        timed_out: false,
        stdout: String::new(),
        stderr: msg,
        command: command.clone(),
    };
    let (out_file, err_file) = match (
        std::fs::File::create(&out_path),
        std::fs::File::create(&err_path),
    ) {
        (Ok(o), Ok(e)) => (o, e),
        _ => return fail(format!("cannot create output files in {}", dir.display())),
    };
    let child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out_file)
        .stderr(err_file)
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot start {}: {e}", program.display())),
    };
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                timed_out = true;
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let _ = std::fs::remove_file(&out_path);
    let _ = std::fs::remove_file(&err_path);
    Outcome {
        success: status.is_some_and(|s| s.success()),
        timed_out,
        stdout,
        stderr,
        command,
    }
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

const COMPILE_TIMEOUT: Duration = Duration::from_secs(300);

/// The Fortran compiler (`FC`, default `gfortran`).
pub fn fc() -> PathBuf {
    PathBuf::from(std::env::var("FC").unwrap_or_else(|_| "gfortran".to_string()))
}

/// The C compiler (`CC`, default `gcc`).
pub fn cc() -> PathBuf {
    PathBuf::from(std::env::var("CC").unwrap_or_else(|_| "gcc".to_string()))
}

/// Whether a path names a Fortran source the harness compiles.
pub fn is_fortran(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".f90", ".f95", ".f03", ".f08", ".f", ".for"]
        .iter()
        .any(|e| lower.ends_with(e))
}

pub fn is_c(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".c")
}

/// Compiles one source to `obj`; `.mod` files go to `mod_dir`.
pub fn compile(src: &Path, obj: &Path, mod_dir: &Path, flags: &[&str]) -> Outcome {
    let src_name = src.display().to_string();
    let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
    let compiler = if is_c(&src_name) {
        args.push(format!("-I{}", mod_dir.display()));
        cc()
    } else {
        args.push(format!("-J{}", mod_dir.display()));
        args.push(format!("-I{}", mod_dir.display()));
        fc()
    };
    args.extend([
        "-c".to_string(),
        src_name,
        "-o".to_string(),
        obj.display().to_string(),
    ]);
    run(&compiler, &args, mod_dir, COMPILE_TIMEOUT)
}

/// Links objects into an executable with the Fortran compiler.
pub fn link(objects: &[PathBuf], exe: &Path, dir: &Path, extra: &[&str]) -> Outcome {
    let mut args: Vec<String> = objects.iter().map(|o| o.display().to_string()).collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend([
        "-o".to_string(),
        exe.display().to_string(),
        "-lm".to_string(),
    ]);
    run(&fc(), &args, dir, COMPILE_TIMEOUT)
}
