#!/bin/sh
# test_install.sh — libmosaic as a program outside the tree gets it: `make
# install` into a temporary prefix (and staged with DESTDIR), then
# test/embed_example.c built with nothing but `pkg-config --cflags --libs
# mosaic` (dynamic) and `pkg-config --static ...` (static), both run; the
# versioned shared library's names and soname; mosaic.pc naming the prefix
# installed to; only mos_ symbols exported (libmosaic.so) or global
# (libmosaic.a); a program with its own arena_alloc links against either
# without a clash, and the library never calls it; mos_version() is the
# header's; `make uninstall` removes it all.  Fed by run.sh: BUILD CLI.
build=${1:-build}
make=${MAKE:-make}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0

ok()  { echo "PASS $1"; }
bad() { echo "FAIL $1: $2"; failed=1; }

# The version, from the header as the Makefile reads it.
ver() { sed -n "s/^#define MOS_VERSION_$1 *\([0-9][0-9]*\).*/\1/p" include/mosaic.h; }
major=$(ver MAJOR) minor=$(ver MINOR) patch=$(ver PATCH)
version=$major.$minor.$patch
if [ "$major" = 0 ]; then soversion=0.$minor; else soversion=$major; fi

# A make of this tree's Makefile, not the one run.sh may run inside.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$make" --no-print-directory BUILD="$build" "$@"; }

prefix=$tmp/prefix
if ! mk install PREFIX="$prefix" > "$tmp/install.log" 2>&1; then
    bad install "make install PREFIX=$prefix failed: $(tail -n 3 "$tmp/install.log")"
    exit 1
fi
ok install
lib=$prefix/lib

# ---- layout: the real file, its two links, the soname --------------------
why=""
[ -f "$lib/libmosaic.so.$version" ] && [ ! -L "$lib/libmosaic.so.$version" ] \
    || why="$why no file libmosaic.so.$version;"
for l in "libmosaic.so.$soversion" libmosaic.so; do
    [ "$(readlink "$lib/$l")" = "libmosaic.so.$version" ] || why="$why $l is not a link to libmosaic.so.$version;"
done
for f in lib/libmosaic.a include/mosaic.h lib/pkgconfig/mosaic.pc bin/mosaic bin/mosaic-view; do
    [ -f "$prefix/$f" ] || why="$why no $f;"
done
soname=$(readelf -d "$lib/libmosaic.so.$version" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
[ "$soname" = "libmosaic.so.$soversion" ] || why="$why soname is '$soname', not libmosaic.so.$soversion;"
if [ -z "$why" ]; then ok "install_layout (libmosaic.so.$version, soname $soname)"; else bad install_layout "$why"; fi

# ---- mosaic.pc: written for the prefix installed to ----------------------
PKG_CONFIG_PATH=$lib/pkgconfig
PKG_CONFIG_LIBDIR=$lib/pkgconfig   # this prefix's mosaic.pc, never a system one
export PKG_CONFIG_PATH PKG_CONFIG_LIBDIR
pcprefix=$(pkg-config --variable=prefix mosaic 2>&1)
pcver=$(pkg-config --modversion mosaic 2>&1)
if [ "$pcprefix" = "$prefix" ] && [ "$pcver" = "$version" ]; then
    ok "pc_prefix (prefix=$pcprefix, Version: $pcver)"
else
    bad pc_prefix "mosaic.pc says prefix '$pcprefix' version '$pcver', want '$prefix' '$version'"
fi
slibs=" $(pkg-config --static --libs mosaic) "
case $slibs in
    *" -pthread "*) case $slibs in *" -lm "*) ok pc_libs_private ;; *) bad pc_libs_private "no -lm in$slibs" ;; esac ;;
    *) bad pc_libs_private "no -pthread in$slibs" ;;
esac

# ---- exported symbols ------------------------------------------------------
napi=$(grep -c '^MOS_API ' include/mosaic.h)
# exports NAME WHAT: the defined global symbols listed in $tmp/NAME.txt are
# all mos_ and as many as the header's MOS_API declarations.
exports() {
    other=$(grep -v '^mos_' "$tmp/$1.txt" | head -n 5 | tr '\n' ' ')
    nmos=$(grep -c '^mos_' "$tmp/$1.txt")
    if [ -z "$other" ] && [ "$nmos" -eq "$napi" ]; then
        ok "exports_$1 ($2: $nmos symbols, all mos_, = the header's $napi MOS_API)"
    else
        bad "exports_$1" "$2 shows $nmos mos_ of $napi MOS_API, and others: $other"
    fi
}
nm -D --defined-only "$lib/libmosaic.so" | awk 'NF == 3 { print $3 }' | sort > "$tmp/so.txt"
exports so "nm -D libmosaic.so"
nm -g --defined-only "$lib/libmosaic.a" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/a.txt"
exports a "nm -g libmosaic.a"

# ---- the embedding example through pkg-config ------------------------------
# Dynamic: needs libmosaic.so.SOVERSION at run time, which install provided.
if cc -std=c11 -o "$tmp/embed_dyn" test/embed_example.c $(pkg-config --cflags --libs mosaic) 2> "$tmp/cc.log"; then
    needed=$(readelf -d "$tmp/embed_dyn" | sed -n 's/.*Shared library: \[\(libmosaic[^]]*\)\].*/\1/p')
    out=$(LD_LIBRARY_PATH=$lib "$tmp/embed_dyn" 2>&1)
    rc=$?
    loaded=$(LD_LIBRARY_PATH=$lib ldd "$tmp/embed_dyn" | sed -n 's/.*libmosaic[^ ]* => \([^ ]*\).*/\1/p')
    if [ $rc -eq 0 ] && [ "$needed" = "libmosaic.so.$soversion" ] && [ "$loaded" = "$lib/libmosaic.so.$soversion" ]; then
        ok "embed_dynamic (NEEDED $needed from $loaded: $out)"
    else
        bad embed_dynamic "rc $rc, NEEDED '$needed', loaded '$loaded': $out"
    fi
else
    bad embed_dynamic "cc \$(pkg-config --cflags --libs mosaic) failed: $(head -n 3 "$tmp/cc.log")"
fi
# Static: -static takes libmosaic.a; --static adds Libs.private.
if cc -std=c11 -static -o "$tmp/embed_static" test/embed_example.c $(pkg-config --static --cflags --libs mosaic) 2> "$tmp/cc.log"; then
    out=$("$tmp/embed_static" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && ! readelf -d "$tmp/embed_static" 2>/dev/null | grep -q 'libmosaic'; then
        ok "embed_static ($out)"
    else
        bad embed_static "rc $rc: $out"
    fi
else
    bad embed_static "cc -static \$(pkg-config --static --cflags --libs mosaic) failed: $(grep -v warning "$tmp/cc.log" | head -n 3)"
fi

# ---- a program with names of the library's internals ----------------------
# Its own arena_alloc, fifo_push and backend_run_bin (libmosaic's internal
# names, other signatures) beside the embedding example's frame: links
# statically without "multiple definition", and dynamically the library's
# calls stay inside it (the program's arena_alloc is never called).
cat > "$tmp/clash.c" << 'EOF'
#include <stdio.h>
#include <stdlib.h>
#include "mosaic.h"
int embed_main(void);
static int own_calls;
int arena_alloc(int x);
int arena_alloc(int x) { own_calls++; return x + 1; }
int fifo_push(void);
int fifo_push(void) { return 7; }
void backend_run_bin(void);
void backend_run_bin(void) { abort(); }
int main(void)
{
    if (arena_alloc(1) != 2 || fifo_push() != 7) return 2;
    int rc = embed_main();
    if (own_calls != 1) { printf("the library called the program's arena_alloc\n"); return 3; }
    if (mos_version() != MOS_VERSION) { printf("mos_version %#x, header %#x\n", (unsigned)mos_version(), (unsigned)MOS_VERSION); return 4; }
    printf("own arena_alloc called %d time(s); mos_version %#x\n", own_calls, (unsigned)mos_version());
    return rc;
}
EOF
{ echo '#define main embed_main'; cat test/embed_example.c; } > "$tmp/embed_lib.c"
for kind in static dynamic; do
    if [ $kind = static ]; then
        flags="-static $(pkg-config --static --cflags --libs mosaic)"
    else
        flags="$(pkg-config --cflags --libs mosaic)"
    fi
    if cc -std=c11 -o "$tmp/clash_$kind" "$tmp/clash.c" "$tmp/embed_lib.c" $flags 2> "$tmp/cc.log"; then
        out=$(LD_LIBRARY_PATH=$lib "$tmp/clash_$kind" 2>&1)
        rc=$?
        out=$(echo "$out" | tr '\n' ' ')
        if [ $rc -eq 0 ]; then ok "own_internal_names_$kind ($out)"; else bad "own_internal_names_$kind" "rc $rc: $out"; fi
    else
        bad "own_internal_names_$kind" "link failed: $(grep -v warning "$tmp/cc.log" | head -n 3 | tr '\n' ' ')"
    fi
done

# ---- DESTDIR stages, PREFIX is what mosaic.pc says -------------------------
stage=$tmp/stage
if mk install DESTDIR="$stage" PREFIX=/opt/mosaic > "$tmp/stage.log" 2>&1; then
    pcp=$(sed -n 's/^prefix=//p' "$stage/opt/mosaic/lib/pkgconfig/mosaic.pc" 2>/dev/null)
    if [ -f "$stage/opt/mosaic/lib/libmosaic.so.$version" ] && [ "$pcp" = /opt/mosaic ]; then
        ok "install_destdir (staged under DESTDIR, mosaic.pc prefix=$pcp)"
    else
        bad install_destdir "staged files missing or mosaic.pc prefix '$pcp'"
    fi
    mk uninstall DESTDIR="$stage" PREFIX=/opt/mosaic > "$tmp/unstage.log" 2>&1
    left=$(find "$stage" ! -type d | head -n 3 | tr '\n' ' ')
    if [ -z "$left" ]; then ok uninstall_destdir; else bad uninstall_destdir "left: $left"; fi
else
    bad install_destdir "make install DESTDIR=... failed: $(tail -n 3 "$tmp/stage.log")"
fi

# ---- uninstall ---------------------------------------------------------------
mk uninstall PREFIX="$prefix" > "$tmp/uninstall.log" 2>&1
left=$(find "$prefix" ! -type d 2>/dev/null | head -n 3 | tr '\n' ' ')
if [ -z "$left" ]; then ok uninstall; else bad uninstall "left: $left"; fi

exit $failed
