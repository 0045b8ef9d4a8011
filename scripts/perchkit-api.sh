#!/usr/bin/env bash
# PerchKit's public API against its committed baseline, with the toolchain's swift-api-digester.
#
#   scripts/perchkit-api.sh dump MODULES_DIR API_DIR
#   scripts/perchkit-api.sh check MODULES_DIR API_DIR
#
# MODULES_DIR is a debug build's folder of compiled modules (.build/debug/Modules after
# `swift build --target PerchKitLoop`); API_DIR holds one baseline per module, MODULE.json
# (TerminalText, PerchKit, PerchKitTerminal, PerchKitLoop), as `swift-api-digester -dump-sdk` writes it: every
# public declaration with its signature, without file paths or the tool's arguments.
#
# dump writes the four baselines anew (`make api-baseline`, after an intended change of the API).
# check compares each module with its baseline (`swift-api-digester -diagnose-sdk`) and exits 1
# when a public declaration was removed, renamed or changed in a way that breaks its callers (as
# the digester judges: a type, a generic signature, a conformance, a protocol's requirements),
# printing the digester's errors, each at the declaration's file and line where it still exists;
# a declaration added passes. Exits 2 on bad usage or when a baseline is missing.
#
# The baselines come from the debug build, as `make test` builds it; on Linux there is no SDK to
# name, the target triple and the module folders are all the digester needs.
set -euo pipefail
usage="usage: scripts/perchkit-api.sh dump|check MODULES_DIR API_DIR"
[ $# -eq 3 ] || { echo "$usage" >&2; exit 2; }
mode=$1
modules=$2
api=$3
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")
# -I Sources/CNcursesw: PerchKitTerminal imports ncurses through that folder's module map.
# The library's modules: TerminalText is the one place text widths are decided, below PerchKit.
kit_modules=(TerminalText PerchKit PerchKitTerminal PerchKitLoop)
flags=(-target "$(uname -m)-unknown-linux-gnu" -I "$modules" -I "$root/Sources/CNcursesw" -swift-only)
case $mode in
  dump)
    mkdir -p "$api"
    for module in "${kit_modules[@]}"; do
      "$tools/swift-api-digester" -dump-sdk -module "$module" "${flags[@]}" -avoid-location -avoid-tool-args \
        -o "$api/$module.json"
      echo "wrote $api/$module.json"
    done
    ;;
  check)
    failed=0
    for module in "${kit_modules[@]}"; do
      baseline="$api/$module.json"
      [ -f "$baseline" ] || { echo "no baseline $baseline (make api-baseline writes it)" >&2; exit 2; }
      # -compiler-style-diags: each breaking change as an error on standard error, and status 1.
      if ! "$tools/swift-api-digester" -diagnose-sdk -module "$module" "${flags[@]}" -baseline-path "$baseline" \
        -compiler-style-diags >/dev/null; then
        echo "$module: its public API differs from $baseline (above)." >&2
        failed=1
      fi
    done
    if [ $failed -ne 0 ]; then
      echo "If the change is intended, write the baseline anew with \`make api-baseline\` and commit it." >&2
      exit 1
    fi
    echo "PerchKit's public API holds every declaration of $api"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
