# syntax=docker/dockerfile:1
#
# One image for both production processes:
#   API:    node dist/processes/api.js     (runs migrations, then serves HTTP on HOST:PORT)
#   worker: node dist/processes/worker.js  (Temporal worker; run as many as you like on the same task queue)
#
# The base is Debian (glibc): the Temporal worker's native core bridge does not run on musl/alpine.

ARG NODE_VERSION=20
# package.json's `allowScripts` policy is read by npm 11; Node 20 images ship npm 10, which ignores it.
ARG NPM_VERSION=11

FROM node:${NODE_VERSION}-bookworm-slim AS base
ARG NPM_VERSION
RUN npm install --global "npm@${NPM_VERSION}" && npm cache clean --force
WORKDIR /app

# ---- build: full install, compile TypeScript to dist/ and the dashboard to web/dist/, prebundle the workflows, drop dev deps ----
FROM base AS build
COPY package.json package-lock.json ./
# The dashboard is an npm workspace: its manifest must be there for the install.
COPY web/package.json web/
# The committed lockfile only records the Linux builds of platform-specific optional packages, which
# `npm ci` rejects as out of sync; fall back to `npm install`, which keeps every locked version.
RUN npm ci \
 || { echo "WARNING: npm ci failed (package-lock.json out of sync?); using npm install" >&2; \
      npm install --no-audit --no-fund; }
COPY . .
RUN npm run build \
 && node dist/processes/bundleWorkflows.js dist/workflow-bundle.js \
 && npm prune --omit=dev

# ---- runtime: production dependencies + compiled output, as the non-root `node` user ----
FROM base AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/.data \
    WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js
# Production dependencies are the build stage's tree pruned with --omit=dev (the same resolved versions,
# no second install that could resolve differently).
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The built dashboard, served by the API at / (api/dashboard finds it beside dist/).
COPY --from=build /app/web/dist ./web/dist
RUN mkdir -p "$DATA_DIR" && chown node:node "$DATA_DIR"
USER node
EXPOSE 8080
CMD ["node", "dist/processes/api.js"]
