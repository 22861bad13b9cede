#!/usr/bin/env bash
# Install the build into a temporary prefix and build examples/roundtrip_2d.c
# against it through pkg-config, statically and dynamically.
set -euo pipefail
build=$1 src=$2
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
pc=$(find "$tmp/prefix" -name liftwave.pc | head -1)
test -n "$pc" || { echo "liftwave.pc not installed"; exit 1; }
test -f "$tmp/prefix/include/liftwave.h" || { echo "header not installed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
cc=${CC:-cc}
# dynamic
$cc -o "$tmp/ex_dyn" "$src/examples/roundtrip_2d.c" $(pkg-config --cflags --libs liftwave) -lm \
    -Wl,-rpath,"$(pkg-config --variable=libdir liftwave)" $LW_EXTRA_LDFLAGS
"$tmp/ex_dyn"
# static
libdir=$(pkg-config --variable=libdir liftwave)
$cc -o "$tmp/ex_static" "$src/examples/roundtrip_2d.c" $(pkg-config --cflags liftwave) \
    "$libdir/libliftwave.a" $(pkg-config --static --libs-only-other --libs-only-L liftwave | sed 's/-lliftwave//') \
    $(pkg-config --static --libs liftwave | tr ' ' '\n' | grep -v -- '-lliftwave' | tr '\n' ' ') -lm $LW_EXTRA_LDFLAGS
"$tmp/ex_static"
echo "install + pkg-config: ok"
