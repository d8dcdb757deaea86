#!/usr/bin/env bash
# Installs a real Argilla server (argilla-server from PyPI, with what it needs on PostgreSQL) into
# .venv-argilla-server at the repository's root (git-ignored), for the tests of `gloss migrate from-argilla`
# (test/support/argillaServer.ts starts it). A venv of its own: argilla-server pins fastapi, pydantic and httpx
# versions that must not disturb the SDK's .venv. The pins are in scripts/argilla-server-requirements.txt.
#
# Idempotent and quick when already installed: the venv is built once per set of pins, in a cache outside the
# repository (scripts/python-venv.sh). Called by scripts/services.sh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-argilla-server"
requirements="$root/scripts/argilla-server-requirements.txt"

# shellcheck source=scripts/python-venv.sh
source "$root/scripts/python-venv.sh"
python_venv "$venv" argilla-server "$requirements"

echo "argilla-server: $(sed -n 's/^argilla-server==//p' "$requirements") in $venv"
