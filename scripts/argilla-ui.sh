#!/usr/bin/env bash
# Fetches Argilla's own web UI for the browser test ui/test/e2e/argilla-ui.test.ts: the static folder of the
# `argilla-server` wheel from PyPI (pip download, no dependencies), extracted as shipped; the test serves it the way
# argilla-server does (its `@@baseUrl@@` placeholders are replaced when served, not here).
#
# Idempotent and cached: the wheel and the extracted folder live in GLOSS_ARGILLA_UI_DIR (default
# /var/cache/gloss-argilla-ui as root, ~/.cache/gloss/argilla-ui otherwise), never in the repository; a second run
# only checks that the folder is there. The UI ends up in $GLOSS_ARGILLA_UI_DIR/<version>/static.
# Called by scripts/services.sh; pip comes from the repository's .venv when there, else python3 -m pip.
set -euo pipefail

VERSION=2.8.0 # the argilla SDK version test/compat drives
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "$(id -u)" -eq 0 ]; then
  DIR=${GLOSS_ARGILLA_UI_DIR:-/var/cache/gloss-argilla-ui}
else
  DIR=${GLOSS_ARGILLA_UI_DIR:-$HOME/.cache/gloss/argilla-ui}
fi
target="$DIR/$VERSION/static"

if [ -f "$target/index.html" ]; then
  echo "argilla-ui: argilla-server $VERSION's web UI at $target"
  exit 0
fi

if [ -x "$root/.venv/bin/pip" ]; then PIP=("$root/.venv/bin/pip"); else PIP=(python3 -m pip); fi
mkdir -p "$DIR/$VERSION"
wheel="$DIR/$VERSION/argilla_server-$VERSION-py3-none-any.whl"
if [ ! -f "$wheel" ]; then
  echo "argilla-ui: downloading argilla-server $VERSION from PyPI"
  "${PIP[@]}" download --quiet --disable-pip-version-check --no-deps "argilla-server==$VERSION" -d "$DIR/$VERSION"
fi

# Extract into a temporary folder and move it into place, so an interrupted run never leaves a half folder behind.
staging=$(mktemp -d "$DIR/$VERSION/extract.XXXXXX")
trap 'rm -rf "$staging"' EXIT
python3 - "$wheel" "$staging" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    members = [m for m in z.namelist() if m.startswith("argilla_server/static/")]
    if not members:
        sys.exit(f"argilla-ui: no argilla_server/static/ in {wheel}")
    z.extractall(out, members)
PY
rm -rf "$target"
mv "$staging/argilla_server/static" "$target"
echo "argilla-ui: argilla-server $VERSION's web UI at $target"
