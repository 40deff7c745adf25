#!/usr/bin/env bash
# Writes what adgen generates for every corpus program (and the template project) into
# one directory, with the manifests as they are and with every optimization off, so that
# a refactoring that must not change the output can be checked:
#
#   build-support/snapshot/run.sh /tmp/before      # on the old commit
#   build-support/snapshot/run.sh /tmp/after       # on the new one
#   diff -r /tmp/before /tmp/after && echo "0 differ"
#
# Uses target/release/adgen (run `cargo build --release` first).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
adgen="$root/target/release/adgen"
out="${1:?usage: run.sh OUT_DIR}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

off='disable = ["activity", "diff-liveness", "tbr", "snapshot", "implicit-zero"]'
manifests=$(cd "$root" && ls tests/corpus/*/*/ad.toml template-project/ad.toml template-project/cmake/ad.toml 2>/dev/null)
count=0
for m in $manifests; do
    dir="$(dirname "$m")"
    name="${dir//\//_}"
    "$adgen" diff --manifest "$root/$m" --out-dir "$out/$name/on" 2>"$out/$name.on.stderr" || true
    # The same program with every optimization off: a copy whose manifest says so.
    cp -r "$root/$dir" "$work/$name"
    if grep -q '^\[options\]' "$work/$name/ad.toml"; then
        sed -i "s/^\[options\]/[options]\n$off/" "$work/$name/ad.toml"
    else
        printf '\n[options]\n%s\n' "$off" >>"$work/$name/ad.toml"
    fi
    "$adgen" diff --manifest "$work/$name/ad.toml" --out-dir "$out/$name/off" 2>"$out/$name.off.stderr" || true
    sed -i "s#$work#WORK#g; s#$root#ROOT#g" "$out/$name.off.stderr" "$out/$name.on.stderr"
    count=$((count + 1))
done
echo "$count manifests, $(find "$out" -type f | wc -l) files in $out"
