import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// A real embedded database (PGlite) in a temporary DATA_DIR, as the server would have.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-storage-"));
process.env.DATA_DIR = dataDir;
process.env.PUBLIC_URL = "http://127.0.0.1:9";

const store = await import("@/lib/storage/local-store");
const { closeDb } = await import("@/lib/db/client");

beforeAll(() => fs.mkdirSync(path.join(dataDir, "work"), { recursive: true }));
afterAll(async () => {
  await closeDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function output(name: string, expiresAt: Date) {
  const src = path.join(dataDir, "work", name);
  fs.writeFileSync(src, `bytes of ${name}`);
  return store.storeOutput({ accountId: "00000000-0000-0000-0000-000000000000", jobId: "j1", srcPath: src, name, contentType: "text/plain", expiresAt });
}

describe("local storage (signed links, expiry)", () => {
  it("signed links resolve to the stored file; a tampered or expired link does not", async () => {
    const o = await output("keep.txt", new Date(Date.now() + 60_000));
    const own = await store.resolveOwnFile(o.url);
    expect(own && fs.readFileSync(own.path, "utf8")).toBe("bytes of keep.txt");
    expect(await store.resolveOwnFile(o.url.replace(/sig=[^&]+/, "sig=x"))).toBeNull();
    const u = new URL(o.url);
    expect(store.parseStorageLink(u.pathname, new URLSearchParams({ exp: "1", sig: u.searchParams.get("sig")! }), "get")).toBeNull();
  });

  it("the sweeper deletes expired outputs (row and bytes) and keeps live ones", async () => {
    const gone = await output("old.txt", new Date(Date.now() - 1000));
    const kept = await output("new.txt", new Date(Date.now() + 60_000));
    const goneId = new URL(gone.url).pathname.split("/")[2];
    const keptId = new URL(kept.url).pathname.split("/")[2];
    expect(fs.existsSync(path.join(dataDir, "files", goneId))).toBe(true);
    expect(await store.sweepExpiredFiles()).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(path.join(dataDir, "files", goneId))).toBe(false);
    expect(await store.getFileRow(goneId)).toBeNull();
    expect(fs.existsSync(path.join(dataDir, "files", keptId, "new.txt"))).toBe(true);
  });

  it("file names are made safe for paths and headers", () => {
    expect(store.safeFileName("../../etc/passwd")).toBe("passwd");
    expect(store.safeFileName('a"b\nc.pdf')).toBe("a_b_c.pdf");
    expect(store.safeFileName("..")).toBe("file");
  });
});
