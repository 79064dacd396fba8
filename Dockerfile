# syntax=docker/dockerfile:1
# Three stages: install everything, build the client and drop dev dependencies, then a small runtime image
# with only production dependencies, the server source (Node 24 runs TypeScript natively) and dist/.

FROM node:24-bookworm-slim AS install
WORKDIR /app
# .npmrc: no peers on their own, so the production tree below holds only what the server imports.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund

FROM install AS build
COPY tsconfig.json ./
COPY scripts ./scripts
COPY contract ./contract
COPY client ./client
COPY locales ./locales
COPY static ./static
COPY server ./server
# prune:production keeps only what the server runs: the dependencies, without devDependencies (.npmrc keeps
# peers that nothing at run time imports, TypeScript for valibot and OpenTelemetry for Sentry, out of it).
RUN npm run build && npm run prune:production

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=8080 DEMO_DATA=false DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/server ./server
# The /v2 contract both the gateway and the built-in upstream read (schemas and the catalogue of calls).
COPY --from=build /app/contract ./contract
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
# The image's own unprivileged user; /data (the built-in upstream's database and outbox) is its only writable place.
USER node
VOLUME ["/data"]
EXPOSE 8080
# No curl in slim images: node itself asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself (graceful shutdown).
CMD ["node", "server/index.ts"]
