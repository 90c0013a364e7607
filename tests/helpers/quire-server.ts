import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import crypto from "node:crypto";
import pg from "pg";
import { checkAnswer } from "./response-check";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface QuireServer {
  url: string;
  port: number;
  apiKey: string;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  databaseUrl?: string;
  mode: "pglite" | "postgres";
  /** Process id of the server (the web process, not its sandbox children). */
  pid(): number;
  stdout(): string;
  /**
   * JSON request with the admin key (or `key: null` for none). Every JSON answer is checked against
   * the schema its route or operation declares (tests/helpers/response-check.ts): drift fails the test.
   */
  api(p: string, init?: { method?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string>; key?: string | null }): Promise<{ status: number; body: any; headers: Headers }>;
  cli(args: string[]): Promise<{ code: number; out: string }>;
  /** Runs a TypeScript file of the repository with the server's environment (while it is stopped, for PGlite). */
  script(file: string, args: string[]): Promise<{ code: number; out: string }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the server again, optionally with some settings changed. */
  restart(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
    s.on("error", reject);
  });
}

/** A fresh PostgreSQL database for one server when QUIRE_TEST_PG_URL is set (the PostgreSQL pass). */
export async function createPgDatabase(): Promise<string | undefined> {
  const base = process.env.QUIRE_TEST_PG_URL;
  if (!base) return undefined;
  const name = `quire_t_${crypto.randomBytes(5).toString("hex")}`;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function dropPgDatabase(url: string) {
  const base = process.env.QUIRE_TEST_PG_URL!;
  const name = new URL(url).pathname.slice(1);
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`).catch(() => {});
  await c.end();
}

/**
 * Starts Quire's real server (API only, DASHBOARD=false unless asked) as a child process on a
 * free loopback port, with its own DATA_DIR, and reads the first-run API key from its output.
 */
export async function startQuire(
  opts: { env?: Record<string, string>; dashboard?: boolean; unsetEnv?: string[]; databaseUrl?: string } = {},
): Promise<QuireServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-test-"));
  const databaseUrl = opts.databaseUrl ?? (await createPgDatabase());
  const ownsDatabase = !opts.databaseUrl;
  const adminEmail = "admin@test.local";
  const adminPassword = "correct horse battery";
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DASHBOARD: opts.dashboard ? "true" : "false",
    QUIRE_ADMIN_EMAIL: adminEmail,
    QUIRE_ADMIN_PASSWORD: adminPassword,
    QUIRE_ROOT: ROOT,
    WORKERS: "2",
    LOG_LEVEL: "warn",
    NODE_ENV: opts.dashboard ? "production" : "test",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...opts.env,
  };
  for (const k of opts.unsetEnv ?? []) delete env[k];
  delete env.VITEST;
  delete env.VITEST_POOL_ID;
  delete env.VITEST_WORKER_ID;
  let child: ChildProcess;
  let out = "";
  const launch = async () => {
    out = out ? out + "\n--- restart ---\n" : "";
    const from = out.length;
    child = spawn(process.execPath, ["--import", "tsx", "--import", "./scripts/node-hooks.mjs", "lib/server/main.ts"], {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    const deadline = Date.now() + 90_000;
    while (!out.slice(from).includes("Quire is listening")) {
      if (child.exitCode !== null) throw new Error(`Quire exited (${child.exitCode}):\n${out}`);
      if (Date.now() > deadline) throw new Error(`Quire did not start in time:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await launch();
  const key = /API key:\s+(qk_\S+)/.exec(out)?.[1];
  if (!key) throw new Error(`no first-run API key in the output:\n${out}`);
  const url = `http://127.0.0.1:${port}`;
  const server: QuireServer = {
    url,
    port,
    apiKey: key,
    dataDir,
    adminEmail,
    adminPassword,
    databaseUrl,
    mode: databaseUrl ? "postgres" : "pglite",
    pid: () => child.pid!,
    stdout: () => out,
    async api(p, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (init.key !== null) headers["x-api-key"] = init.key ?? key;
      let body = init.body;
      if (init.json !== undefined) {
        headers["content-type"] ??= "application/json";
        body = JSON.stringify(init.json);
      }
      const method = init.method ?? (body ? "POST" : "GET");
      const r = await fetch(url + p, { method, headers, body });
      const text = await r.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      checkAnswer(method, p, r.status, parsed);
      return { status: r.status, body: parsed, headers: r.headers };
    },
    async cli(args) {
      return server.script("lib/server/cli.ts", args);
    },
    async script(file, args) {
      return new Promise((resolve) => {
        const c = spawn(process.execPath, ["--import", "tsx", "--import", "./scripts/node-hooks.mjs", file, ...args], {
          cwd: ROOT,
          env: { ...env } as NodeJS.ProcessEnv,
        });
        let o = "";
        c.stdout.on("data", (d) => (o += d));
        c.stderr.on("data", (d) => (o += d));
        c.on("exit", (code) => resolve({ code: code ?? 1, out: o }));
      });
    },
    async kill(signal = "SIGKILL") {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill(signal);
      await exited;
    },
    async restart(changes) {
      Object.assign(env, changes ?? {});
      await launch();
    },
    async stop() {
      await server.kill("SIGTERM");
      if (databaseUrl && ownsDatabase) await dropPgDatabase(databaseUrl);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** Polls /v1/job/check until the status is not `working`. */
export async function waitForJob(q: QuireServer, jobId: string, timeoutMs = 60_000, key?: string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await q.api(`/v1/job/check?jobid=${jobId}`, { key });
    if (r.body.status !== "working") return r.body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still working after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 200));
  }
}
