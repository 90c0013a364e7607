import "server-only";
import { z } from "zod";
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";

/**
 * Every setting of Quire, read from the environment and validated once at start-up.
 * The README's configuration table mirrors `configDocs` below (a test keeps them in step).
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_URL: z.string().url("PUBLIC_URL must be an absolute http(s) URL").optional(),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  NEXTAUTH_SECRET: z.string().min(16, "NEXTAUTH_SECRET must be at least 16 characters").optional(),
  NODE_ENV: z.string().optional(),
  OUTPUT_LINK_DEFAULT_MINUTES: z.coerce.number().int().min(1).default(60),
  OUTPUT_LINK_MAX_MINUTES: z.coerce.number().int().min(1).default(60 * 24 * 7),
  UPLOAD_LINK_MINUTES: z.coerce.number().int().min(1).default(60 * 24),
  SOURCE_MAX_BYTES: z.coerce.number().int().min(1024).default(100 * 1024 * 1024),
  SOURCE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(200 * 1024 * 1024),
  SYNC_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  JOB_TIMEOUT_MS: z.coerce.number().int().min(100).default(15 * 60_000),
  PREVIEW_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  SESSION_MAX_AGE: z.coerce.number().int().min(60).default(8 * 60 * 60),
  JOB_MEMORY_MB: z.coerce.number().int().min(256, "JOB_MEMORY_MB: at least 256 (an idle sandbox child uses ~72 MB)").default(2048),
  WORKERS: z.coerce.number().int().min(0).max(64).default(2),
  QUEUE_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  RUN_WORKERS: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  DASHBOARD: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  NEW_ACCOUNT_CREDITS: z.coerce.number().int().min(0).default(10_000),
  QUIRE_ADMIN_EMAIL: z.string().email().default("admin@quire.local"),
  QUIRE_ADMIN_PASSWORD: z.string().min(8).optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Config = ReturnType<typeof buildConfig>;

function buildConfig(env: NodeJS.ProcessEnv) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Quire: invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const embedded = !e.DATABASE_URL;
  const production = e.NODE_ENV === "production";
  if (!embedded && production && !e.NEXTAUTH_SECRET) {
    throw new Error(
      "Quire: NEXTAUTH_SECRET is required in production with an external DATABASE_URL (every node must share it).",
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    publicUrlExplicit: Boolean(e.PUBLIC_URL),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    embedded,
    production,
    nextAuthSecretFromEnv: e.NEXTAUTH_SECRET,
    outputLinkDefaultMinutes: e.OUTPUT_LINK_DEFAULT_MINUTES,
    outputLinkMaxMinutes: e.OUTPUT_LINK_MAX_MINUTES,
    uploadLinkMinutes: e.UPLOAD_LINK_MINUTES,
    sourceMaxBytes: e.SOURCE_MAX_BYTES,
    sourceTimeoutMs: e.SOURCE_TIMEOUT_MS,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    syncTimeoutMs: e.SYNC_TIMEOUT_MS,
    jobTimeoutMs: e.JOB_TIMEOUT_MS,
    jobMemoryMb: e.JOB_MEMORY_MB,
    previewTimeoutMs: e.PREVIEW_TIMEOUT_MS,
    sessionMaxAge: e.SESSION_MAX_AGE,
    workers: e.WORKERS,
    queueConcurrency: e.QUEUE_CONCURRENCY,
    runWorkers: e.RUN_WORKERS,
    dashboard: e.DASHBOARD,
    newAccountCredits: e.NEW_ACCOUNT_CREDITS,
    adminEmail: e.QUIRE_ADMIN_EMAIL,
    adminPassword: e.QUIRE_ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
  };
}

/**
 * A positive number from the environment, read now (not cached: tests and the sandbox child set
 * them at run time); `fallback` when unset, not a number or not above zero. The one reader of
 * numeric settings outside the schema above; each name it reads has a row in `configDocs`.
 */
export function envNumber(name: string, fallback: number, opts: { integer?: boolean } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (opts.integer !== false && !Number.isInteger(n))) return fallback;
  return n;
}

const g = globalThis as unknown as { __quireConfig?: Config; __quireSecret?: string };

/** The validated configuration (read once per process). */
export function getConfig(): Config {
  g.__quireConfig ??= buildConfig(process.env);
  return g.__quireConfig;
}

/**
 * The server secret: NEXTAUTH_SECRET, or (embedded mode) one generated on first start and kept
 * in DATA_DIR/secret. It signs storage URLs and sessions and encrypts stored upstream keys.
 */
export function getServerSecret(): string {
  if (g.__quireSecret) return g.__quireSecret;
  const cfg = getConfig();
  if (cfg.nextAuthSecretFromEnv) return (g.__quireSecret = cfg.nextAuthSecretFromEnv);
  const file = path.join(cfg.dataDir, "secret");
  fs.mkdirSync(cfg.dataDir, { recursive: true });
  try {
    g.__quireSecret = fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = crypto.randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
      g.__quireSecret = secret;
    } catch {
      g.__quireSecret = fs.readFileSync(file, "utf8").trim();
    }
  }
  return g.__quireSecret!;
}

/** Rows of the README's configuration table. */
export const configDocs: Array<[name: string, def: string, meaning: string]> = [
  ["PORT", "3000", "Port of the HTTP server (API, storage links and dashboard)."],
  ["HOST", "0.0.0.0", "Interface to listen on."],
  ["PUBLIC_URL", "http://localhost:PORT", "Public base URL; output and upload links are built from it (https behind a TLS proxy)."],
  ["DATA_DIR", "./data", "Embedded database, stored files, generated secret, extra OCR languages."],
  ["DATABASE_URL", "(embedded PGlite)", "PostgreSQL connection string for the scaled-out mode."],
  ["NEXTAUTH_SECRET", "(generated in DATA_DIR)", "Secret for sessions, signed links and stored keys; required in production with DATABASE_URL."],
  ["OUTPUT_LINK_DEFAULT_MINUTES", "60", "Default `expiration` of output links."],
  ["OUTPUT_LINK_MAX_MINUTES", "10080", "Largest `expiration` a caller may ask for."],
  ["UPLOAD_LINK_MINUTES", "1440", "Lifetime of uploaded files and their links."],
  ["SOURCE_MAX_BYTES", "104857600", "Largest source file Quire downloads (bytes, counted while streaming)."],
  ["SOURCE_TIMEOUT_MS", "60000", "Time limit for downloading a source URL."],
  ["UPLOAD_MAX_BYTES", "209715200", "Largest upload accepted."],
  ["SYNC_TIMEOUT_MS", "120000", "How long a synchronous call waits before answering 445 (use async)."],
  ["JOB_TIMEOUT_MS", "900000", "Wall-time cap of one operation run (sandboxed child process)."],
  ["JOB_MEMORY_MB", "2048", "Memory cap (resident set) of one operation run."],
  ["PREVIEW_TIMEOUT_MS", "15000", "Wall-time cap of rendering one page of the dashboard's PDF preview (sandboxed, 408 past it)."],
  ["WORKERS", "2", "Sandboxed child processes doing document work in this process (0 = none)."],
  ["QUEUE_CONCURRENCY", "4", "Background jobs taken from the queue at once by this process."],
  ["RUN_WORKERS", "true", "Whether this web process also works the background queue (false for web-only nodes)."],
  ["DASHBOARD", "true", "Serve the Next.js dashboard (false = API only)."],
  ["NEW_ACCOUNT_CREDITS", "10000", "Credits granted to accounts created by the first start and the CLI."],
  ["QUIRE_ADMIN_EMAIL", "admin@quire.local", "Sign-in of the admin account created on first start."],
  ["QUIRE_ADMIN_PASSWORD", "(generated, printed once)", "Password of that admin account."],
  ["EGRESS_ALLOW", "(empty)", "Comma-separated CIDRs/hosts/host:port that source downloads and callbacks may reach even if private."],
  ["CHROMIUM_PATH", "(auto: /usr/bin/chromium)", "Chromium executable for web page → PDF."],
  ["OCR_LANG_DIR", "DATA_DIR/tessdata", "Extra Tesseract .traineddata files (languages beyond eng and fra)."],
  ["OCR_WORKERS", "(by CPUs and JOB_MEMORY_MB)", "Tesseract workers per sandboxed run (each ~450 MB at most)."],
  ["SESSION_MAX_AGE", "28800", "Dashboard sessions end after this many seconds without activity."],
  ["OIDC_ISSUER", "(off)", "OpenID Connect issuer URL; with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET it enables single sign-on."],
  ["OIDC_CLIENT_ID", "(off)", "OpenID Connect client id."],
  ["OIDC_CLIENT_SECRET", "(off)", "OpenID Connect client secret."],
  ["OIDC_NAME", "Single sign-on", "Label of the single sign-on button."],
  ["LOG_LEVEL", "info", "debug, info, warn, error or silent."],
];
