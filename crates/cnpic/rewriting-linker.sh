#!/bin/sh
# Written by crates/cnpic/build.rs as `ld.gold` for the cnpic binary's
# link alone: links with rustc's own lld, then writes the binary again
# with `cp`, so that the page cache holds it as a file written by `write`
# rather than through lld's shared mapping (see build.rs).
'{lld}' "$@" || exit
output=
while [ $# -gt 0 ]; do
    if [ "$1" = -o ] && [ $# -gt 1 ]; then
        output=$2
    fi
    shift
done
if [ -n "$output" ]; then
    cp -- "$output" "$output.written" && mv -f -- "$output.written" "$output"
fi
