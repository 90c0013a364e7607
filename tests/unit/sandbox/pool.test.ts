import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { QuireError } from "@/lib/core/errors";
import {
  createSandboxPool,
  readRssKb,
  type SandboxPool,
  type SandboxPoolOptions,
  type SandboxRunOptions,
} from "@/lib/jobs/sandbox/pool";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const childModule = path.join(fixtures, "child.ts");
const noFetch: SandboxRunOptions["fetchUrl"] = async () => {
  throw new QuireError(400, "no fetch in this test");
};

let workDir: string;
const pools: SandboxPool[] = [];
const logs: string[] = [];

function pool(opts: Partial<SandboxPoolOptions> = {}) {
  const p = createSandboxPool({
    size: 2,
    timeoutMs: 10_000,
    memoryMb: 256,
    childModule,
    logger: (l) => logs.push(l),
    ...opts,
  });
  pools.push(p);
  return p;
}

function job(opId: string, params: unknown = {}) {
  return { opId, params, sources: [], workDir };
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected the run to fail");
}

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-sandbox-"));
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe("sandbox pool", () => {
  let shared: SandboxPool;
  beforeAll(() => {
    shared = pool({ size: 2 });
  });

  it("runs a runner in a child process and returns its result", async () => {
    const messages: string[] = [];
    const result = await shared.run(
      {
        opId: "echo",
        params: { text: "Page 1" },
        sources: [
          {
            path: "/x/a.pdf",
            name: "a.pdf",
            contentType: "application/pdf",
            size: 3,
            url: "https://e.example/a.pdf",
          },
        ],
        workDir,
      },
      { fetchUrl: noFetch, log: (m) => messages.push(m) },
    );
    expect(result.pageCount).toBe(1);
    expect(result.outputs).toEqual([
      { path: path.join(workDir, "echo.txt"), name: "echo.txt", contentType: "text/plain" },
    ]);
    expect(fs.readFileSync(path.join(workDir, "echo.txt"), "utf8")).toBe("Page 1");
    expect(result.fields).toMatchObject({ params: { text: "Page 1" }, workDir, when: new Date(0) });
    expect((result.fields!.sources as unknown[])[0]).toMatchObject({ name: "a.pdf" });
    expect(result.fields!.pid).not.toBe(process.pid);
    expect(messages).toEqual(["echo: Page 1"]);
  });

  it("re-throws a QuireError of the runner with its status and message", async () => {
    const e = await failure(shared.run(job("throws-api-error"), { fetchUrl: noFetch }));
    expect(e).toBeInstanceOf(QuireError);
    expect(e).toMatchObject({ status: 449, message: "pages: page 14 is past the last page (12)" });
  });

  it("turns any other error into a 500 and logs its stack once", async () => {
    const before = logs.length;
    const e = await failure(shared.run(job("throws-error"), { fetchUrl: noFetch }));
    expect(e).toBeInstanceOf(QuireError);
    expect((e as QuireError).status).toBe(500);
    expect((e as QuireError).message).not.toContain("boom");
    const logged = logs.slice(before).filter((l) => l.includes("boom: something internal broke"));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("throws-error.ts");
  });

  it("serves ctx.fetchUrl from the parent through a file in workDir", async () => {
    const asked: string[] = [];
    const result = await shared.run(job("fetch-url", { url: "https://files.example/logo.png" }), {
      fetchUrl: async (url) => {
        asked.push(url);
        return { bytes: Buffer.from("PNG bytes"), contentType: "image/png", name: "logo.png" };
      },
    });
    expect(asked).toEqual(["https://files.example/logo.png"]);
    expect(result.fields).toEqual({ text: "PNG bytes", size: 9, contentType: "image/png", name: "logo.png" });
    expect(fs.readdirSync(workDir).filter((f) => f.startsWith(".fetched-"))).toEqual([]);
  });

  it("passes a QuireError of fetchUrl to the runner (and back)", async () => {
    const e = await failure(
      shared.run(job("fetch-url", { url: "http://10.0.0.5/x.png" }), {
        fetchUrl: async () => {
          throw new QuireError(403, "url: 10.0.0.5 is a private address; Quire only fetches public addresses");
        },
      }),
    );
    expect(e).toMatchObject({
      status: 403,
      message: "url: 10.0.0.5 is a private address; Quire only fetches public addresses",
    });
  });

  it("kills a job past its wall time (408) and keeps serving", async () => {
    const started = Date.now();
    const e = await failure(shared.run(job("spin-forever"), { fetchUrl: noFetch, timeoutMs: 500 }));
    expect(e).toBeInstanceOf(QuireError);
    expect(e).toMatchObject({ status: 408, message: "the operation took longer than 0.5 s" });
    expect(Date.now() - started).toBeLessThan(3000);
    const next = await shared.run(job("echo", { text: "after" }), { fetchUrl: noFetch });
    expect(next.fields!.params).toEqual({ text: "after" });
  });

  it("kills a job whose resident memory passes the cap (Buffers outside the V8 heap) and recovers", async () => {
    const e = await failure(shared.run(job("memory-hog"), { fetchUrl: noFetch }));
    expect(e).toBeInstanceOf(QuireError);
    expect(e).toMatchObject({ status: 413, message: "the operation used more than 256 MB" });
    const next = await shared.run(job("echo", { text: "still here" }), { fetchUrl: noFetch });
    expect(next.fields!.params).toEqual({ text: "still here" });
  });

  it("stops a job that fills the V8 heap (413)", async () => {
    const e = await failure(shared.run(job("heap-hog"), { fetchUrl: noFetch }));
    expect(e).toMatchObject({ status: 413, message: "the operation used more than 256 MB" });
  });

  it.each([
    ["exits", "a runner that exits the process"],
    ["uncaught", "a runner that throws outside its promise"],
  ])("answers 500 for %s (%s) and replaces the child", async (opId) => {
    const e = await failure(shared.run(job(opId), { fetchUrl: noFetch }));
    expect(e).toBeInstanceOf(QuireError);
    expect((e as QuireError).status).toBe(500);
    const next = await shared.run(job("echo", { text: "ok" }), { fetchUrl: noFetch });
    expect(next.fields!.params).toEqual({ text: "ok" });
  });

  it("answers 500 for an id without a runner", async () => {
    const e = await failure(shared.run(job("no-such-runner"), { fetchUrl: noFetch }));
    expect((e as QuireError).status).toBe(500);
  });

  it("runs two jobs at once with size 2", async () => {
    // Earlier tests crashed children on purpose: wait until both replacements are warm.
    for (let i = 0; i < 600 && shared.stats().ready < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(shared.stats().ready).toBe(2);
    const [a, b] = await Promise.all([
      shared.run(job("burn", { ms: 800 }), { fetchUrl: noFetch }),
      shared.run(job("burn", { ms: 800 }), { fetchUrl: noFetch }),
    ]);
    expect(a.fields!.pid).not.toBe(b.fields!.pid);
    // Overlapping runs: each started before the other ended.
    expect(a.fields!.start as number).toBeLessThan(b.fields!.end as number);
    expect(b.fields!.start as number).toBeLessThan(a.fields!.end as number);
  });

  it("keeps the parent's event loop responsive while two jobs burn CPU", async () => {
    // Run in-process, these jobs would block the loop for 1.5 s. In children, a 10 ms timer keeps
    // ticking on time. The machine may be shared (CI, other test files), so the bound is on the
    // 95th percentile; the worst tick must still be far below one blocked job.
    const late: number[] = [];
    let last = performance.now();
    const interval = setInterval(() => {
      const now = performance.now();
      late.push(now - last - 10);
      last = now;
    }, 10);
    try {
      await Promise.all([
        shared.run(job("burn", { ms: 1500 }), { fetchUrl: noFetch }),
        shared.run(job("burn", { ms: 1500 }), { fetchUrl: noFetch }),
      ]);
    } finally {
      clearInterval(interval);
    }
    late.sort((a, b) => a - b);
    // Had the 2 × 1.5 s of CPU run on this event loop, the timer would have stalled for 1.5 s at
    // least. The bounds are loose on purpose: latency figures belong to `npm run bench`, and a
    // loaded CI machine must not make this test flaky.
    // Enough ticks to judge by: on a loaded machine a 10 ms timer fires every 15 ms or so, which
    // is still on time for this purpose (the bounds on lateness below are what matter).
    expect(late.length).toBeGreaterThan(50);
    expect(late[Math.floor(late.length * 0.95)]).toBeLessThan(100);
    expect(late[late.length - 1]).toBeLessThan(600);
  });

  it("kills a running job when its signal aborts, and drops a queued one", async () => {
    const ac = new AbortController();
    const queuedAc = new AbortController();
    const running = failure(shared.run(job("spin-forever"), { fetchUrl: noFetch, signal: ac.signal }));
    const running2 = failure(shared.run(job("spin-forever"), { fetchUrl: noFetch, signal: ac.signal }));
    const queued = failure(shared.run(job("echo"), { fetchUrl: noFetch, signal: queuedAc.signal }));
    await new Promise((r) => setTimeout(r, 300));
    expect(shared.stats().queued).toBe(1);
    queuedAc.abort(new Error("caller went away"));
    expect(await queued).toMatchObject({ message: "caller went away" });
    const reason = new Error("job cancelled");
    ac.abort(reason);
    expect(await running).toBe(reason);
    expect(await running2).toBe(reason);
    const next = await shared.run(job("echo", { text: "fresh" }), { fetchUrl: noFetch });
    expect(next.fields!.params).toEqual({ text: "fresh" });
    const pre = new AbortController();
    pre.abort(new Error("already"));
    expect(await failure(shared.run(job("echo"), { fetchUrl: noFetch, signal: pre.signal }))).toMatchObject({
      message: "already",
    });
  });
});

describe("sandbox pool (own pools)", () => {
  it("queues jobs FIFO when every child is busy", async () => {
    const p = pool({ size: 1 });
    const done: string[] = [];
    await Promise.all(
      ["a", "b", "c", "d"].map((id) =>
        p
          .run(job("sleep", { ms: 30, id }), { fetchUrl: noFetch })
          .then((r) => done.push(r.fields!.id as string)),
      ),
    );
    expect(done).toEqual(["a", "b", "c", "d"]);
  });

  it("recycles a child after K jobs", async () => {
    const p = pool({ size: 1, recycleAfter: 2 });
    const pids: number[] = [];
    for (let i = 0; i < 3; i++)
      pids.push((await p.run(job("echo"), { fetchUrl: noFetch })).fields!.pid as number);
    expect(pids[0]).toBe(pids[1]);
    expect(pids[2]).not.toBe(pids[1]);
    expect(p.stats().started).toBe(2);
  });

  it("fails running and queued jobs on close, and refuses new ones", async () => {
    const p = pool({ size: 1 });
    const running = failure(p.run(job("sleep", { ms: 5000, id: "x" }), { fetchUrl: noFetch }));
    const queued = failure(p.run(job("echo"), { fetchUrl: noFetch }));
    await new Promise((r) => setTimeout(r, 100));
    await p.close();
    expect(await running).toMatchObject({ status: 500 });
    expect(await queued).toMatchObject({ status: 500 });
    expect(await failure(p.run(job("echo"), { fetchUrl: noFetch }))).toMatchObject({ status: 500 });
  });

  it("reads the resident set of a process", async () => {
    const kb = await readRssKb(process.pid);
    if (fs.existsSync("/proc/self/status")) expect(kb).toBeGreaterThan(1000);
  });
});
