#!/usr/bin/env bash
# Builds perch_VERSION_ARCH.deb with dpkg-deb from a built binary.
#
#   scripts/build-deb.sh BIN OUT_DIR
#
# The package holds the binary (stripped), the man page and the bash, zsh and fish completions
# (all three written by the binary itself), the README and the docs, a copyright file and a
# changelog, under /usr as Debian Policy places them. The version is the binary's own
# (`perch --version`), the dependencies are the packages of the shared libraries it needs.
# Prints the path of the package.
set -euo pipefail
bin=$1
out=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
version=$("$bin" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
maintainer=${MAINTAINER:-Perch maintainers <perch@example.org>}
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
# No reader in these pipelines stops early (no `head`, no `exit` in awk): under pipefail a writer
# killed by SIGPIPE would end the script with status 141 when its output is long.
depends=()
while read -r library; do
  path=$(ldconfig -p | awk -v lib="$library" '$1 == lib && !found { print $NF; found = 1 }')
  [ -n "$path" ] || continue
  package=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | awk -F: 'NR == 1 { print $1 }') || true
  [ -n "$package" ] || package=$(dpkg -S "$path" 2>/dev/null | awk -F: 'NR == 1 { print $1 }') || true
  [ -n "$package" ] || continue
  upstream=$(dpkg-query -W -f='${Version}' "$package" | sed -E 's/^[0-9]+://; s/-[^-]*$//')
  depends+=("$package (>= $upstream)")
done < <(objdump -p "$bin" | awk '$1 == "NEEDED" { print $2 }')
depends_line=$(printf '%s\n' "${depends[@]}" | sort -u | paste -sd, | sed 's/,/, /g')

size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<EOF
Package: perch
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends_line
Section: utils
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
