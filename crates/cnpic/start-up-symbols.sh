#!/bin/sh
# Regenerates crates/cnpic/start-up-symbols.txt: the functions a small
# `cnpic run` executes (a one-element insertion sort, on the network and
# with --symbolic), in the order callgrind first meets them, each once.
# crates/cnpic/build.rs has lld lay them out first and together in the
# binary's code (see the list's header). Run from the repository's root
# after `cargo build --release -p cnpic`, with valgrind installed:
#
#   sh crates/cnpic/start-up-symbols.sh [BINARY]
#
# then rebuild. `sh crates/cnpic/start-up-symbols.sh --check [BINARY]`
# prints how many of the names the binary has, exactly as lld needs them,
# and fails under 80 %: a linker name's hash changes with its crate's build
# (a dependency added, a feature turned on), so `cargo build`'s binary is
# the one to check, not the one `cargo test` builds. `cargo test --release
# -p cnpic --test start_up_symbols` compares the names without their
# hashes (is each function still there) and fails under 80 % too.
set -eu
list=crates/cnpic/start-up-symbols.txt
if [ "${1:-}" = --check ]; then
    binary=${2:-${CARGO_TARGET_DIR:-target}/release/cnpic}
    nm "$binary" | awk '{ print $NF }' | sort -u >"${TMPDIR:-/tmp}/symbols.$$"
    grep -v '^#' "$list" | sort -u |
        comm -12 - "${TMPDIR:-/tmp}/symbols.$$" | wc -l | {
        read -r found
        rm -f "${TMPDIR:-/tmp}/symbols.$$"
        total=$(grep -c -v '^#' "$list")
        echo "$found of $total start-up symbols are in $binary"
        [ $((found * 100)) -ge $((total * 80)) ]
    }
    exit
fi
binary=${1:-${CARGO_TARGET_DIR:-target}/release/cnpic}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for engine in "" --symbolic; do
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/out$engine" \
        "$binary" run examples/clrs/insertion_sort.cnpi --input '{"A":[1]}' \
        --format json $engine >/dev/null 2>&1
done
sed -n '/^# /p' "$list" >"$work/header"
# `fn=(N) NAME` and `cfn=(N) NAME` name a function the first time; the
# name drops callgrind's `'N` recursion marks, and code without a symbol
# (named by its address) and `(below main)` are left out.
cat "$work"/out* | sed -n 's/^c\{0,1\}fn=([0-9]*) \(.*\)$/\1/p' |
    sed "s/'[0-9]*\$//" | grep -v -e '^0x' -e '^(' | awk '!seen[$0]++' >"$work/names"
cat "$work/header" "$work/names" >"$list"
echo "$(wc -l <"$work/names") names in $list"
