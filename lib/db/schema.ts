import {
  bigint,
  doublePrecision,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/** One PostgreSQL schema for PGlite (embedded) and PostgreSQL (scaled out). */

export const accounts = pgTable("accounts", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  /** Cached sum of the ledger; changed only together with a ledger row, in one statement/transaction. */
  balance: bigint("balance", { mode: "number" }).notNull().default(0),
  /** Standard Webhooks secret (whsec_...) used to sign this account's callbacks. */
  webhookSecret: text("webhook_secret").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  accountId: uuid("account_id")
    .notNull()
    .references(() => accounts.id),
  email: text("email").notNull().unique(),
  name: text("name").notNull().default(""),
  /** scrypt$N$r$p$salt$hash */
  passwordHash: text("password_hash").notNull(),
  role: text("role", { enum: ["admin", "user"] }).notNull().default("user"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    /** First characters of the key, safe to show ("qk_1a2b3c4d…"). */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored (except `dashboard` keys, encrypted). */
    hash: text("hash").notNull().unique(),
    /** "user": made by a person; "dashboard": used by the proxy on the account's behalf. */
    kind: text("kind", { enum: ["user", "dashboard"] }).notNull().default("user"),
    /** Only for dashboard keys: AES-GCM encrypted with the server secret. */
    encryptedSecret: text("encrypted_secret"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId)],
);

/** Append-only credits ledger: grant (+), reserve (−), capture (− extra, or 0), release (+ reserve back). */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    kind: text("kind", { enum: ["grant", "reserve", "extend", "capture", "release"] }).notNull(),
    amount: integer("amount").notNull(),
    jobId: text("job_id"),
    operation: text("operation"),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("credit_ledger_job_kind_uq").on(t.jobId, t.kind).where(sql`${t.jobId} is not null`),
    index("credit_ledger_account_idx").on(t.accountId, t.createdAt),
  ],
);

export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    apiKeyId: uuid("api_key_id"),
    operation: text("operation").notNull(),
    path: text("path").notNull(),
    status: text("status", { enum: ["working", "success", "failed", "aborted"] }).notNull(),
    isAsync: boolean("is_async").notNull(),
    /** Where the request came from: "api" or "dashboard". */
    via: text("via").notNull().default("api"),
    source: text("source"),
    /** The validated request, secrets removed (passwords, keys). Re-runs use `requestFull`. */
    request: jsonb("request").notNull(),
    /** The full validated params for the worker (secrets encrypted with the server secret). */
    payload: text("payload").notNull(),
    /** The job-check result once finished (the response body a sync caller would get). */
    result: jsonb("result"),
    message: text("message"),
    credits: integer("credits").notNull().default(0),
    pageCount: integer("page_count"),
    callbackUrl: text("callback_url"),
    /** For async jobs: the final output URL promised in the first answer. */
    promisedUrl: text("promised_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    durationMs: integer("duration_ms"),
    /** The process running the job now (lib/jobs/lease.ts): its instance id, renewed by heartbeat. */
    owner: text("owner"),
    /** Last heartbeat of `owner`; a working job whose heartbeat is older than JOB_LEASE_MS is orphaned. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
  },
  (t) => [
    index("jobs_account_created_idx").on(t.accountId, t.createdAt),
    // ACCOUNT_MAX_CONCURRENT_JOBS counts an account's working jobs on every submission.
    index("jobs_account_working_idx").on(t.accountId).where(sql`${t.status} = 'working'`),
  ],
);

export const files = pgTable(
  "files",
  {
    id: text("id").primaryKey(),
    accountId: uuid("account_id"),
    kind: text("kind", { enum: ["upload", "output"] }).notNull(),
    name: text("name").notNull(),
    contentType: text("content_type").notNull().default("application/octet-stream"),
    size: bigint("size", { mode: "number" }).notNull().default(0),
    /** True once the bytes are on disk (presigned uploads start false). */
    complete: boolean("complete").notNull().default(false),
    jobId: text("job_id"),
    /** Who may fetch it by token (/v1/file/download/{token}): its account only, or anyone. */
    access: text("access", { enum: ["private", "public"] }).notNull().default("private"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("files_expires_idx").on(t.expiresAt), index("files_account_created_idx").on(t.accountId, t.createdAt)],
);

export const callbackDeliveries = pgTable(
  "callback_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    jobId: text("job_id").notNull(),
    url: text("url").notNull(),
    attempt: integer("attempt").notNull(),
    ok: boolean("ok").notNull(),
    httpStatus: integer("http_status"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("callback_deliveries_job_idx").on(t.jobId)],
);

/** Dashboard: named classification rule sets per account. */
export const ruleSets = pgTable(
  "rule_sets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    rules: text("rules").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("rule_sets_account_name_uq").on(t.accountId, t.name)],
);

/** Dashboard: the upstream API the proxy talks to (absent = Quire's own engine). */
export const upstreams = pgTable("upstreams", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => accounts.id),
  baseUrl: text("base_url").notNull(),
  /** AES-GCM encrypted with the server secret. */
  apiKeyEncrypted: text("api_key_encrypted").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Dashboard: sign-in attempts for rate limiting. */
export const signInAttempts = pgTable(
  "sign_in_attempts",
  {
    key: text("key").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.key, t.at] })],
);

/** Token buckets of the API rate limit, shared by every node (PostgreSQL mode). */
export const rateBuckets = pgTable("rate_buckets", {
  key: text("key").primaryKey(),
  tokens: doublePrecision("tokens").notNull(),
  /** Whether the last take found a token (read back in the same statement). */
  ok: boolean("ok").notNull().default(true),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Idempotency-Key of job-creating calls: the answer kept for replays until it expires. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: uuid("account_id").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the request (path, parameters, files): a reuse with another request is refused. */
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["pending", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);

/**
 * Templates of an account: HTML templates (Mustache, rendered by HTML → PDF's `templateId`) and
 * document parser templates (`/v1/pdf/documentparser`'s `templateId`). Ids are integers as the
 * public API has them; the built-in system templates take the ids below 100.
 */
export const templates = pgTable(
  "templates",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity({ startWith: 100 }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    kind: text("kind", { enum: ["html", "documentparser"] }).notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    body: text("body").notNull(),
    /** Sample data the dashboard previews the template with (HTML templates: JSON text). */
    testJson: text("test_json").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("templates_account_kind_idx").on(t.accountId, t.kind)],
);

/**
 * Dashboard sign-in sessions, server-side: the session cookie (a next-auth JWT) names one row by
 * `id`; signing out, or an administrator, revokes it, and a revoked or expired row signs the
 * cookie out everywhere at once.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * The data store (`/v1/data/store`, `/v1/data/store/webhook`): small JSON documents an account
 * keeps under a key of its choice (`jobid`), typically the answer a callback delivered, to read
 * back later. One row per account and key; writing again replaces it. docs/files.md.
 */
export const dataStore = pgTable(
  "data_store",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    key: text("key").notNull(),
    /** The stored JSON text, as received (at most DATA_STORE_MAX_BYTES). */
    body: text("body").notNull(),
    size: integer("size").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);
