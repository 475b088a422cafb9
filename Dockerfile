# Multi-stage build of the engine on Node 22 LTS: the first stage installs everything and builds dist/ (the server and
# CLI bundles, the widget, the /docs bundle), the second keeps only production dependencies and the build, runs as the
# unprivileged `node` user with NODE_ENV=production, has the CLI on PATH (`booking-engine`) and checks /readyz.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund --ignore-scripts
COPY . .
RUN node scripts/build.mjs \
  && find dist -name '*.map' -delete \
  && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
RUN ln -s /app/bin/booking-engine.js /usr/local/bin/booking-engine \
  && mkdir -p /data \
  && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["booking-engine"]
