#!/usr/bin/env bash
# PerchKit's API reference, a static site, built with the toolchain's docc.
#
#   scripts/build-reference.sh MODULES_DIR OUT_DIR
#
# MODULES_DIR is a build's folder of compiled modules (.build/debug/Modules after
# `swift build --target PerchKitLoop`, which builds PerchKit, PerchKitTerminal and PerchKitLoop).
# For each of the three, swift-symbolgraph-extract writes the symbol graph of its public
# declarations and their doc comments (as `swift package dump-symbol-graph` does, without
# building every other target), and `docc convert` makes an archive of it; `docc merge` joins
# the three under one landing page, PerchKit. OUT_DIR is replaced by the joined archive: a static
# site whose pages load their content as JSON with fetch, so it is read over HTTP, served from its
# root (so no --hosting-base-path is needed):
#
#   python3 -m http.server --bind 127.0.0.1 --directory OUT_DIR 8000
#   (then http://127.0.0.1:8000/documentation/perchkit)
#
# docc's warnings (mostly links in doc comments to another module's types, which a module's own
# archive cannot resolve) go to OUT_DIR.logs/MODULE.log; their number is printed. Needs no network.
set -euo pipefail
modules=$1
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
# The toolchain of the `swift` on PATH (or $SWIFT): docc and swift-symbolgraph-extract beside it.
tools=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")
target="$(uname -m)-unknown-linux-gnu"
work="$out.build"
logs="$out.logs"
rm -rf "$out" "$work" "$logs"
mkdir -p "$work" "$logs"
archives=()
warnings=0
for module in PerchKit PerchKitTerminal PerchKitLoop; do
  mkdir -p "$work/$module"
  # -I Sources/CNcursesw: PerchKitTerminal imports ncurses through that folder's module map.
  "$tools/swift-symbolgraph-extract" -module-name "$module" -target "$target" -minimum-access-level public \
    -I "$modules" -I "$root/Sources/CNcursesw" -output-dir "$work/$module"
  if ! "$tools/docc" convert --additional-symbol-graph-dir "$work/$module" --output-path "$work/$module.doccarchive" \
    --fallback-display-name "$module" --fallback-bundle-identifier "perchkit.$module" \
    --transform-for-static-hosting >"$logs/$module.log" 2>&1; then
    cat "$logs/$module.log" >&2
    echo "docc convert failed for $module" >&2
    exit 1
  fi
  warnings=$((warnings + $(grep -c 'warning:' "$logs/$module.log" || true)))
  archives+=("$work/$module.doccarchive")
done
"$tools/docc" merge "${archives[@]}" --output-path "$out" --synthesized-landing-page-name PerchKit \
  --synthesized-landing-page-kind Package >"$logs/merge.log" 2>&1 || { cat "$logs/merge.log" >&2; exit 1; }
rm -rf "$work"
echo "PerchKit reference: $out (docc: $warnings warnings, in $logs)"
echo "read it with: python3 -m http.server --bind 127.0.0.1 --directory $out 8000, then http://127.0.0.1:8000/documentation/perchkit"
