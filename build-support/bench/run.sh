#!/usr/bin/env bash
# Benchmark of the heat_explicit corpus program (DESIGN.md §8): builds the original,
# tangent and adjoint with gfortran -O2, times repeated calls (median of several runs,
# each at least 0.2 s long) and prints R_t = T_tangent/T_original,
# R_a = T_adjoint/T_original and the adjoint's tape peak (adgen_tape_peak_bytes()).
#
# Usage:
#   build-support/bench/run.sh [--generated DIR] [--instructions] [--binomial SNAPS]
#                              [N [NSTEPS [SAMPLES]]]
#
# --binomial SNAPS differentiates the program with `!$AD BINOMIAL-CKP nsteps SNAPS`
# before its time loop (a copy; 0: the runtime chooses the snapshots): the adjoint then
# keeps one step's tape and SNAPS snapshots instead of every step's tape.
# --instructions also counts the instructions of one call of each under valgrind's
# callgrind (minus those of a run that makes no call) and prints their ratios, I_t and
# I_a: exact and repeatable whatever else the machine runs, unlike times.
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
instructions=""
binomial=""
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --generated) generated="$(cd "$2" && pwd)"; shift 2 ;;
    --instructions) instructions=1; shift ;;
    --binomial) binomial="$2"; shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 1 ;;
  esac
done
n="${1:-100}"
nsteps="${2:-1000}"
samples="${3:-7}"

work="$(mktemp -d "${TMPDIR:-/tmp}/adgen-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [[ -n "$binomial" ]]; then
  mkdir "$work/case"
  cp "$case_dir"/* "$work/case/"
  sed -i "s/^  do step = 1, nsteps$/  !\$AD BINOMIAL-CKP nsteps $binomial\n&/" "$work/case/heat.f90"
  grep -q 'BINOMIAL-CKP' "$work/case/heat.f90" || { echo "run.sh: no time loop found" >&2; exit 1; }
  case_dir="$work/case"
fi
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

if [[ -n "$instructions" ]]; then
  if ! command -v valgrind >/dev/null 2>&1; then
    echo "run.sh: --instructions needs valgrind" >&2
    exit 1
  fi
  count() { # mode -> instructions executed by the whole run
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1" \
      "$work/heat_bench" "$n" "$nsteps" 1 "$1" 2>&1 >/dev/null \
      | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
  }
  base="$(count 0)"
  i_orig=$(( $(count 1) - base ))
  i_tan=$(( $(count 2) - base ))
  i_adj=$(( $(count 3) - base ))
  echo "I_original = $i_orig instructions"
  echo "I_tangent  = $i_tan instructions"
  echo "I_adjoint  = $i_adj instructions"
  awk -v o="$i_orig" -v t="$i_tan" -v a="$i_adj" \
    'BEGIN { printf "I_t = %8.3f\nI_a = %8.3f\n", t / o, a / o }'
fi
