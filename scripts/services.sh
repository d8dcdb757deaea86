#!/usr/bin/env bash
# Installs (when missing) and starts the services the full test suite uses: PostgreSQL and Redis from Debian's
# packages, on loopback, Chromium for the web UI's browser tests, curl and jq for the README's examples, Schemathesis
# and Argilla's Python SDK (in .venv) for the schema fuzzing and SDK compatibility tests, then Elasticsearch and
# OpenSearch (engines.sh), Argilla's web UI (argilla-ui.sh) and a real Argilla server in .venv-argilla-server
# (argilla-server.sh, for the tests of `gloss migrate from-argilla`). Idempotent: safe to run again when they are
# already up. Uses sudo for apt-get when not run as root.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# The web UI's browser tests drive Debian's Chromium (browsers cannot be downloaded by npm here).
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# The README's examples, run by test/readme/story.test.ts, use curl and jq.
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v jq >/dev/null 2>&1 || missing+=(jq)
# The schema fuzzer (Schemathesis) lives in a Python virtual environment; Debian ships venv and ensurepip separately.
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  echo "services: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# PostgreSQL: Debian does not start the cluster without systemd.
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | grep -q "^${version} main"; then
  $SUDO pg_createcluster "$version" main >/dev/null
fi
if ! pg_lsclusters -h | grep -q "^${version} main .* online"; then
  $SUDO pg_ctlcluster "$version" main start
fi
for _ in $(seq 1 50); do
  if $SUDO -u postgres psql -qtAc "select 1" >/dev/null 2>&1 || su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 0.2
done
as_postgres() { if [ -n "$SUDO" ]; then sudo -u postgres "$@"; else su postgres -c "$(printf '%q ' "$@")"; fi; }
if [ "$(as_postgres psql -qtAc "select 1 from pg_roles where rolname = 'gloss'")" != "1" ]; then
  as_postgres psql -qc "create role gloss with login superuser password 'gloss'"
fi
if [ "$(as_postgres psql -qtAc "select 1 from pg_database where datname = 'gloss'")" != "1" ]; then
  as_postgres createdb -O gloss gloss
fi

# Redis: standalone on 6379, no persistence (tests only).
if ! redis-cli -p 6379 ping >/dev/null 2>&1; then
  redis-server --port 6379 --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --pidfile /tmp/gloss-redis-6379.pid --logfile /tmp/gloss-redis-6379.log
  for _ in $(seq 1 50); do redis-cli -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

# Redis Cluster: three masters on 7000-7002, no persistence, for the scale-out tests. Created once; a node
# that is up already is left alone, and the cluster is only created when no node knows it yet.
cluster_ports=(7000 7001 7002)
cluster_dir=/tmp/gloss-redis-cluster
for port in "${cluster_ports[@]}"; do
  if ! redis-cli -p "$port" ping >/dev/null 2>&1; then
    mkdir -p "$cluster_dir/$port"
    redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file "nodes-$port.conf" \
      --dir "$cluster_dir/$port" --save "" --appendonly no --daemonize yes \
      --pidfile "$cluster_dir/$port.pid" --logfile "$cluster_dir/$port.log"
    for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  fi
done
if ! redis-cli -p 7000 cluster info 2>/dev/null | grep -q "cluster_state:ok"; then
  if [ "$(redis-cli -p 7000 cluster info 2>/dev/null | sed -n 's/^cluster_known_nodes:\([0-9]*\).*/\1/p')" = "1" ]; then
    redis-cli --cluster create "${cluster_ports[@]/#/127.0.0.1:}" --cluster-replicas 0 --cluster-yes >/dev/null
  fi
  for _ in $(seq 1 100); do redis-cli -p 7000 cluster info | grep -q "cluster_state:ok" && break; sleep 0.1; done
fi

# Python tools in .venv at the repository's root (git-ignored): Schemathesis for test/fuzz
# (scripts/fuzz-requirements.txt), the Argilla SDK with pytest for test/compat (test/compat/requirements.txt), and the
# reference statistics and training tools the review tests check Gloss against (scripts/review-requirements.txt).
# Every line is pinned `name==version`; the venv is built once per set of pins, in a cache outside the repository
# (scripts/python-venv.sh).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python_requirements=("$root/scripts/fuzz-requirements.txt" "$root/test/compat/requirements.txt" "$root/scripts/review-requirements.txt")
schemathesis_version=$(sed -n 's/^schemathesis==//p' "$root/scripts/fuzz-requirements.txt")
# shellcheck source=scripts/python-venv.sh
source "$root/scripts/python-venv.sh"
python_venv "$root/.venv" services "${python_requirements[@]}"

echo "services: PostgreSQL at postgres://gloss:gloss@127.0.0.1:5432/gloss, Redis at redis://127.0.0.1:6379 (a Cluster at redis://127.0.0.1:7000), Chromium at $(command -v chromium), Schemathesis ${schemathesis_version} and argilla $(sed -n 's/^argilla==//p' "$root/test/compat/requirements.txt") in $root/.venv"

# Elasticsearch and OpenSearch for the search tests, from Maven Central (cached outside the repository).
bash "$(dirname "$0")/engines.sh"

# Argilla's own web UI (the argilla-server wheel's static folder, from PyPI) for ui/test/e2e/argilla-ui.test.ts.
bash "$(dirname "$0")/argilla-ui.sh"

# A real Argilla server (argilla-server from PyPI, in a venv of its own) for the tests of `gloss migrate from-argilla`.
bash "$(dirname "$0")/argilla-server.sh"
