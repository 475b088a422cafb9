# The engine on Node 22 LTS, pinned to a full release (change the three FROM lines together; pin a digest in your own
# registry if you mirror it). Never built where this file is kept: see docs/deploy.md.
# build: every dependency from the lock (npm ci), then dist/ (the server and CLI bundles, the widget, the console,
# the /docs bundle). deps: the production dependencies alone, from the same lock: the bundles hold only the engine's
# own code and import every package from node_modules. The last stage keeps those two and the bin, runs as the
# unprivileged `node` user with NODE_ENV=production, has the CLI on PATH (`booking-engine`) and checks /readyz.
FROM node:22.23.3-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN node scripts/build.mjs && find dist -name '*.map' -delete

FROM node:22.23.3-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

FROM node:22.23.3-bookworm-slim
# DATA_DIR is PGlite's (the embedded database), used only without DATABASE_URL: with Postgres nothing is written there.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
RUN ln -s /app/bin/booking-engine.js /usr/local/bin/booking-engine \
  && mkdir -m 0700 /data \
  && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["booking-engine"]
