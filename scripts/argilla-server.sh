#!/usr/bin/env bash
# Installs a real Argilla server (argilla-server from PyPI, with what it needs on PostgreSQL) into
# .venv-argilla-server at the repository's root (git-ignored), for the tests of `gloss migrate from-argilla`
# (test/support/argillaServer.ts starts it). A venv of its own: argilla-server pins fastapi, pydantic and httpx
# versions that must not disturb the SDK's .venv. The pins are in scripts/argilla-server-requirements.txt.
#
# Idempotent and quick when already installed: pip runs only when one of the pinned versions' dist-info folders is
# missing. Called by scripts/services.sh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-argilla-server"
requirements="$root/scripts/argilla-server-requirements.txt"

missing=()
while read -r pin; do
  name=$(echo "${pin%%==*}" | tr '-' '_')
  compgen -G "$venv/lib/python3*/site-packages/${name}-${pin##*==}.dist-info" >/dev/null || missing+=("$pin")
done < <(grep -hE '^[A-Za-z0-9_.-]+==' "$requirements")
if [ ${#missing[@]} -gt 0 ]; then
  echo "argilla-server: installing ${missing[*]} into $venv"
  [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
fi

echo "argilla-server: $(sed -n 's/^argilla-server==//p' "$requirements") in $venv"
