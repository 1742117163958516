# Sluice server image: `sluice serve` by default; `sluice worker`, `sluice init` … as the command.
# Build: docker build -t sluice .      Run: see deploy/compose.yaml and docs/operations.md.
#
# The web app (web/dist) and the server (dist/, `npm run build`) are built in stages of their own with the dev
# dependencies (Vite, esbuild); the runtime stage installs the production dependencies only and copies the builds in,
# so the image holds no compiler and the user it runs as never writes a build.

# Node 20.20 is what CI tests on; any Node >= 20.19 runs Sluice.
ARG NODE_IMAGE=node:20.20-bookworm-slim

# ── web: every dependency, to build the web app into web/dist ──
FROM ${NODE_IMAGE} AS web
WORKDIR /app
# The client package is a workspace: its package.json must be there for npm ci to install its dependencies.
COPY package.json package-lock.json ./
COPY clients/typescript/package.json ./clients/typescript/package.json
RUN npm ci --no-audit --no-fund
COPY web ./web
# The web app imports the pure workflow model, the block forms and the client's view types.
COPY src ./src
COPY clients/typescript/src ./clients/typescript/src
RUN node web/build-if-stale.mjs --force

# ── server: every dependency, to compile the server into dist/ (the same install as the web stage's) ──
FROM ${NODE_IMAGE} AS server
WORKDIR /app
COPY package.json package-lock.json ./
COPY clients/typescript/package.json ./clients/typescript/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs ./scripts/build.mjs
COPY src ./src
# The `sluice` command includes the client's commands (login, workflows, run, logs).
COPY clients/typescript/src ./clients/typescript/src
RUN npm run build

# ── runtime: production dependencies, the built server, the migrations and the built web app; runs as `node` ──
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SLUICE_DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY clients/typescript/package.json ./clients/typescript/package.json
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY drizzle ./drizzle
# dist/ links `web` and `drizzle` back to these (a symbolic link each, copied as a link).
COPY --from=server /app/dist ./dist
COPY --from=web /app/web/dist ./web/dist
# /data holds the embedded database (without DATABASE_URL) and uploaded files (SLUICE_FILES_BACKEND=local).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# /ready: the database answers, migrations are applied, and the worker runs when this process has one.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/src/cli/sluice.js"]
CMD ["serve"]
