# Switchboard image: one image, two entry points (api: backend/dist/main.js, worker: backend/dist/worker.js).
# Debian (glibc) base: the lockfile carries linux-x64-gnu native binaries only (CONTRIBUTING.md#docker-image).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY backend/package.json backend/
COPY frontend/package.json frontend/
COPY e2e/package.json e2e/
# Not `npm ci` (CONTRIBUTING.md#no-npm-ci); install scripts limited by allowScripts + strict-allow-scripts.
RUN npm install --no-audit --no-fund
COPY tsconfig.json nest-cli.json ./
COPY backend backend
COPY frontend frontend
# The in-app help pages are built from these (frontend/src/pages/WebhookSignaturesPage.tsx).
COPY docs docs
# backend/node_modules exists even when npm hoists every backend package, so the runtime COPY never misses it.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && mkdir -p backend/node_modules

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
# Exactly the tested tree: the root node_modules and every node_modules of a workspace that runs here. A
# workspace keeps its own copy of a package whose major differs from the root's (backend/node_modules/ipaddr.js
# 2.x over 1.x at the root): without it the image runs other code than the tests did
# (CONTRIBUTING.md#docker-image; backend/test/image.spec.ts fails when a COPY is missing).
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/backend/node_modules backend/node_modules
COPY --from=build /app/backend/package.json backend/
COPY --from=build /app/backend/dist backend/dist
COPY --from=build /app/frontend/dist frontend/dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
CMD ["node", "backend/dist/main.js"]
