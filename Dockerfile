# syntax=docker/dockerfile:1
# openbid's image (docs/operations.md, "Container image"). Two stages: the build stage compiles
# TypeScript with the dev dependencies; the final one holds production dependencies, dist/, the
# launcher and the sample stored request, and runs as the unprivileged `node` user.
# test/integration/dockerfile.test.ts performs these steps without a container engine.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Install scripts are refused: only dev tools have any, and tsc needs none of them. npm's download
# cache is a build cache mount, never a layer of the image.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build-info.mjs ./scripts/
COPY src ./src
# A build context has no .git: `docker build --build-arg OPENBID_REVISION=$(git rev-parse HEAD) .`
# puts the revision into /version; without it, "unknown".
ARG OPENBID_REVISION=""
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
ENV OPENBID_SERVER__HOST=0.0.0.0
ENV OPENBID_SERVER__PORT=8000
# The admin listener (/metrics, /currency/rates, /version) on port 6060, its default, reachable
# from the container's network (a Prometheus beside it) but published only when asked for
# (`-p 127.0.0.1:6060:6060`). Not EXPOSEd: `docker run -P` would publish it on every interface.
ENV OPENBID_SERVER__ADMIN_HOST=0.0.0.0
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY stored_requests ./stored_requests
USER node
EXPOSE 8000
# Slim images have no curl: node asks /status (204 while serving, 503 once draining).
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.OPENBID_SERVER__PORT || 8000) + '/status').then((r) => process.exit(r.status === 204 ? 0 : 1), () => process.exit(1))"]
# bin/openbid chooses Node's flags, then execs node: signals reach the server itself.
CMD ["bin/openbid"]
