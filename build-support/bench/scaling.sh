#!/bin/sh
# Scaling benchmark of `adgen diff` (issue 16): time and peak memory against the length of
# one expression, the number of statements in one procedure, the number of procedures and
# the number of files, in both modes. Prints one table row per size; linear growth shows
# as a constant time per unit in the last column.
#
#   cargo build --release && sh build-support/bench/scaling.sh [path/to/adgen]
#
# Needs /usr/bin/time (Debian package `time`) for the memory column.
set -eu
ADGEN=${1:-target/release/adgen}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

measure() { # label size unit-name
    cd "$WORK"
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%e %M' -o stats "$OLDPWD/$ADGEN" diff --manifest ad.toml \
            --out-dir out --modes tangent,adjoint >/dev/null 2>err || { cat err; exit 1; }
        read -r secs kb <stats
    else
        start=$(date +%s.%N)
        "$OLDPWD/$ADGEN" diff --manifest ad.toml --out-dir out --modes tangent,adjoint \
            >/dev/null 2>err || { cat err; exit 1; }
        secs=$(echo "$(date +%s.%N) - $start" | bc)
        kb=0
    fi
    cd "$OLDPWD"
    awk -v l="$1" -v n="$2" -v u="$3" -v s="$secs" -v k="$kb" 'BEGIN {
        printf "%-22s %8d %10.3f %9.1f %12.2f\n", l, n, s, k / 1024, 1e6 * s / n }'
}

manifest() { # root
    printf 'sources = ["m.f90"]\n[[root]]\nname = "%s"\nindependents = ["x"]\ndependents = ["y"]\n' \
        "$1" >"$WORK/ad.toml"
}

printf '%-22s %8s %10s %9s %12s\n' "input" "size" "seconds" "peak MB" "us per unit"

# One expression of N terms.
manifest f
for n in 10 100 1000 10000; do
    awk -v n="$n" 'BEGIN {
        print "subroutine f(x, y)"; print "  real(8), intent(in) :: x"
        print "  real(8), intent(out) :: y"; printf "  y = x"
        for (i = 0; i < n; i++) printf " + %d.5d0*sin(x*%d.0d0)", i % 97, i % 7
        print ""; print "end subroutine f" }' >"$WORK/m.f90"
    measure "terms in one expression" "$n" term
done

# One procedure of N statements.
for n in 100 1000 10000 100000; do
    awk -v n="$n" 'BEGIN {
        print "subroutine f(x, y)"; print "  real(8), intent(in) :: x"
        print "  real(8), intent(out) :: y"; print "  real(8) :: t"; print "  t = x"
        for (i = 0; i < n; i++) printf "  t = t*0.999d0 + sin(t)*%d.0d-3\n", i % 13
        print "  y = t"; print "end subroutine f" }' >"$WORK/m.f90"
    measure "statements in one unit" "$n" statement
done

# N procedures, each calling the next (a call chain N deep).
manifest p0
for n in 10 100 1000 10000; do
    awk -v n="$n" 'BEGIN {
        for (i = 0; i < n; i++) {
            printf "subroutine p%d(x, y)\n  real(8), intent(in) :: x\n", i
            print "  real(8), intent(out) :: y"
            if (i + 1 < n) printf "  call p%d(x*1.01d0, y)\n  y = sin(y)\n", i + 1
            else print "  y = x*x"
            printf "end subroutine p%d\n", i
        } }' >"$WORK/m.f90"
    measure "procedures" "$n" procedure
done

# N files of 100 lines, each a procedure of 93 statements (and 7 lines of header,
# declarations, call and end) that calls the next file's; every other procedure is a root
# (N = 1,000: 100,000 lines, 500 roots).
for n in 10 100 1000; do
    rm -f "$WORK"/f*.f90
    awk -v n="$n" -v dir="$WORK" 'BEGIN {
        for (i = 0; i < n; i++) {
            f = sprintf("%s/f%d.f90", dir, i)
            printf "subroutine q%d(x, y)\n  real(8), intent(in) :: x\n", i > f
            print "  real(8), intent(out) :: y" > f
            print "  real(8) :: t" > f
            print "  t = x" > f
            for (k = 0; k < 93; k++) printf "  t = t*0.999d0 + sin(t)*%d.0d-3\n", k % 13 > f
            if (i + 1 < n) printf "  call q%d(t, y)\n", i + 1 > f
            else print "  y = t" > f
            printf "end subroutine q%d\n", i > f
            close(f)
        } }'
    {
        printf 'sources = ["f*.f90"]\n'
        i=0
        while [ "$i" -lt "$n" ]; do
            printf '[[root]]\nname = "q%d"\nindependents = ["x"]\ndependents = ["y"]\n' "$i"
            i=$((i + 2))
        done
    } >"$WORK/ad.toml"
    measure "files (half roots)" "$((n * 100))" line
done
