#!/bin/sh
# Entrypoint of the Gloss image; the same variables as Argilla's image. With `server` (or no command), the container's
# start-up steps, then the server:
#   1. gloss db migrate                  the database is brought up to date
#   2. gloss bootstrap                   only when USERNAME and PASSWORD are both set: the owner (API_KEY, WORKSPACE);
#                                        skipped when a user with that username or key exists, so restarts are safe
#   3. gloss search reindex              only when REINDEX_DATASETS is true or 1 (yes/on too, any case, as the server
#                                        reads it); REINDEX_DATASETS=false is then exported so the server does not
#                                        rebuild the indexes a second time
#   4. exec gloss server                 GLOSS_APP_MODULE (Argilla's UVICORN_APP) is loaded by the server itself
# Any other command is passed to gloss unchanged: `docker run gloss worker -n 4`, `docker run gloss users list`.
# GLOSS_CLI names the gloss executable (default: `gloss` on PATH); the tests point it at a fresh build.
set -eu

gloss=${GLOSS_CLI:-gloss}

if [ "$#" -eq 0 ]; then
  set -- server
fi
if [ "$1" != "server" ]; then
  exec "$gloss" "$@"
fi
shift

"$gloss" db migrate

if [ -n "${USERNAME:-}" ] && [ -n "${PASSWORD:-}" ]; then
  "$gloss" bootstrap
fi

case "$(printf '%s' "${REINDEX_DATASETS:-}" | tr '[:upper:]' '[:lower:]')" in
  true | 1 | yes | on)
    "$gloss" search reindex
    export REINDEX_DATASETS=false
    ;;
esac

exec "$gloss" server "$@"
