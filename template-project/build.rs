fn main() {
    adgen::Build::new().manifest("ad.toml").compile();
}
