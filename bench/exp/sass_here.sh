#!/usr/bin/env bash
# Static SASS of device code built here, without a GPU: cuobjdump and the
# nvdisasm it runs, from the nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm
# wheels on PyPI (the toolkit here has nvcc and ptxas only), for counting what
# a kernel's loop issues before spending device time.
#
#   bash bench/exp/sass_here.sh OBJECT [MANGLED_FUNCTION] > out.sass
#
# OBJECT: a .o or executable with sm_90 code (e.g. from nvcc -c with the
# build's flags: see the ptxas line in bench/NOTES-tile3d.md); without a
# function, every kernel.  The tool is unpacked once into /tmp/lw-cuobjdump.
set -euo pipefail
obj=${1:?usage: sass_here.sh OBJECT [MANGLED_FUNCTION]}
T=/tmp/lw-cuobjdump
if [ ! -x "$T/bin/cuobjdump" ]; then
    d=$(mktemp -d)
    pip download --quiet --no-deps -d "$d" nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
    mkdir -p "$T/bin"
    for w in "$d"/*.whl; do python3 -m zipfile -e "$w" "$d/x"; done
    for t in cuobjdump nvdisasm; do cp "$(find "$d/x" -type f -name $t)" "$T/bin/"; done
    chmod +x "$T/bin/cuobjdump" "$T/bin/nvdisasm"
    rm -rf "$d"
fi
export PATH="$T/bin:$PATH"
if [ $# -ge 2 ]; then "$T/bin/cuobjdump" -sass -fun "$2" "$obj"; else "$T/bin/cuobjdump" -sass "$obj"; fi
