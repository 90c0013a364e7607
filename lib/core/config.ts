import "server-only";
import { z } from "zod";
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import net from "node:net";

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
  DATA_STORE_MAX_BYTES: z.coerce.number().int().min(1024).max(16 * 1024 * 1024).default(1024 * 1024),
  DATA_STORE_MAX_KEYS: z.coerce.number().int().min(1).default(10_000),
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
  TLS_CERT_FILE: z.string().optional(),
  TLS_KEY_FILE: z.string().optional(),
  HTTP_REDIRECT_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  TRUST_PROXY: z.string().default(""),
  WORKER_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // Empty counts as unset (compose passes `${METRICS_TOKEN:-}`).
  METRICS_TOKEN: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional()),
  LOG_FORMAT: z.enum(["text", "json"]).default("text"),
  RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).default(50),
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(200),
  ACCOUNT_MAX_CONCURRENT_JOBS: z.coerce.number().int().min(0).default(100),
  IDEMPOTENCY_KEY_HOURS: z.coerce.number().min(0.01).default(24),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().url("S3_ENDPOINT must be an absolute http(s) URL").optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag("false"),
  S3_PRESIGN: flag("true"),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9!_.*'()-]+\/)*$/, "S3_PREFIX: empty, or path segments each ending in / (e.g. quire/)")
    .default(""),
});

function flag(def: "true" | "false") {
  return z
    .enum(["true", "false", "1", "0"])
    .default(def)
    .transform((v) => v === "true" || v === "1");
}

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
  if (Boolean(e.TLS_CERT_FILE) !== Boolean(e.TLS_KEY_FILE)) {
    throw new Error("Quire: invalid configuration:\n  TLS_CERT_FILE and TLS_KEY_FILE go together (set both or neither)");
  }
  const tls = e.TLS_CERT_FILE ? { certFile: path.resolve(e.TLS_CERT_FILE), keyFile: path.resolve(e.TLS_KEY_FILE!) } : undefined;
  const publicUrl = (e.PUBLIC_URL ?? `${tls ? "https" : "http"}://localhost:${e.PORT}`).replace(/\/+$/, "");
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
    dataStoreMaxBytes: e.DATA_STORE_MAX_BYTES,
    dataStoreMaxKeys: e.DATA_STORE_MAX_KEYS,
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
    s3: e.S3_BUCKET ? s3Config(e) : undefined,
    tls,
    httpRedirectPort: e.HTTP_REDIRECT_PORT,
    workerPort: e.WORKER_PORT,
    metricsToken: e.METRICS_TOKEN,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logFormat: e.LOG_FORMAT,
    rateLimit: e.RATE_LIMIT_PER_SECOND > 0 ? { perSecond: e.RATE_LIMIT_PER_SECOND, burst: e.RATE_LIMIT_BURST } : undefined,
    /** Jobs an account may have running at once (0: no cap); checked when a job is submitted. */
    accountMaxConcurrentJobs: e.ACCOUNT_MAX_CONCURRENT_JOBS,
    idempotencyKeyHours: e.IDEMPOTENCY_KEY_HOURS,
  };
}

export interface TrustedProxies {
  /** The entries as configured (for the banner and docs). */
  entries: string[];
  /** Whether a peer address (IPv4, IPv6 or IPv4-mapped IPv6) is one of the trusted proxies. */
  has(address: string | undefined): boolean;
}

/**
 * TRUST_PROXY: comma-separated addresses and CIDRs of the reverse proxies whose
 * X-Forwarded-For/-Proto/-Host headers are believed (`loopback` and `private` name the usual
 * ranges). Empty: no proxy is trusted and those headers are ignored. The one parser of the
 * setting; everything that needs a client address or the public scheme goes through it.
 */
export function parseTrustProxy(value: string): TrustedProxies {
  const list = new net.BlockList();
  const entries = value.split(",").map((x) => x.trim()).filter(Boolean);
  const add = (entry: string) => {
    const [addr, bits] = entry.split("/");
    const type = net.isIPv6(addr) ? "ipv6" : net.isIPv4(addr) ? "ipv4" : null;
    if (!type) throw new Error(`Quire: invalid configuration:\n  TRUST_PROXY: ${entry} is not an IP address or CIDR (nor loopback/private)`);
    if (bits === undefined) list.addAddress(addr, type);
    else {
      const n = Number(bits);
      if (!Number.isInteger(n) || n < 0 || n > (type === "ipv4" ? 32 : 128)) throw new Error(`Quire: invalid configuration:\n  TRUST_PROXY: bad prefix length in ${entry}`);
      list.addSubnet(addr, n, type);
    }
  };
  for (const entry of entries) {
    if (entry === "loopback") ["127.0.0.0/8", "::1/128"].forEach(add);
    else if (entry === "private") ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"].forEach(add);
    else add(entry);
  }
  return {
    entries,
    has(address) {
      if (!address || entries.length === 0) return false;
      const a = address.startsWith("::ffff:") && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
      const type = net.isIPv4(a) ? "ipv4" : net.isIPv6(a) ? "ipv6" : null;
      return type ? list.check(a, type) : false;
    },
  };
}

/**
 * The S3-compatible store, when S3_BUCKET is set. Credentials: S3_ACCESS_KEY_ID and
 * S3_SECRET_ACCESS_KEY, else the AWS SDK's own chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY,
 * a profile, an instance or task role).
 */
function s3Config(e: z.infer<typeof envSchema>) {
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new Error("Quire: invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (set both or neither)");
  }
  return {
    bucket: e.S3_BUCKET!,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION ?? process.env.AWS_REGION ?? "us-east-1",
    credentials: e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    presign: e.S3_PRESIGN,
    prefix: e.S3_PREFIX,
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

/** For tests: forget the configuration read so far (the next getConfig() reads the environment again). */
export function resetConfigForTests() {
  g.__quireConfig = undefined;
  g.__quireSecret = undefined;
}

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
  ["PUBLIC_URL", "(the address each request came to)", "Public base URL of output and upload links; unset, links follow the request's host and scheme (https with TLS or a trusted proxy's X-Forwarded-Proto)."],
  ["DATA_DIR", "./data", "Embedded database, stored files, generated secret, extra OCR languages."],
  ["DATABASE_URL", "(embedded PGlite)", "PostgreSQL connection string for the scaled-out mode."],
  ["NEXTAUTH_SECRET", "(generated in DATA_DIR)", "Secret for sessions, signed links and stored keys; required in production with DATABASE_URL."],
  ["OUTPUT_LINK_DEFAULT_MINUTES", "60", "Default `expiration` of output links."],
  ["OUTPUT_LINK_MAX_MINUTES", "10080", "Largest `expiration` a caller may ask for."],
  ["UPLOAD_LINK_MINUTES", "1440", "Lifetime of uploaded files and their links."],
  ["SOURCE_MAX_BYTES", "104857600", "Largest source file Quire downloads (bytes, counted while streaming)."],
  ["SOURCE_TIMEOUT_MS", "60000", "Time limit for downloading a source URL."],
  ["UPLOAD_MAX_BYTES", "209715200", "Largest upload accepted."],
  ["DATA_STORE_MAX_BYTES", "1048576", "Largest value one `/v1/data/store` entry holds (JSON text, bytes); more → 413."],
  ["DATA_STORE_MAX_KEYS", "10000", "Entries one account may keep in the data store; a new one past it → 413."],
  ["SYNC_TIMEOUT_MS", "120000", "How long a synchronous call waits before answering 445 (use async)."],
  ["JOB_TIMEOUT_MS", "900000", "Wall-time cap of one operation run (sandboxed child process)."],
  ["JOB_MEMORY_MB", "2048", "Memory cap (resident set) of one operation run."],
  ["PREVIEW_TIMEOUT_MS", "15000", "Wall-time cap of rendering one page of the dashboard's PDF preview (sandboxed, 408 past it)."],
  ["JOB_HEARTBEAT_MS", "10000", "How often a process renews the lease of the jobs it runs."],
  ["JOB_LEASE_MS", "60000", "A working job whose owner has not renewed its lease for this long is orphaned: async jobs go back to the queue, synchronous ones fail uncharged."],
  ["JOB_DEADLINE_MS", "(JOB_TIMEOUT_MS + 300000)", "Hard end of one job (downloads, run, storing): past it the job fails (408), whoever runs it."],
  ["SHUTDOWN_GRACE_MS", "25000", "On SIGTERM, how long running jobs may finish before async ones are handed back to the queue and synchronous ones fail."],
  ["MAX_PAGES", "10000", "Pages of one document an operation accepts; more → 413 before any work."],
  ["WORK_MAX_INFLATED_MB", "512", "Bytes a PDF's compressed streams may inflate to (decompression bombs) → 413 before any work."],
  ["SIGN_IN_MAX_FAILURES", "5", "Failed sign-ins per e-mail and address before that address waits (doubling); 4× as many per address over all e-mails."],
  ["SESSION_CHECK_CACHE_MS", "5000", "How long one process trusts a checked dashboard session before asking the database again (sign-out elsewhere takes effect within it)."],
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
  ["OCR_ENGINE", "auto", "auto: the native `tesseract` command when installed, else tesseract.js; native requires it; wasm always uses tesseract.js."],
  ["TESSDATA_PREFIX", "(Debian's folders)", "Where the native Tesseract's .traineddata files are (Tesseract's own variable)."],
  ["OCR_WORKERS", "(by CPUs and JOB_MEMORY_MB)", "Tesseract workers per sandboxed run (each ~450 MB at most)."],
  ["SESSION_MAX_AGE", "28800", "Dashboard sessions end after this many seconds without activity."],
  ["OIDC_ISSUER", "(off)", "OpenID Connect issuer URL; with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET it enables single sign-on."],
  ["OIDC_CLIENT_ID", "(off)", "OpenID Connect client id."],
  ["OIDC_CLIENT_SECRET", "(off)", "OpenID Connect client secret."],
  ["OIDC_NAME", "Single sign-on", "Label of the single sign-on button."],
  ["LOG_LEVEL", "info", "debug, info, warn, error or silent."],
  ["TLS_CERT_FILE", "(none: plain HTTP)", "PEM certificate (chain) file: Quire serves HTTPS itself, HTTP/2 and HTTP/1.1 (SIGHUP reloads it)."],
  ["TLS_KEY_FILE", "(none)", "PEM private key of that certificate."],
  ["HTTP_REDIRECT_PORT", "(off)", "With TLS: also listen on this plain-HTTP port, answering only redirects to https."],
  ["TRUST_PROXY", "(empty: none)", "Addresses/CIDRs of trusted reverse proxies (also `loopback`, `private`): their X-Forwarded-For/-Proto/-Host give the client address and the public scheme."],
  ["WORKER_PORT", "(off)", "`npm run worker` also listens here (plain HTTP, HOST) for /healthz, /readyz and /metrics."],
  ["METRICS_TOKEN", "(none: loopback only)", "Bearer token that /metrics requires; unset, only clients on the same machine may read it."],
  ["LOG_FORMAT", "text", "text, or json for one JSON object per line (with requestId and jobId)."],
  ["RATE_LIMIT_PER_SECOND", "50", "Sustained API requests per second per API key (token bucket; 0 = no limit); past it 429 with Retry-After."],
  ["RATE_LIMIT_BURST", "200", "Requests a key may make at once before the per-second rate applies."],
  ["ACCOUNT_MAX_CONCURRENT_JOBS", "100", "Jobs one account may have running at once (0 = no cap); more are refused with 429 at submission."],
  ["IDEMPOTENCY_KEY_HOURS", "24", "How long the answer to a call with an Idempotency-Key is kept for replays."],
  ["S3_BUCKET", "(local disk)", "Store uploads and outputs in this S3-compatible bucket instead of DATA_DIR/files (needed with several nodes)."],
  ["S3_ENDPOINT", "(AWS S3)", "Endpoint of an S3-compatible store (MinIO, Ceph, R2...), e.g. http://minio:9000."],
  ["S3_REGION", "us-east-1 (or AWS_REGION)", "Region of the bucket."],
  ["S3_ACCESS_KEY_ID", "(AWS_ACCESS_KEY_ID, or the SDK's chain)", "Access key of the store."],
  ["S3_SECRET_ACCESS_KEY", "(AWS_SECRET_ACCESS_KEY, or the SDK's chain)", "Secret key of the store."],
  ["S3_FORCE_PATH_STYLE", "false", "Path-style URLs (http://host/bucket/key); most self-hosted stores (MinIO) need true."],
  ["S3_PRESIGN", "true", "Hand out presigned PUT/GET URLs of the store itself (false: every byte goes through Quire's /files links, for stores clients cannot reach)."],
  ["S3_PREFIX", "(empty)", "Key prefix inside the bucket, e.g. quire/ (segments ending in /)."],
  ["IMAGE_MAX_PIXELS", "100000000", "Pixels per image any operation accepts (an image file, a TIFF page, an image inside a PDF, a rendered page), checked before decoding; more: 413 with the same message everywhere."],
  ["IMAGE_MAX_PAGES", "1000", "Pages (images, TIFF frames) images → PDF accepts; more: 413."],
  ["SHEET_MAX_ROWS", "1048576", "Rows per worksheet a spreadsheet operation reads; more: 413."],
  ["SHEET_MAX_CELLS", "5000000", "Cells per workbook a spreadsheet operation reads; more: 413."],
  ["SHEET_MAX_UNCOMPRESSED_BYTES", "209715200", "Bytes a spreadsheet (a zip) may inflate to; more: 413."],
  ["SHEET_MAX_ZIP_ENTRIES", "10000", "Entries in a spreadsheet's zip; more: 413."],
  ["SHEET_MAX_ZIP_RATIO", "1000", "Inflated ÷ compressed size of one entry of a spreadsheet's zip (zip bombs); more: 413."],
  ["BROWSER_CONCURRENCY", "2", "Pages Chromium renders at once per process (web page → PDF, HTML → PDF)."],
  ["BROWSER_RESTART_AFTER", "50", "Chromium is restarted after this many jobs."],
  ["BROWSER_LAUNCH_TIMEOUT_MS", "30000", "How long Chromium may take to start."],
  ["WEBPAGE_TIMEOUT_MS", "90000", "Whole time a web page → PDF job may take; past it 408."],
  ["WEBPAGE_LOAD_TIMEOUT_MS", "30000", "How long a page may take to load before it is printed as it is."],
  ["WEBPAGE_IDLE_MS", "100", "A page is printed once no request has been in flight for this long (after the load event)."],
  ["WEBPAGE_SETTLE_MS", "5000", "After the load event, how long Quire waits for the network to go quiet."],
  ["WEBPAGE_REQUEST_TIMEOUT_MS", "30000", "Time per sub-resource request of a page."],
  ["WEBPAGE_MAX_REQUESTS", "1000", "Sub-resource requests one page may make; more: 400."],
  ["WEBPAGE_MAX_RESPONSE_BYTES", "52428800", "Bytes of one sub-resource response, once decoded; more: 413."],
  ["WEBPAGE_MAX_BYTES", "104857600", "Bytes of all a page's sub-resources together; more: 413."],
  ["INVOICE_LLM_URL", "(off)", "Optional OpenAI-compatible chat endpoint the invoice parser asks for fields the page's layout leaves open (goes through the egress guard)."],
  ["INVOICE_LLM_KEY", "(none)", "Bearer key of that endpoint."],
  ["INVOICE_LLM_MODEL", "gpt-4o-mini", "Model name sent to that endpoint."],
  ["INVOICE_LLM_TIMEOUT_MS", "60000", "How long one call to that endpoint may take."],
  ["OFFICE_TIMEOUT_MS", "120000", "Wall time of one LibreOffice conversion (office documents → PDF); past it 408."],
  ["OFFICE_MEMORY_MB", "2048", "Address-space cap of LibreOffice; a conversion that needs more fails with 442 naming the limit."],
  ["OFFICE_MAX_OUTPUT_MB", "512", "Largest file LibreOffice may write."],
  ["OFFICE_MAX_UNCOMPRESSED_BYTES", "536870912", "Zip-based office documents: total declared inflated size; more: 413."],
  ["OFFICE_MAX_ZIP_ENTRIES", "10000", "Zip-based office documents: parts; more: 413."],
  ["OFFICE_MAX_ZIP_RATIO", "1000", "Zip-based office documents: inflated ÷ compressed size of a large part; more: 413."],
  ["OFFICE_SPARE_IDLE_MS", "600000", "How long a LibreOffice started ahead of the next office job waits for it (each serves one job, then is killed); 0: every job starts its own."],
  ["OFFICE_NETWORK_ISOLATION", "(auto)", "off: run LibreOffice without a network namespace (links still blocked by a closed proxy)."],
  ["SOFFICE_PATH", "(found on PATH)", "The LibreOffice launcher."],
  ["EMAIL_MAX_BYTES", "52428800", "Largest e-mail (.eml/.msg) e-mail → PDF and the e-mail operations read; more: 413."],
];

/**
 * Environment variables the code reads that are not settings for operators (set by Quire's own
 * scripts, by the platform, or for tests), each with the reason; the config-docs test requires
 * every variable the code reads to be either here or in `configDocs`.
 */
export const internalEnv: Record<string, string> = {
  NODE_ENV: "set by npm start (production) and the test runner",
  QUIRE_ROOT: "set by scripts/env.sh: the checkout's root",
  QUIRE_DEV: "set by npm run dev",
  QUIRE_COMPILED: "set by npm start: run the compiled server from dist/",
  QUIRE_SANDBOX_CHILD: "set by the sandbox pool in its child processes",
  QUIRE_TEST_HOOKS: "tests only: enables the sandbox child's forced-trap hook (docs/security.md); never set in production",
  QUIRE_INTERNAL_URL: "set by the server for the dashboard's route handlers (the API's loopback address)",
  QUIRE_MUPDF_LOG: "debugging: MuPDF's warnings on stderr",
  QUIRE_SKIP_APT: "scripts/env.sh: skip the Debian package check",
  NEXTAUTH_URL: "set by the server for Auth.js from PUBLIC_URL",
  TSX_TSCONFIG_PATH: "set by the scripts for tsx",
  AWS_REGION: "the AWS SDK's own fallback for S3_REGION",
  AWS_ACCESS_KEY_ID: "the AWS SDK's own fallback for S3_ACCESS_KEY_ID",
  AWS_SECRET_ACCESS_KEY: "the AWS SDK's own fallback for S3_SECRET_ACCESS_KEY",
  CI: "set by CI systems",
  QUIRE_PLAIN_WALK: "debugging: read words and plain-text lines through MuPDF.js's public API (its walk, its JSON) instead of the raw reads (to compare them)",
  PATH: "the system's search path (for finding soffice)",
  VITEST: "set by the test runner",
};
