#!/usr/bin/env bash
# Benchmark of the heat_explicit corpus program (DESIGN.md §8): builds the original,
# tangent and adjoint with gfortran -O2, times repeated calls (median of several runs,
# each at least 0.2 s long) and prints R_t = T_tangent/T_original,
# R_a = T_adjoint/T_original and the adjoint's tape peak (adgen_tape_peak_bytes()).
#
# Usage:
#   build-support/bench/run.sh [--generated DIR] [N [NSTEPS [SAMPLES]]]
#
# Without --generated, the derivatives are produced by `adgen diff` (built with
# `cargo build --release`). With --generated DIR, DIR must hold adgen's output
# (generated sources, runtime and adgen-outputs.txt), e.g. from tests/bench.rs.
# FC, CC, FFLAGS and CFLAGS override the compilers and the -O2 default.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
case_dir="$repo/tests/corpus/fortran/heat_explicit"
FC="${FC:-gfortran}"
CC="${CC:-gcc}"
FFLAGS="${FFLAGS:--O2}"
CFLAGS="${CFLAGS:--O2}"

generated=""
if [[ "${1:-}" == "--generated" ]]; then
  generated="$(cd "$2" && pwd)"
  shift 2
fi
n="${1:-100}"
nsteps="${2:-1000}"
samples="${3:-7}"

work="$(mktemp -d "${TMPDIR:-/tmp}/adgen-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [[ -z "$generated" ]]; then
  (cd "$repo" && cargo build --release --quiet --bin adgen)
  generated="$work/gen"
  "$repo/target/release/adgen" diff --manifest "$case_dir/ad.toml" --out-dir "$generated"
fi
if [[ ! -f "$generated/adgen-outputs.txt" ]]; then
  echo "run.sh: $generated has no adgen-outputs.txt" >&2
  exit 1
fi

objects=()
compile() { # source object
  case "$1" in
    *.c) "$CC" $CFLAGS -I"$work" -I"$generated" -c "$1" -o "$2" ;;
    *) "$FC" $FFLAGS -J"$work" -I"$work" -c "$1" -o "$2" ;;
  esac
  objects+=("$2")
}
for src in "$case_dir"/*.f90; do
  compile "$src" "$work/orig_$(basename "${src%.*}").o"
done
while IFS= read -r rel; do
  [[ -z "$rel" ]] && continue
  case "$rel" in
    *.f90|*.F90|*.f|*.c) compile "$generated/$rel" "$work/gen_$(echo "$rel" | tr '/' '_').o" ;;
  esac
done < "$generated/adgen-outputs.txt"
compile "$here/heat_bench.f90" "$work/heat_bench.o"
"$FC" $FFLAGS "${objects[@]}" -o "$work/heat_bench"
"$work/heat_bench" "$n" "$nsteps" "$samples"
