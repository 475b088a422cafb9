# Multi-stage build of the engine: the first stage installs everything and bundles dist/ with esbuild, the second
# keeps only production dependencies and the bundle, runs as the unprivileged `node` user and checks /readyz.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund --ignore-scripts
COPY . .
# /docs serves Scalar's standalone bundle from node_modules; keep just that file (and the entry that resolves it) of the
# dev dependency, not the ~270 packages it would pull into production.
RUN node scripts/build.mjs \
  && mkdir -p /scalar/dist/browser \
  && cp node_modules/@scalar/api-reference/package.json /scalar/ \
  && cp node_modules/@scalar/api-reference/dist/index.js /scalar/dist/ \
  && cp node_modules/@scalar/api-reference/dist/browser/standalone.js /scalar/dist/browser/ \
  && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /scalar ./node_modules/@scalar/api-reference
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/server.mjs"]
