import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

/** Test levels: unit, api (real HTTP against a started server), e2e (Chromium), scale (several nodes). */
export default defineConfig({
  resolve: {
    alias: {
      "@": root.replace(/\/$/, ""),
      "server-only": `${root.replace(/\/$/, "")}/tests/helpers/empty-module.ts`,
    },
  },
  test: {
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], setupFiles: ["tests/helpers/mupdf-preload-setup.ts"] } },
      { extends: true, test: { name: "api", include: ["tests/api/**/*.test.ts"], fileParallelism: false } },
      { extends: true, test: { name: "e2e", include: ["tests/e2e/**/*.test.ts"], fileParallelism: false } },
      // Several web and worker processes on PostgreSQL + S3 (skipped without QUIRE_TEST_PG_URL).
      { extends: true, test: { name: "scale", include: ["tests/scale/**/*.test.ts"], fileParallelism: false } },
    ],
  },
});
