# syntax=docker/dockerfile:1
# The Gloss server image.
#   docker build -t gloss .
#   docker run -p 6900:6900 -v gloss-data:/home/gloss/.gloss -e USERNAME=admin -e PASSWORD=change-me-please gloss
# The entrypoint (docker/entrypoint.sh) migrates the database, creates the owner from USERNAME/PASSWORD/API_KEY/
# WORKSPACE, reindexes when REINDEX_DATASETS is true, then runs `gloss server`; any other command (`worker -n 4`,
# `users list`) is run as `gloss <command>`.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: the server bundle (dist/gloss.mjs) and the web UI (dist/ui) ----
FROM ${NODE_IMAGE} AS build
# better-sqlite3 is a native module: its prebuilt binary is used when one matches, otherwise it is compiled.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: the lock file is written where some platforms' optional packages cannot be fetched, and
# npm ci refuses a lock file without them. A separate layer, so that source changes do not reinstall.
RUN npm install --no-audit --no-fund
COPY . .
# The bundle keeps its packages external (esbuild --packages=external): they must be installed at run time, so
# after the build only the production dependencies stay (the build tools and the UI's libraries are dev
# dependencies: the UI ships prebuilt in dist/ui).
RUN npm run build \
  && chmod 0755 dist/gloss.mjs \
  && npm prune --omit=dev --no-audit --no-fund

# ---- runtime ----
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    GLOSS_HOME_PATH=/home/gloss/.gloss
# The data directory exists in the image, owned by gloss, so that a new named volume starts with the right owner.
RUN groupadd --system --gid 1001 gloss \
  && useradd --system --uid 1001 --gid gloss --home-dir /home/gloss --create-home --shell /usr/sbin/nologin gloss \
  && mkdir -p /home/gloss/.gloss \
  && chown gloss:gloss /home/gloss/.gloss
WORKDIR /app
# The application's files belong to root: the server cannot modify its own code.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY docker/entrypoint.sh docker/healthcheck.mjs ./docker/
# `gloss` on PATH, as npm would install the package's bin (the bundle starts with #!/usr/bin/env node).
RUN chmod 0755 docker/entrypoint.sh \
  && ln -s /app/dist/gloss.mjs /usr/local/bin/gloss

USER gloss
VOLUME ["/home/gloss/.gloss"]
EXPOSE 6900
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "/app/docker/healthcheck.mjs"]
ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["server"]
