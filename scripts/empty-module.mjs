// Stands in for the `server-only` package outside Next (see scripts/build-server.mjs).
export {};
