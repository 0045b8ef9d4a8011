#!/usr/bin/env bash
# Builds perch_VERSION_ARCH.deb with dpkg-deb from a built binary.
#
#   scripts/build-deb.sh BIN OUT_DIR
#
# The package holds the binary (stripped), the man page and the bash, zsh and fish completions
# (all three written by the binary itself), the README and the docs, a copyright file and a
# changelog, under /usr as Debian Policy places them. The version is the binary's own
# (`perch --version`), the dependencies are the packages of the shared libraries it needs (or,
# for a statically linked binary, of the C library and the terminfo database it reads). The
# maintainer (the control file's Maintainer and the changelog's sign-off) is the one line of
# scripts/debian/maintainer, its only place; MAINTAINER in the environment overrides it.
# Prints the path of the package.
set -euo pipefail
bin=$1
out=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
version=$("$bin" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
maintainer=${MAINTAINER:-$(sed -n 1p "$root/scripts/debian/maintainer")}
name="perch_${version}_${arch}"
stage="$out/$name"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
install -d "$stage/usr/bin" "$stage/usr/share/man/man1" "$stage/usr/share/bash-completion/completions" \
  "$stage/usr/share/zsh/vendor-completions" "$stage/usr/share/fish/vendor_completions.d" \
  "$stage/usr/share/doc/perch/docs"

install -m 755 "$bin" "$stage/usr/bin/perch"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/perch"
"$bin" man-page | gzip -9n > "$stage/usr/share/man/man1/perch.1.gz"
"$bin" completion bash > "$stage/usr/share/bash-completion/completions/perch"
"$bin" completion zsh > "$stage/usr/share/zsh/vendor-completions/_perch"
"$bin" completion fish > "$stage/usr/share/fish/vendor_completions.d/perch.fish"
install -m 644 "$root/README.md" "$stage/usr/share/doc/perch/README.md"
install -m 644 "$root"/docs/*.md "$stage/usr/share/doc/perch/docs/"
install -m 644 "$root/scripts/debian/copyright" "$stage/usr/share/doc/perch/copyright"
# A native package's changelog (Debian Policy §12.7), dated by the last commit when there is one.
date=$(git -C "$root" log -1 --format=%cD 2>/dev/null || date -R)
{
  echo "perch ($version) unstable; urgency=medium"
  echo
  echo "  * Release $version; see /usr/share/doc/perch/README.md."
  echo
  echo " -- $maintainer  $date"
} | gzip -9n > "$stage/usr/share/doc/perch/changelog.gz"
chmod 644 "$stage"/usr/share/man/man1/* "$stage"/usr/share/bash-completion/completions/* \
  "$stage"/usr/share/zsh/vendor-completions/* "$stage"/usr/share/fish/vendor_completions.d/*

# Depends: the package of each shared library the binary needs, at the version installed here.
# A statically linked binary (the release build) needs none, but still reads files other packages
# hold: the C library's name-service modules and locales (the package of libc.so.6) and the
# terminfo database (the package of xterm's entry), so it depends on those packages instead.
# No reader in these pipelines stops early (no `head`, no `exit` in awk): under pipefail a writer
# killed by SIGPIPE would end the script with status 141 when its output is long.
libraries=$(objdump -p "$bin" | awk '$1 == "NEEDED" { print $2 }')
files=()
if [ -z "$libraries" ]; then
  libraries=libc.so.6
  for entry in /usr/share/terminfo/x/xterm /lib/terminfo/x/xterm; do
    if [ -e "$entry" ]; then files+=("$entry"); fi
  done
fi
add_package() {  # the package holding file $1, at its installed upstream version
  local package upstream
  package=$(dpkg -S "$(readlink -f "$1")" 2>/dev/null | awk -F: 'NR == 1 { print $1 }') || true
  [ -n "$package" ] || package=$(dpkg -S "$1" 2>/dev/null | awk -F: 'NR == 1 { print $1 }') || true
  [ -n "$package" ] || return 0
  upstream=$(dpkg-query -W -f='${Version}' "$package" | sed -E 's/^[0-9]+://; s/-[^-]*$//')
  depends+=("$package (>= $upstream)")
}
depends=()
while read -r library; do
  path=$(ldconfig -p | awk -v lib="$library" '$1 == lib && !found { print $NF; found = 1 }')
  if [ -n "$path" ]; then add_package "$path"; fi
done <<< "$libraries"
for entry in "${files[@]}"; do add_package "$entry"; done

# A static executable holds parts of other packages: Built-Using names their source packages at
# the versions linked (Debian Policy §7.8), and lintian is told the static link is meant.
built_using=()
if [ -n "${files[*]}" ]; then
  for archive in libc.a libncursesw.a libtinfo.a libstdc++.a; do
    path=$(cc -print-file-name="$archive")
    package=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | awk -F: 'NR == 1 { print $1 }') || true
    [ -n "$package" ] || continue
    built_using+=("$(dpkg-query -W -f='${source:Package} (= ${source:Version})' "$package")")
  done
  install -d "$stage/usr/share/lintian/overrides"
  install -m 644 "$root/scripts/debian/lintian-overrides" "$stage/usr/share/lintian/overrides/perch"
fi
built_using_line=$(printf '%s\n' "${built_using[@]}" | sed '/^$/d' | sort -u | paste -sd, | sed 's/,/, /g')
depends_line=$(printf '%s\n' "${depends[@]}" | sort -u | paste -sd, | sed 's/,/, /g')

size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<EOF
Package: perch
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends_line
${built_using_line:+Built-Using: $built_using_line
}Section: utils
Priority: optional
Description: terminal account switcher
 Perch shows who you are signed in as and switches accounts with a gesture
 known from phones: press and hold the first tab. A switch can also change
 who you are in git, ssh, kubectl, gcloud, the AWS CLI, gh and the shell's
 environment, and scripts and prompts use the same switch from the command
 line.
EOF
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$out/$name.deb" > /dev/null
echo "$out/$name.deb"
