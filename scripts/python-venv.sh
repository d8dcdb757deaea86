#!/usr/bin/env bash
# Sourced by scripts/services.sh and scripts/argilla-server.sh: `python_venv <link> <name> <requirements file>...`
# makes <link> (a venv path in the repository, git-ignored) a working venv with exactly those pins installed.
#
# The venv itself lives in a cache outside the repository (GLOSS_VENV_DIR, default /var/cache/gloss-venvs as root,
# ~/.cache/gloss/venvs otherwise), named by a hash of the Python version and the requirement files, and <link> is a
# symlink to it: a fresh clone (every CI run) reuses the venv an earlier clone built, instead of installing argilla,
# spaCy, SciPy and the rest again beside `npm install` (about a minute of both cores). A change to a requirement
# file makes a new hash, so a new venv. A <link> that is a real folder (a venv made before this cache existed) is
# kept and only topped up with the pins it lacks.
python_venv() {
  local link=$1 name=$2
  shift 2
  local requirements=("$@")
  local missing=() pin pkg
  missing_pins() {
    missing=()
    while read -r pin; do
      pkg=$(echo "${pin%%==*}" | tr '-' '_')
      compgen -G "$1/lib/python3*/site-packages/${pkg}-${pin##*==}.dist-info" >/dev/null || missing+=("$pin")
    done < <(grep -hE '^[A-Za-z0-9_.-]+==' "${requirements[@]}")
  }
  if [ -d "$link" ] && [ ! -L "$link" ]; then
    missing_pins "$link"
    if [ ${#missing[@]} -gt 0 ]; then
      echo "$name: installing ${missing[*]} into $link"
      "$link/bin/pip" install --quiet --disable-pip-version-check "${requirements[@]/#/-r}"
    fi
    return
  fi
  local cache
  if [ "$(id -u)" -eq 0 ]; then cache=${GLOSS_VENV_DIR:-/var/cache/gloss-venvs}; else cache=${GLOSS_VENV_DIR:-$HOME/.cache/gloss/venvs}; fi
  local key
  key=$( (python3 --version; cat "${requirements[@]}") | sha256sum | cut -c1-16)
  local target="$cache/$name-$key"
  if [ ! -f "$target/.complete" ]; then
    echo "$name: installing $(grep -hE '^[A-Za-z0-9_.-]+==' "${requirements[@]}" | tr '\n' ' ')into $target"
    rm -rf "$target"
    mkdir -p "$cache"
    python3 -m venv "$target"
    "$target/bin/pip" install --quiet --disable-pip-version-check "${requirements[@]/#/-r}"
    missing_pins "$target"
    if [ ${#missing[@]} -gt 0 ]; then echo "$name: pip left out ${missing[*]}" >&2; return 1; fi
    touch "$target/.complete"
  fi
  ln -sfn "$target" "$link"
}
