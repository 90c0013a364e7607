# syntax=docker/dockerfile:1
# Quire's container image: one image for web nodes (the default command) and queue workers
# (command: node dist/lib/server/worker-main.js). See docs/deploy.md and compose.yaml.

ARG NODE_IMAGE=node:24-bookworm-slim

# --- 1. npm packages, exactly as locked (dev packages too: the builds need them) ---
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --include=dev --no-audit --no-fund --loglevel=error \
 && cp package-lock.json node_modules/.quire-lock-stamp

# --- 2. the production builds: the dashboard (next build) and the server compiled to dist/ ---
FROM deps AS build
ENV NEXT_TELEMETRY_DISABLED=1
COPY . .
# The two builds of `npm run build`, called directly (scripts/env.sh would install Debian
# packages here, which only the runtime stage needs).
RUN npx next build \
 && node scripts/build-server.mjs \
 && npm prune --omit=dev --no-audit --no-fund --loglevel=error \
 && cp package-lock.json node_modules/.quire-lock-stamp \
 && rm -rf .next/cache

# --- 3. the runtime: Debian's document tools, a non-root user, no compiler ---
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      chromium \
      libreoffice-writer-nogui libreoffice-calc-nogui \
      tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa \
      tesseract-ocr-ita tesseract-ocr-por tesseract-ocr-nld tesseract-ocr-osd \
      qpdf poppler-utils \
      fonts-liberation2 fonts-dejavu-core fonts-crosextra-carlito fonts-crosextra-caladea \
      tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    QUIRE_ROOT=/app \
    QUIRE_COMPILED=1 \
    NEXT_TELEMETRY_DISABLED=1 \
    CHROMIUM_PATH=/usr/bin/chromium \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "scripts/healthcheck.mjs"]
# tini reaps the grandchildren of sandboxed work (Chromium, LibreOffice) and forwards signals.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "dist/lib/server/main.js"]
