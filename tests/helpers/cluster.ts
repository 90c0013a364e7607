import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPgDatabase, dropPgDatabase, freePort } from "./quire-server";
import { startS3, type TestS3 } from "./s3-server";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface Node {
  name: string;
  kind: "web" | "worker";
  url?: string;
  pid: number;
  dataDir: string;
  /** Everything the process printed so far. */
  output(): string;
  /** JSON log lines (LOG_FORMAT=json) printed so far. */
  logs(): Array<Record<string, unknown>>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  exited(): boolean;
}

export interface Cluster {
  databaseUrl: string;
  s3: TestS3;
  apiKey: string;
  web: Node[];
  workers: Node[];
  /** The environment every node shares (database, bucket, secret). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * N web nodes (RUN_WORKERS=false) and M `npm run worker` processes on one fresh PostgreSQL
 * database and one S3 bucket (s3rver), each with its own DATA_DIR: nothing is shared but the
 * database and the bucket, as on separate machines.
 */
export async function startCluster(opts: {
  web: number;
  workers: number;
  env?: Record<string, string>;
  webEnv?: Record<string, string>;
  workerEnv?: Record<string, string>;
  compiled?: boolean;
}): Promise<Cluster> {
  const databaseUrl = await createPgDatabase();
  if (!databaseUrl) throw new Error("startCluster needs QUIRE_TEST_PG_URL (PostgreSQL)");
  const s3 = await startS3();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: databaseUrl,
    NEXTAUTH_SECRET: crypto.randomBytes(24).toString("base64url"),
    ...s3.env,
    DASHBOARD: "false",
    QUIRE_ADMIN_EMAIL: "admin@test.local",
    QUIRE_ADMIN_PASSWORD: "correct horse battery",
    QUIRE_ROOT: ROOT,
    WORKERS: "1",
    LOG_LEVEL: "info",
    LOG_FORMAT: "json",
    NODE_ENV: "production",
    ...opts.env,
  };
  for (const k of ["VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID", "PUBLIC_URL"]) delete env[k];
  const nodes: Node[] = [];
  const launch = async (kind: "web" | "worker", name: string): Promise<Node> => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quire-${name}-`));
    const port = kind === "web" ? await freePort() : undefined;
    const nodeEnv = {
      ...env,
      DATA_DIR: dataDir,
      ...(kind === "web"
        ? { PORT: String(port), HOST: "127.0.0.1", RUN_WORKERS: "false", ...opts.webEnv }
        : opts.workerEnv),
      ...(opts.compiled ? { QUIRE_COMPILED: "1" } : {}),
    };
    const entry = kind === "web" ? "main" : "worker-main";
    const args = opts.compiled
      ? ["--enable-source-maps", `dist/lib/server/${entry}.js`]
      : ["--import", "tsx", "--import", "./scripts/node-hooks.mjs", `lib/server/${entry}.ts`];
    const child: ChildProcess = spawn(process.execPath, args, {
      cwd: ROOT,
      env: nodeEnv as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    const ready = kind === "web" ? "Quire is listening" : "Quire worker started";
    const deadline = Date.now() + 90_000;
    while (!out.includes(ready)) {
      if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${out}`);
      if (Date.now() > deadline) throw new Error(`${name} did not start in time:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const node: Node = {
      name,
      kind,
      url: port ? `http://127.0.0.1:${port}` : undefined,
      pid: child.pid!,
      dataDir,
      output: () => out,
      logs: () =>
        out
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .flatMap((l) => {
            try {
              return [JSON.parse(l) as Record<string, unknown>];
            } catch {
              return [];
            }
          }),
      async kill(signal = "SIGTERM") {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const gone = new Promise((r) => child.once("exit", r));
        child.kill(signal);
        await gone;
      },
      exited: () => child.exitCode !== null || child.signalCode !== null,
    };
    nodes.push(node);
    return node;
  };
  // The first node meets the empty database and prints the admin's key; the rest start together.
  const first = await launch("web", "web-1");
  const apiKey = /API key:\s+(qk_\S+)/.exec(first.output())?.[1];
  if (!apiKey) throw new Error(`no first-run API key:\n${first.output()}`);
  const rest = await Promise.all([
    ...Array.from({ length: opts.web - 1 }, (_, i) => launch("web", `web-${i + 2}`)),
    ...Array.from({ length: opts.workers }, (_, i) => launch("worker", `worker-${i + 1}`)),
  ]);
  const all = [first, ...rest];
  return {
    databaseUrl,
    s3,
    apiKey,
    web: all.filter((n) => n.kind === "web"),
    workers: all.filter((n) => n.kind === "worker"),
    env,
    async stop() {
      await Promise.all(nodes.map((n) => n.kill("SIGTERM")));
      await dropPgDatabase(databaseUrl);
      await s3.stop();
      for (const n of nodes) fs.rmSync(n.dataDir, { recursive: true, force: true });
    },
  };
}
