# syntax=docker/dockerfile:1.7
#
# Patchbay images: one target per service, all built from this one file.
#
#   docker build --target gateway -t patchbay/gateway .        (likewise identity, records, storage,
#   endpoint, push, file-server, transcoder, threshold-worker, and bootstrap: the one-shot that
#   creates the first partner)
#
# Stages: `build` installs the workspace once (pnpm fetch keyed on the lockfile, so dependency
# layers are cached until pnpm-lock.yaml changes), bundles every service with esbuild
# (deploy/bundle.ts: one main.js per service, workspace packages compiled in) and gives each its
# own pruned production dependencies with `pnpm deploy --prod` (hoisted node_modules, so the
# bundle's plain `require`s resolve). `runtime` is node's slim image with a non-root user. Each
# service target copies only its own /out/<service> directory. ffmpeg is installed in the
# transcoder target only.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH CI=true
RUN npm install -g pnpm@9.15.9 && pnpm config set store-dir /pnpm/store
WORKDIR /repo

FROM base AS build
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm fetch
COPY . .
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --offline --frozen-lockfile
# The services' bundles, and the partner console's static build (packages/console/dist) that the gateway serves at /console.
RUN pnpm run build && pnpm run build:console
# One pruned production tree per image: /out/<name>/{main.js,main.js.map,node_modules,package.json} (and a
# service's worker-thread bundles beside main.js: push's send.worker.js).
# The transcoder image runs Debian's ffmpeg (installed below), so it leaves out the static builds of
# its optional npm packages (@ffmpeg-installer, @ffprobe-installer: 140 MB, for bare machines only).
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store set -eu; \
    for svc in gateway identity records storage endpoint push file-server transcoder threshold-worker; do \
      case "$svc" in transcoder) optional=--no-optional ;; *) optional= ;; esac; \
      pnpm --filter "@patchbay/${svc}" --prod $optional --config.node-linker=hoisted deploy "/out/${svc}"; \
      rm -rf "/out/${svc}/src" "/out/${svc}/test" "/out/${svc}/node_modules/@patchbay"; \
      cp "dist/${svc}/"*.js "dist/${svc}/"*.js.map "/out/${svc}/"; \
    done; \
    cp -r packages/console/dist /out/gateway/console; \
    mkdir -p /out/bootstrap && cp -r /out/identity/node_modules /out/identity/package.json /out/bootstrap/ && \
    cp dist/bootstrap/main.js dist/bootstrap/main.js.map /out/bootstrap/

# What every service image starts from: no build tools, no package manager, a non-root user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production DATA_DIR=/data LOG_LEVEL=info HOST=0.0.0.0
RUN mkdir -p /data /app && chown 1000:1000 /data
WORKDIR /app
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "main.js"]

# Bus-only services: /health and /metrics on OPS_PORT.
FROM runtime AS ops-runtime
ENV OPS_PORT=9090
EXPOSE 9090
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.OPS_PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

FROM runtime AS gateway
COPY --from=build /out/gateway /app
ENV PORT=8080 CONSOLE_DIR=/app/console
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
USER 1000:1000

FROM runtime AS file-server
COPY --from=build /out/file-server /app
ENV STORAGE_PORT=8081
EXPOSE 8081
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.STORAGE_PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
USER 1000:1000

FROM ops-runtime AS identity
COPY --from=build /out/identity /app
USER 1000:1000

FROM ops-runtime AS records
COPY --from=build /out/records /app
USER 1000:1000

FROM ops-runtime AS storage
COPY --from=build /out/storage /app
USER 1000:1000

FROM ops-runtime AS endpoint
COPY --from=build /out/endpoint /app
USER 1000:1000

FROM ops-runtime AS push
COPY --from=build /out/push /app
USER 1000:1000

FROM ops-runtime AS threshold-worker
COPY --from=build /out/threshold-worker /app
USER 1000:1000

# The only image with ffmpeg (Debian's, with every codec of the interface: recommended over the
# npm builds, which the transcoder only falls back to on a machine without it).
FROM ops-runtime AS transcoder
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /scratch && chown 1000:1000 /scratch
ENV TRANSCODER_SCRATCH_DIR=/scratch
COPY --from=build /out/transcoder /app
USER 1000:1000

# One-shot: creates (or re-applies) the first partner, prints the banner, exits.
FROM runtime AS bootstrap
COPY --from=build /out/bootstrap /app
USER 1000:1000
