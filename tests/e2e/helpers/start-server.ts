import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startQuire, type QuireServer } from "@/tests/helpers/quire-server";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Hash of everything the Next build depends on (same inputs as scripts/quire.sh build_if_stale). */
function sourceHash(): string {
  const out = execFileSync(
    "bash",
    [
      "-c",
      `find app components lib public next.config.js package-lock.json tailwind.config.ts postcss.config.mjs tsconfig.json scripts/build-server.mjs -type f \\( -name '*.ts' -o -name '*.tsx' -o -name '*.js' -o -name '*.mjs' -o -name '*.css' -o -name '*.json' -o -name '*.svg' -o -name '*.sql' \\) -not -path '*/node_modules/*' 2>/dev/null | LC_ALL=C sort | xargs cat 2>/dev/null | sha1sum | cut -d' ' -f1`,
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  return out.trim();
}

/** Runs `next build` once when .next/BUILD_ID is missing or older than the sources. */
export function buildIfStale(): void {
  const hashFile = path.join(ROOT, ".next/quire-build-hash");
  const hash = sourceHash();
  const fresh = fs.existsSync(path.join(ROOT, ".next/BUILD_ID")) && fs.existsSync(hashFile) && fs.readFileSync(hashFile, "utf8").trim() === hash;
  if (fresh) return;
  execFileSync("npx", ["next", "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  fs.writeFileSync(hashFile, hash + "\n");
}

export interface DashboardServer {
  url: string;
  email: string;
  password: string;
  apiKey: string;
  server?: QuireServer;
  stop(): Promise<void>;
}

/**
 * The full server (API + dashboard) for the e2e tests: built once, started on a free port with
 * a temporary DATA_DIR and a first-run admin. E2E_BASE_URL (+ E2E_EMAIL, E2E_PASSWORD,
 * E2E_API_KEY) reuses a server that is already running instead.
 */
export async function startDashboardServer(opts: { env?: Record<string, string> } = {}): Promise<DashboardServer> {
  if (process.env.E2E_BASE_URL) {
    return {
      url: process.env.E2E_BASE_URL.replace(/\/+$/, ""),
      email: process.env.E2E_EMAIL ?? "admin@quire.local",
      password: process.env.E2E_PASSWORD ?? "",
      apiKey: process.env.E2E_API_KEY ?? "",
      stop: async () => {},
    };
  }
  buildIfStale();
  const server = await startQuire({ dashboard: true, env: { SESSION_MAX_AGE: "3600", NEXTAUTH_SECRET: crypto.randomBytes(24).toString("hex"), ...opts.env } });
  return { url: server.url, email: server.adminEmail, password: server.adminPassword, apiKey: server.apiKey, server, stop: () => server.stop() };
}
