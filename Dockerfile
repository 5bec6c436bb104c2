# NotaryOnline: one stateless app node. Run as many as needed behind a load
# balancer with DATABASE_URL (PostgreSQL) and STORAGE_DRIVER=s3; see docs/deploy.md.
#   docker build -t notary-online .
#   docker run -p 3000:3000 --env-file .env notary-online

FROM node:24-slim AS build
WORKDIR /app
# Dependencies first, so a code change does not reinstall them.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Only what the server reads at run time: its TypeScript source (run by Node's
# type stripping), the built client and SSR bundle, migrations, content, and
# production dependencies.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src ./src
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/content ./content
COPY --from=build /app/public ./public
COPY --from=build /app/scripts ./scripts
# The embedded defaults (PGlite, local documents, .eml mailbox) write under
# /data; with PostgreSQL + S3 + SMTP nothing is written there.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
# Liveness only; a load balancer should use /readyz (database + storage).
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# serve.ts (started by start.mjs → main.ts) drains on SIGTERM (readiness 503; the process exits within SHUTDOWN_TIMEOUT_SECONDS, 10 s).
STOPSIGNAL SIGTERM
# The same V8 flag as `npm run serve` (docs/decisions/054-embedded-database-memory.md).
CMD ["node", "--max-semi-space-size=16", "src/server/start.mjs"]
