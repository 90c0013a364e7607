import "server-only";
import path from "node:path";
import fs from "node:fs";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { getConfig } from "@/lib/core/config";
import { enableEmbeddedCache } from "@/lib/db/embedded-cache";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs raw SQL with parameters; used by pg-boss and for statements Drizzle does not express. */
export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: any[] }>;

interface DbHandle {
  db: Db;
  exec: SqlExecutor;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

const g = globalThis as unknown as { __quireDb?: Promise<DbHandle> };

/**
 * The process-wide database: PGlite under DATA_DIR/pgdata by default, PostgreSQL when
 * DATABASE_URL is set. Opened lazily (never at import or build time), migrated once, and kept
 * on globalThis so Next's bundles and the custom server share the one PGlite instance.
 */
export function getDbHandle(): Promise<DbHandle> {
  g.__quireDb ??= openDb().catch((e) => {
    g.__quireDb = undefined;
    throw e;
  });
  return g.__quireDb;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Closes the database (tests, graceful shutdown). */
export async function closeDb() {
  const h = g.__quireDb;
  g.__quireDb = undefined;
  if (h) await (await h).close();
}

const migrationsFolder = () => path.join(process.env.QUIRE_ROOT ?? process.cwd(), "lib/db/migrations");

async function openDb(): Promise<DbHandle> {
  const cfg = getConfig();
  if (cfg.databaseUrl) {
    const { Pool } = (await import("pg")).default;
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new Pool({ connectionString: cfg.databaseUrl, max: 20 });
    const db = drizzle(pool, { schema }) as unknown as Db;
    // Several nodes may start at once: migrate under an advisory lock.
    const client = await pool.connect();
    try {
      await client.query("select pg_advisory_lock(727172)");
      await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query("select pg_advisory_unlock(727172)").catch(() => {});
      client.release();
    }
    return {
      db,
      kind: "postgres",
      exec: async (text, values) => pool.query(text, values as unknown[]),
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = path.join(cfg.dataDir, "pgdata");
  fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsFolder() });
  enableEmbeddedCache();
  return {
    db,
    kind: "pglite",
    exec: async (text, values) => {
      if (values && values.length) return client.query(text, values as any[]);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    close: () => client.close(),
  };
}
