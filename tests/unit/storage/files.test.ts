import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startS3, type TestS3 } from "@/tests/helpers/s3-server";

// A real embedded database (PGlite) in a temporary DATA_DIR, as the server would have, and a
// real S3-compatible server on loopback for the S3 backend.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-storage-"));
process.env.DATA_DIR = dataDir;
process.env.PUBLIC_URL = "http://127.0.0.1:9";
process.env.UPLOAD_MAX_BYTES = String(64 * 1024);

const store = await import("@/lib/storage/local-store");
const { getObjectStore, resetObjectStoreForTests } = await import("@/lib/storage/object-store");
const { resetConfigForTests } = await import("@/lib/core/config");
const { closeDb } = await import("@/lib/db/client");

let s3: TestS3;
const S3_KEYS = [
  "S3_ENDPOINT",
  "S3_BUCKET",
  "S3_REGION",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_FORCE_PATH_STYLE",
  "S3_PRESIGN",
];

function useBackend(kind: "local" | "s3" | "s3-streamed") {
  for (const k of S3_KEYS) delete process.env[k];
  if (kind !== "local") Object.assign(process.env, s3.env, { S3_PRESIGN: kind === "s3" ? "true" : "false" });
  resetConfigForTests();
  resetObjectStoreForTests();
}

beforeAll(async () => {
  fs.mkdirSync(path.join(dataDir, "work"), { recursive: true });
  s3 = await startS3();
});
afterAll(async () => {
  await closeDb();
  await s3.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ACCOUNT = "00000000-0000-0000-0000-000000000000";

async function output(name: string, expiresAt: Date, text = `bytes of ${name}`) {
  const src = path.join(dataDir, "work", name);
  fs.writeFileSync(src, text);
  return store.storeOutput({
    accountId: ACCOUNT,
    jobId: "j1",
    srcPath: src,
    name,
    contentType: "text/plain",
    expiresAt,
  });
}

describe.each(["local", "s3", "s3-streamed"] as const)("stored files on the %s backend", (kind) => {
  beforeAll(() => useBackend(kind));

  it("storeOutputs: 70 parts stored in order with their sizes, the work files taken, every link resolving", async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const inputs = Array.from({ length: 70 }, (_, i) => {
      const srcPath = path.join(dataDir, "work", `part-${kind}-${i}.txt`);
      fs.writeFileSync(srcPath, `part ${i}`.repeat(i + 1));
      return { accountId: ACCOUNT, jobId: "j-many", srcPath, name: `part-${i}.txt`, contentType: "text/plain", expiresAt };
    });
    const stored = await store.storeOutputs(inputs);
    expect(stored.map((s) => s.name)).toEqual(inputs.map((i) => i.name));
    expect(stored.map((s) => s.size)).toEqual(inputs.map((_, i) => `part ${i}`.repeat(i + 1).length));
    for (const i of [0, 33, 69]) {
      const own = await store.resolveOwnFile(stored[i].url);
      expect((await own!.read()).toString()).toBe(`part ${i}`.repeat(i + 1));
      expect(fs.existsSync(inputs[i].srcPath)).toBe(false);
    }
  });

  it("an output link resolves to the stored bytes; a tampered link does not", async () => {
    const o = await output(`keep-${kind}.txt`, new Date(Date.now() + 60_000));
    const isQuireLink = o.url.startsWith("http://127.0.0.1:9/files/");
    expect(isQuireLink).toBe(kind !== "s3");
    if (kind === "s3") expect(o.url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
    const own = await store.resolveOwnFile(o.url);
    expect((await own!.read()).toString()).toBe(`bytes of keep-${kind}.txt`);
    const dest = path.join(dataDir, "work", `copy-${kind}`);
    await own!.saveTo(dest);
    expect(fs.readFileSync(dest, "utf8")).toBe(`bytes of keep-${kind}.txt`);
    const tampered = isQuireLink
      ? o.url.replace(/sig=[^&]+/, "sig=x")
      : o.url.replace(/\/[0-9a-f]{32}\//, `/${"0".repeat(32)}/`);
    expect(await store.resolveOwnFile(tampered)).toBeNull();
    if (isQuireLink) {
      const u = new URL(o.url);
      expect(
        store.parseStorageLink(
          u.pathname,
          new URLSearchParams({ exp: "1", sig: u.searchParams.get("sig")! }),
          "get",
        ),
      ).toBeNull();
    }
  });

  it("the presigned upload flow: PUT to the link, then the GET link and resolveOwnFile give the bytes back", async () => {
    const up = await store.createPendingUpload(ACCOUNT, `in-${kind}.pdf`, "application/pdf");
    expect(up.presignedUrl.startsWith(kind === "s3" ? s3.endpoint : "http://127.0.0.1:9/files/upload/")).toBe(
      true,
    );
    const bytes = Buffer.from(`%PDF-1.7 upload through ${kind}`);
    if (kind === "s3") {
      // Straight to the store: Quire is not on the path.
      const put = await fetch(up.presignedUrl, {
        method: "PUT",
        body: bytes,
        headers: { "content-type": "application/pdf" },
      });
      expect(put.status).toBe(200);
      const get = await fetch(up.url);
      expect(get.status).toBe(200);
      expect(get.headers.get("content-disposition")).toContain(`in-${kind}.pdf`);
      expect(Buffer.from(await get.arrayBuffer()).equals(bytes)).toBe(true);
      // A presigned URL whose signature was altered is refused by the store itself.
      const forged = await fetch(up.url.replace(/X-Amz-Signature=[0-9a-f]{6}/, "X-Amz-Signature=000000"));
      expect(forged.status).toBe(403);
    } else {
      await store.writeUpload(
        up.id,
        up.name,
        (async function* () {
          yield bytes;
        })(),
        "application/pdf",
      );
    }
    const own = await store.resolveOwnFile(up.url);
    expect(own?.row.complete).toBe(true);
    expect(own?.row.size).toBe(bytes.length);
    expect((await own!.read()).equals(bytes)).toBe(true);
  });

  it("a pending upload is not a source until its bytes arrived; a reserved output fills later", async () => {
    const up = await store.createPendingUpload(ACCOUNT, "later.pdf", "application/pdf");
    const r = await store.reserveOutput(
      ACCOUNT,
      "j2",
      "promised.json",
      "application/json",
      new Date(Date.now() + 60_000),
    );
    await expect(store.openStoredFile(r.id)).rejects.toMatchObject({ status: 404 });
    await store.fillReservedOutput(r.id, r.name, JSON.stringify({ ok: kind }), "application/json");
    const opened = await store.openStoredFile(r.id);
    const chunks: Buffer[] = [];
    for await (const c of opened.body!) chunks.push(c as Buffer);
    expect(JSON.parse(Buffer.concat(chunks).toString())).toEqual({ ok: kind });
  });

  it("an upload larger than UPLOAD_MAX_BYTES is refused while streaming and leaves nothing behind", async () => {
    const up = await store.createPendingUpload(ACCOUNT, "big.bin", "application/octet-stream");
    const max = 64 * 1024;
    const chunk = Buffer.alloc(16 * 1024);
    await expect(
      store.writeUpload(
        up.id,
        up.name,
        (async function* () {
          for (let n = 0; n <= max; n += chunk.length) yield chunk;
        })(),
      ),
    ).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/larger than 65536 bytes \(UPLOAD_MAX_BYTES\)/),
    });
    expect(await (await getObjectStore()).stat(`${up.id}/${up.name}`)).toBeNull();
    expect((await store.getFileRow(up.id))?.complete).toBe(false);
  });

  it("storeUpload streams a new upload in; renameUpload moves its object and gives the new link", async () => {
    const bytes = Buffer.from(`%PDF-1.7 stored through ${kind}`);
    const up = await store.storeUpload(
      ACCOUNT,
      "part.bin",
      "application/pdf",
      (async function* () {
        yield bytes;
      })(),
    );
    expect(up.size).toBe(bytes.length);
    const renamed = await store.renameUpload(up, "Annual report.pdf");
    expect(renamed.name).toBe("Annual report.pdf");
    const objects = await getObjectStore();
    expect(await objects.stat(`${up.id}/part.bin`)).toBeNull();
    expect((await store.resolveOwnFile(renamed.url))?.row.name).toBe("Annual report.pdf");
    expect((await (await store.resolveOwnFile(renamed.url))!.read()).equals(bytes)).toBe(true);
  });

  it("the sweeper deletes expired files (row and object) and keeps live ones", async () => {
    const gone = await output(`old-${kind}.txt`, new Date(Date.now() - 1000));
    const kept = await output(`new-${kind}.txt`, new Date(Date.now() + 60_000));
    const objects = await getObjectStore();
    expect(await objects.stat(`${gone.id}/${gone.name}`)).toEqual(
      expect.objectContaining({ size: gone.size }),
    );
    expect(await store.sweepExpiredFiles()).toBeGreaterThanOrEqual(1);
    expect(await objects.stat(`${gone.id}/${gone.name}`)).toBeNull();
    expect(await store.getFileRow(gone.id)).toBeNull();
    expect(await objects.stat(`${kept.id}/${kept.name}`)).toEqual(
      expect.objectContaining({ size: kept.size }),
    );
    if (kind === "local") {
      expect(fs.existsSync(path.join(dataDir, "files", gone.id))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, "files", kept.id, kept.name))).toBe(true);
    } else {
      expect(fs.existsSync(path.join(s3.dir, gone.id))).toBe(false);
      expect(fs.readdirSync(path.join(s3.dir, kept.id)).some((f) => f.startsWith(kept.name))).toBe(true);
    }
  });

  it("readiness: the store answers its check", async () => {
    await expect((await getObjectStore()).check()).resolves.toBeUndefined();
  });
});

describe("S3 backend settings", () => {
  it("an unreachable store fails its check", async () => {
    useBackend("s3");
    process.env.S3_ENDPOINT = "http://127.0.0.1:9";
    resetConfigForTests();
    resetObjectStoreForTests();
    await expect((await getObjectStore()).check()).rejects.toThrow();
    useBackend("local");
  });

  it("links longer than a presigned URL may live are Quire's own", async () => {
    useBackend("s3");
    const o = await output("long.txt", new Date(Date.now() + 8 * 24 * 3600_000));
    expect(o.url.startsWith("http://127.0.0.1:9/files/")).toBe(true);
    expect((await (await store.resolveOwnFile(o.url))!.read()).toString()).toBe("bytes of long.txt");
    useBackend("local");
  });

  it("file names are made safe for paths and headers", () => {
    expect(store.safeFileName("../../etc/passwd")).toBe("passwd");
    expect(store.safeFileName('a"b\nc.pdf')).toBe("a_b_c.pdf");
    expect(store.safeFileName("..")).toBe("file");
  });
});
