use std::collections::BTreeSet;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    // scratch <out_dir> <root> <indeps,> <deps,> files...
    let out = &args[1];
    let root = adgen::RootRequest {
        name: args[2].clone(),
        independents: args[3].split(',').map(String::from).collect(),
        dependents: args[4].split(',').map(String::from).collect(),
        modes: BTreeSet::from([adgen::Mode::Tangent, adgen::Mode::Adjoint]),
        origin: None,
        entry_origins: Vec::new(),
    };
    let inputs: Vec<adgen::SourceInput> = args[5..]
        .iter()
        .map(|p| adgen::SourceInput {
            path: std::path::Path::new(p)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into(),
            text: std::fs::read_to_string(p).unwrap(),
            dir: std::path::Path::new(p).parent().map(|d| d.to_path_buf()),
            include_dirs: Vec::new(),
            fixed_line_length: None,
            preprocessor: Default::default(),
        })
        .collect();
    let req = adgen::Request {
        roots: vec![root],
        sizes: Vec::new(),
        black_boxes: Vec::new(),
        checkpoint_calls: true,
        naming: Default::default(),
        layout: Default::default(),
        option_warnings: Vec::new(),
        disabled: Default::default(),
    };
    match adgen::differentiate(&inputs, &req) {
        Ok(g) => {
            std::fs::create_dir_all(out).unwrap();
            for f in g.files {
                std::fs::write(format!("{out}/{}", f.path), f.contents).unwrap();
            }
            eprint!("{}", g.warnings);
        }
        Err(e) => {
            eprintln!("{}", e.rendered);
            std::process::exit(1)
        }
    }
}
