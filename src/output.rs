//! Writing an output directory: atomic, write-if-changed, with `adgen-outputs.txt`.
