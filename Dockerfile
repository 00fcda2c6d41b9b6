# syntax=docker/dockerfile:1

# The cosci-safety worker image. Two stages: the first compiles the TypeScript
# with the dev dependencies, the second holds only the compiled code and the
# production dependencies. See docs/deploying.md.
#
# Node 22 on Debian bookworm (glibc), so the prebuilt native packages in the
# lockfile (@napi-rs/canvas for pdfjs-dist, msgpackr-extract for BullMQ)
# install as they are. For a reproducible build, pin the base by digest:
#   docker build --build-arg NODE_IMAGE=node:22-bookworm-slim@sha256:... .
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Optional dependencies are installed (npm's default): pdfjs-dist reads PDFs
# with @napi-rs/canvas when it is there.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# BullMQ and ioredis, the package's peer dependencies, come in at the lockfile's versions.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist

# The image's own `node` user, by number: Kubernetes can only verify
# runAsNonRoot against a numeric user. The files above stay owned by root, so
# the process cannot change its own code; it writes nothing to disk.
USER 1000:1000

# /metrics, /healthz and /readyz (metrics.port).
EXPOSE 9464

# No curl in the slim image: Node itself asks /healthz. The check assumes the
# default metrics port; a one-off command (quote, classify) serves no port and
# is reported unhealthy, which does not stop it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "require('node:http').get('http://127.0.0.1:9464/healthz', (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1)).setTimeout(4000, () => process.exit(1))"]

# The worker handles SIGTERM itself: jobs in flight finish within
# worker.shutdown_timeout_ms, then return to the queue.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["worker"]
