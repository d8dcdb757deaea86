#!/usr/bin/env bash
# Installs (when missing) and starts the services the full test suite uses: PostgreSQL and Redis from Debian's
# packages, on loopback, and Chromium for the web UI's browser tests. Idempotent: safe to run again when they are
# already up. Needs root (or sudo) for apt-get.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# The web UI's browser tests drive Debian's Chromium (browsers cannot be downloaded by npm here).
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
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

echo "services: PostgreSQL at postgres://gloss:gloss@127.0.0.1:5432/gloss, Redis at redis://127.0.0.1:6379, Chromium at $(command -v chromium)"
