fn main() {
    // Differentiate what ad.toml names, compile it with the Fortran sources into a static
    // library, and write safe Rust bindings for `src/main.rs` to include.
    adgen::Build::new()
        .manifest("ad.toml")
        .bindings(true)
        .compile();
}
