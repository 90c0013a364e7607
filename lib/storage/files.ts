import "server-only";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, desc, eq, gt, inArray, lt } from "drizzle-orm";
import { getConfig } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { publicBaseUrl } from "@/lib/core/request-context";
import { log } from "@/lib/core/log";
import { getDb } from "@/lib/db/client";
import { files } from "@/lib/db/schema";
import { isSignatureValid, signValue } from "@/lib/auth/secret-box";
import { getObjectStore } from "./object-store";
import { isInlineType } from "./object-store";

/**
 * Stored files: uploads and outputs are rows in `files` (owner, name, type, expiry) with their
 * bytes in the object store (local disk under DATA_DIR/files, or an S3-compatible bucket).
 * Callers get links: Quire's own signed, expiring /files URLs, or, when the store hands them
 * out (S3_PRESIGN), the store's presigned URLs, so bytes go straight between client and store.
 * A sweeper deletes expired rows and their objects.
 */

export type FileRow = typeof files.$inferSelect;

function filesRoot() {
  return path.join(getConfig().dataDir, "files");
}

/** A name safe for a path segment and a Content-Disposition header. */
export function safeFileName(name: string, fallback = "file"): string {
  const base = path
    .basename(name.replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f/"]/g, "_")
    .trim();
  const clipped = base.slice(-180);
  return clipped === "" || clipped === "." || clipped === ".." ? fallback : clipped;
}

/** Where a file's bytes are on local disk (the local store only). */
export function filePath(id: string, name: string) {
  return path.join(filesRoot(), id, safeFileName(name));
}

function objectKey(id: string, name: string) {
  return `${id}/${safeFileName(name)}`;
}

function newId() {
  return crypto.randomBytes(16).toString("hex");
}

function linkSig(id: string, name: string, exp: number, verb: "get" | "put") {
  return signValue(`${verb}:${id}/${name}/${exp}`, "storage");
}

/** Quire's own GET link of a stored file (served at /files/...). */
function fileUrl(id: string, name: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  const n = safeFileName(name);
  return `${publicBaseUrl()}/files/${id}/${encodeURIComponent(n)}?exp=${exp}&sig=${linkSig(id, n, exp, "get")}`;
}

/** Quire's own PUT link of a pending upload. */
function uploadUrl(id: string, name: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  const n = safeFileName(name);
  return `${publicBaseUrl()}/files/upload/${id}/${encodeURIComponent(n)}?exp=${exp}&sig=${linkSig(id, n, exp, "put")}`;
}

/** Whether the store's own presigned URLs can stand for a link that lives until `expiresAt`. */
async function presigner(expiresAt: Date) {
  const store = await getObjectStore();
  const p = store.presign;
  return p && expiresAt.getTime() - Date.now() <= p.maxSeconds * 1000 ? p : undefined;
}

/** The GET link handed to callers: presigned by the store when it can, else Quire's own. */
async function getLink(id: string, name: string, contentType: string, expiresAt: Date): Promise<string> {
  const p = await presigner(expiresAt);
  if (!p) return fileUrl(id, name, expiresAt);
  return p.get(
    objectKey(id, name),
    { name: safeFileName(name), contentType, inline: isInlineType(contentType) },
    expiresAt,
  );
}

export interface ParsedLink {
  id: string;
  name: string;
  exp: number;
  verb: "get" | "put";
}

/** Checks a storage link (path + query); null when it is not a valid, unexpired Quire link. */
export function parseStorageLink(
  pathname: string,
  search: URLSearchParams,
  verb: "get" | "put",
): ParsedLink | null {
  const m =
    verb === "put"
      ? /^\/files\/upload\/([0-9a-f]{32})\/([^/]+)$/.exec(pathname)
      : /^\/files\/([0-9a-f]{32})\/([^/]+)$/.exec(pathname);
  if (!m) return null;
  let name: string;
  try {
    name = decodeURIComponent(m[2]);
  } catch {
    return null;
  }
  const exp = Number(search.get("exp"));
  const sig = search.get("sig") ?? "";
  if (!Number.isFinite(exp) || exp * 1000 < Date.now()) return null;
  if (!isSignatureValid(`${verb}:${m[1]}/${name}/${exp}`, sig, "storage")) return null;
  return { id: m[1], name, exp, verb };
}

/** A stored file found behind one of Quire's links, readable from the store. */
export interface OwnFile {
  row: FileRow;
  /** Copies the bytes to a local file (the sandbox reads files on disk). */
  saveTo(destPath: string): Promise<void>;
  /** The bytes at a local path without a copy where the store can (a hard link): only read it. */
  linkTo(destPath: string): Promise<void>;
  read(): Promise<Buffer>;
  /** A stream of the bytes. */
  open(): Promise<Readable>;
}

/** The row and object key behind a Quire /files link or the store's presigned GET URL; null otherwise. */
/** The valid, unexpired Quire GET link in `url`, if it is one. */
function ownGetLink(url: string): ParsedLink | null {
  try {
    const u = new URL(url);
    return parseStorageLink(u.pathname, u.searchParams, "get");
  } catch {
    return null;
  }
}

async function findOwnLink(url: string): Promise<FileRow | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const link = ownGetLink(url);
  if (link) return getFileRow(link.id);
  const key = await (await getObjectStore()).presign?.keyOf(u);
  const m = key ? /^([0-9a-f]{32})\/([^/]+)$/.exec(key) : null;
  if (!m) return null;
  const row = await getFileRow(m[1]);
  return row && row.name === m[2] ? row : null;
}

/** Whether `url` is one of Quire's own GET links (valid or not): it is read from storage, never fetched. */
export async function isOwnLink(url: string): Promise<boolean> {
  return (await findOwnLink(url)) !== null;
}

/**
 * If `url` is one of Quire's own, valid GET links (its /files link or the store's presigned
 * URL), the stored file behind it, read from the store directly rather than over the network.
 */
export async function resolveOwnFile(url: string): Promise<OwnFile | null> {
  return ownFileOf(await findOwnLink(url));
}

/**
 * resolveOwnFile for many URLs at once (a merge of 50 files): Quire's /files links are looked up
 * in one query; the store's presigned URLs one by one. One entry per URL, null where it is none.
 */
export async function resolveOwnFiles(urls: string[]): Promise<Array<OwnFile | null>> {
  const links = urls.map(ownGetLink);
  const ids = [...new Set(links.flatMap((l) => (l ? [l.id] : [])))];
  const byId = new Map<string, FileRow>();
  if (ids.length > 0) {
    const db = await getDb();
    for (const row of await db.select().from(files).where(inArray(files.id, ids))) byId.set(row.id, row);
  }
  return Promise.all(
    urls.map((url, i) => {
      const link = links[i];
      return link ? ownFileOf(byId.get(link.id) ?? null) : resolveOwnFile(url);
    }),
  );
}

async function ownFileOf(found: FileRow | null): Promise<OwnFile | null> {
  if (!found || found.expiresAt.getTime() < Date.now()) return null;
  const row = await completeUpload(found);
  if (!row.complete) return null;
  await assertUnreplaced(row);
  const key = objectKey(row.id, row.name);
  const store = await getObjectStore();
  const missing = () => new QuireError(404, `the stored file ${row.name} is gone (expired or deleted)`);
  return {
    row,
    async saveTo(dest) {
      if (!(await store.saveTo(key, dest))) throw missing();
    },
    async linkTo(dest) {
      if (!(await (store.linkTo ? store.linkTo(key, dest) : store.saveTo(key, dest)))) throw missing();
    },
    async read() {
      const o = await store.open(key);
      if (!o) throw missing();
      const chunks: Buffer[] = [];
      for await (const c of o.body) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    },
    async open() {
      const o = await store.open(key);
      if (!o) throw missing();
      return o.body;
    },
  };
}

export async function getFileRow(id: string): Promise<FileRow | null> {
  const db = await getDb();
  const [row] = await db.select().from(files).where(eq(files.id, id)).limit(1);
  return row ?? null;
}

/**
 * A presigned PUT goes straight to the store, so Quire learns of it only by looking: the first
 * use of a pending upload checks the store and completes the row (size, type), refusing (and
 * deleting) an object larger than UPLOAD_MAX_BYTES, which a presigned PUT cannot cap.
 */
async function completeUpload(row: FileRow): Promise<FileRow> {
  if (row.complete || row.kind !== "upload") return row;
  const store = await getObjectStore();
  if (!store.presign) return row;
  const key = objectKey(row.id, row.name);
  const s = await store.stat(key);
  if (!s) return row;
  const max = getConfig().uploadMaxBytes;
  if (s.size > max) {
    await store.delete(key).catch(() => {});
    throw new QuireError(413, `the uploaded file ${row.name} is larger than ${max} bytes (UPLOAD_MAX_BYTES)`);
  }
  const contentType = s.contentType || row.contentType;
  // Sealed at first use: what a later PUT through the same link writes is refused (409).
  await store.presign.seal(key, uploadSeal(row.id), contentType);
  const db = await getDb();
  await db.update(files).set({ complete: true, size: s.size, contentType }).where(eq(files.id, row.id));
  return { ...row, complete: true, size: s.size, contentType };
}

/** The mark an upload's object carries once Quire has seen it (an HMAC of its id with the server secret). */
function uploadSeal(id: string): string {
  return signValue(id, "upload-seal");
}

/**
 * A presigned PUT link stays valid until it expires and the store cannot revoke it, so an upload
 * is single-use by inspection: an upload whose object lost its seal was replaced through its
 * link after Quire first used it, and is refused instead of read.
 */
async function assertUnreplaced(row: FileRow): Promise<void> {
  if (row.kind !== "upload" || !row.complete) return;
  const store = await getObjectStore();
  if (!store.presign) return;
  const seal = await store.presign.sealOf(objectKey(row.id, row.name));
  if (seal === null || seal === uploadSeal(row.id)) return; // gone: the caller answers 404
  log.warn(`upload ${row.id} was replaced through its presigned PUT link after its first use; refused`);
  throw new QuireError(
    409,
    `The uploaded file ${row.name} was replaced through its presigned upload link after it was first used; it is refused. Upload the file again with a new presigned URL.`,
  );
}

/**
 * Opens a stored file for a /files GET: its row and a stream of its bytes. 404 (with what to do)
 * when it expired, is not written yet or is gone.
 */
export async function openStoredFile(
  id: string,
): Promise<{ row: FileRow; body: Readable | null; size: number }> {
  const found = await getFileRow(id);
  if (!found || found.expiresAt.getTime() < Date.now())
    throw new QuireError(404, "This link has expired; the file was deleted.");
  const row = await completeUpload(found);
  if (!row.complete)
    throw new QuireError(
      404,
      "Not ready yet: the job that makes this file is still working (check /v1/job/check).",
    );
  await assertUnreplaced(row);
  const o = await (await getObjectStore()).open(objectKey(row.id, row.name));
  if (!o) throw new QuireError(404, "file not found");
  return { row, body: o.body, size: o.size };
}

/** Registers a pending upload (presigned flow) and returns its PUT and GET links. */
export async function createPendingUpload(accountId: string, name: string, contentType: string) {
  const cfg = getConfig();
  const id = newId();
  const n = safeFileName(name, "upload");
  const type = contentType || "application/octet-stream";
  const expiresAt = new Date(Date.now() + cfg.uploadLinkMinutes * 60_000);
  const db = await getDb();
  await db.insert(files).values({ id, accountId, kind: "upload", name: n, contentType: type, expiresAt });
  const p = await presigner(expiresAt);
  const presignedUrl = p ? await p.put(objectKey(id, n), expiresAt) : uploadUrl(id, n, expiresAt);
  return { id, name: n, presignedUrl, url: await getLink(id, n, type, expiresAt), expiresAt };
}

/** A temporary file beside the stores' own data (same file system, so a local store can rename it). */
async function spoolPath() {
  const dir = path.join(getConfig().dataDir, "tmp");
  await fsp.mkdir(dir, { recursive: true });
  return path.join(dir, `spool-${newId()}`);
}

/** Writes a stream to a pending upload, enforcing UPLOAD_MAX_BYTES while streaming. */
export async function writeUpload(
  id: string,
  name: string,
  body: AsyncIterable<Uint8Array>,
  contentType?: string,
): Promise<number> {
  const max = getConfig().uploadMaxBytes;
  // Spooled to disk first: the size is known before the store sees a byte, and a broken
  // upload never leaves a partial object behind.
  const tmp = await spoolPath();
  let size = 0;
  async function* counted() {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > max)
        throw new QuireError(413, `file: the upload is larger than ${max} bytes (UPLOAD_MAX_BYTES)`);
      yield chunk;
    }
  }
  try {
    await pipeline(Readable.from(counted()), fs.createWriteStream(tmp));
    const db = await getDb();
    const [row] = await db.select({ contentType: files.contentType }).from(files).where(eq(files.id, id));
    const type = contentType || row?.contentType || "application/octet-stream";
    await (await getObjectStore()).putFile(objectKey(id, name), tmp, type, { move: true, metadata: { "quire-seal": uploadSeal(id) } });
    await db
      .update(files)
      .set({ size, complete: true, ...(contentType ? { contentType } : {}) })
      .where(eq(files.id, id));
  } finally {
    await fsp.rm(tmp, { force: true });
  }
  return size;
}

/**
 * The one way a new upload reaches storage (multipart parts, base64 bodies, an operation's `file`
 * part): a pending row, then the bytes streamed to the store under UPLOAD_MAX_BYTES. On failure
 * nothing is left behind, neither row nor bytes.
 */
export async function storeUpload(
  accountId: string,
  name: string,
  contentType: string,
  body: AsyncIterable<Uint8Array>,
) {
  const up = await createPendingUpload(accountId, name, contentType);
  try {
    const size = await writeUpload(up.id, up.name, body, contentType || undefined);
    return { id: up.id, name: up.name, url: up.url, size, expiresAt: up.expiresAt };
  } catch (e) {
    await deleteFileRow(up.id).catch(() => {});
    throw e;
  }
}

/** Gives a stored upload another name (a `name` field that arrived after the file); returns its new link. */
export async function renameUpload(upload: { id: string; name: string; expiresAt: Date }, name: string) {
  const n = safeFileName(name, "upload");
  const row = await getFileRow(upload.id);
  const contentType = row?.contentType ?? "application/octet-stream";
  if (n !== upload.name) {
    await (await getObjectStore()).move(objectKey(upload.id, upload.name), objectKey(upload.id, n));
    const db = await getDb();
    await db.update(files).set({ name: n }).where(eq(files.id, upload.id));
  }
  return { name: n, url: await getLink(upload.id, n, contentType, upload.expiresAt) };
}

/** Stores an output file (taken from a job's work dir) and returns its row and link. */
export async function storeOutput(input: {
  accountId: string;
  jobId: string;
  srcPath: string;
  name: string;
  contentType: string;
  expiresAt: Date;
}) {
  const id = newId();
  const n = safeFileName(input.name, "result");
  const size = await (
    await getObjectStore()
  ).putFile(objectKey(id, n), input.srcPath, input.contentType, { move: true });
  const db = await getDb();
  await db.insert(files).values({
    id,
    accountId: input.accountId,
    kind: "output",
    name: n,
    contentType: input.contentType,
    size,
    complete: true,
    jobId: input.jobId,
    expiresAt: input.expiresAt,
  });
  return { id, name: n, size, url: await getLink(id, n, input.contentType, input.expiresAt) };
}

/**
 * storeOutput for many outputs at once (a split into hundreds of files): the objects are moved
 * into the store (local disk: synchronously, in short runs; else a few at a time) and the rows
 * inserted in batches, so 500 parts cost a handful
 * of round trips instead of 500. Results are in input order. When a put fails, the objects
 * already stored for this call are deleted and the error is thrown (no rows were written yet).
 */
export async function storeOutputs(
  inputs: { accountId: string; jobId: string; srcPath: string; name: string; contentType: string; expiresAt: Date }[],
  concurrency = 8,
) {
  if (inputs.length <= 1) return Promise.all(inputs.map((i) => storeOutput(i)));
  const store = await getObjectStore();
  const items = inputs.map((input) => ({ input, id: newId(), name: safeFileName(input.name, "result"), size: -1 }));
  let next = 0;
  let failed: unknown = null;
  if (store.moveFileSync) {
    // Local disk: 500 parts are 1500 tiny system calls; done synchronously in runs of 32 with the
    // event loop free in between, they take a fraction of the thread-pool round trips' time.
    for (const [i, it] of items.entries()) {
      it.size = store.moveFileSync(objectKey(it.id, it.name), it.input.srcPath) ?? -1;
      if (i % 32 === 31) await new Promise((r) => setImmediate(r));
    }
  }
  const pending = items.filter((it) => it.size < 0);
  const lanes = Array.from({ length: Math.min(concurrency, pending.length) }, async () => {
    while (next < pending.length && failed === null) {
      const it = pending[next++];
      try {
        it.size = await store.putFile(objectKey(it.id, it.name), it.input.srcPath, it.input.contentType, { move: true });
      } catch (e) {
        failed ??= e;
      }
    }
  });
  await Promise.all(lanes);
  if (failed !== null) {
    await Promise.all(items.filter((it) => it.size >= 0).map((it) => store.delete(objectKey(it.id, it.name)).catch(() => {})));
    throw failed;
  }
  const db = await getDb();
  for (let i = 0; i < items.length; i += 200) {
    await db.insert(files).values(
      items.slice(i, i + 200).map((it) => ({
        id: it.id,
        accountId: it.input.accountId,
        kind: "output" as const,
        name: it.name,
        contentType: it.input.contentType,
        size: it.size,
        complete: true,
        jobId: it.input.jobId,
        expiresAt: it.input.expiresAt,
      })),
    );
  }
  return Promise.all(
    items.map(async (it) => ({ id: it.id, name: it.name, size: it.size, url: await getLink(it.id, it.name, it.input.contentType, it.input.expiresAt) })),
  );
}

/** Reserves an output slot whose bytes come later (the async `url` promised before the job runs). */
export async function reserveOutput(
  accountId: string,
  jobId: string,
  name: string,
  contentType: string,
  expiresAt: Date,
) {
  const id = newId();
  const n = safeFileName(name, "result");
  const db = await getDb();
  await db
    .insert(files)
    .values({ id, accountId, kind: "output", name: n, contentType, jobId, expiresAt, complete: false });
  return { id, name: n, url: await getLink(id, n, contentType, expiresAt) };
}

/** Fills a reserved output slot with bytes. */
export async function fillReservedOutput(
  id: string,
  name: string,
  bytes: Buffer | string,
  contentType?: string,
) {
  const db = await getDb();
  const [row] = await db.select({ contentType: files.contentType }).from(files).where(eq(files.id, id));
  const buf = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
  await (
    await getObjectStore()
  ).putBytes(objectKey(id, name), buf, contentType ?? row?.contentType ?? "application/octet-stream");
  await db
    .update(files)
    .set({ complete: true, size: buf.length, ...(contentType ? { contentType } : {}) })
    .where(eq(files.id, id));
}

/**
 * Deletes expired files: objects first, then their rows, so an object whose delete failed keeps
 * its row and goes at the next sweep. Safe on several nodes at once (deleting twice is harmless).
 * Returns how many went.
 */
export async function sweepExpiredFiles(now = new Date(), batch = 500): Promise<number> {
  const db = await getDb();
  const store = await getObjectStore();
  let total = 0;
  for (;;) {
    const expired = await db
      .select({ id: files.id, name: files.name })
      .from(files)
      .where(lt(files.expiresAt, now))
      .limit(batch);
    if (expired.length === 0) return total;
    const deleted: string[] = [];
    for (let i = 0; i < expired.length; i += 16) {
      await Promise.all(
        expired.slice(i, i + 16).map(async (f) => {
          try {
            await store.delete(objectKey(f.id, f.name));
            deleted.push(f.id);
          } catch (e) {
            log.warn(`storage: could not delete expired file ${f.id}`, e);
          }
        }),
      );
    }
    if (deleted.length) await db.delete(files).where(inArray(files.id, deleted));
    total += deleted.length;
    if (deleted.length < expired.length || expired.length < batch) return total;
  }
}

export async function deleteFileRow(id: string) {
  const row = await getFileRow(id);
  if (!row) return;
  await (await getObjectStore()).delete(objectKey(row.id, row.name));
  const db = await getDb();
  await db.delete(files).where(eq(files.id, id));
}

// ---- the account's stored files (/v1/file/*): a file's token is its id --------------------------

/** A stored file as the account sees it, with a fresh link. */
export interface AccountFile {
  token: string;
  name: string;
  url: string;
  size: number;
  contentType: string;
  accessMode: "private" | "public";
  createdAt: string;
  expiresAt: string;
}

async function describeFile(row: FileRow): Promise<AccountFile> {
  return {
    token: row.id,
    name: row.name,
    url: await getLink(row.id, row.name, row.contentType, row.expiresAt),
    size: row.size,
    contentType: row.contentType,
    accessMode: row.access,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * The account's uploaded files that are stored and unexpired, newest first. A presigned upload
 * whose bytes went straight to the store is completed here (its size read from the store); one
 * never sent is left out.
 */
export async function listAccountFiles(accountId: string, opts: { limit?: number; offset?: number } = {}): Promise<AccountFile[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.accountId, accountId), eq(files.kind, "upload"), gt(files.expiresAt, new Date())))
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(Math.min(Math.max(opts.limit ?? 100, 1), 1000))
    .offset(Math.max(opts.offset ?? 0, 0));
  const done = await Promise.all(rows.map((r) => (r.complete ? r : completeUpload(r).catch(() => r))));
  return Promise.all(done.filter((r) => r.complete).map(describeFile));
}

/**
 * The account's own stored, unexpired file behind a token; null for any other (unknown, expired,
 * another account's), so the caller answers one 404 that reveals nothing.
 */
export async function findAccountFile(accountId: string, token: string): Promise<FileRow | null> {
  if (!/^[0-9a-f]{32}$/.test(token)) return null;
  const row = await getFileRow(token);
  if (!row || row.accountId !== accountId || row.expiresAt.getTime() < Date.now()) return null;
  const done = await completeUpload(row).catch(() => null);
  return done?.complete ? done : null;
}

/** The account's file behind one of Quire's links (its /files link, the store's presigned URL, or filetoken://TOKEN). */
export async function findAccountFileByUrl(accountId: string, url: string): Promise<FileRow | null> {
  const token = /^filetoken:\/\/([0-9a-f]{32})\/?$/i.exec(url.trim())?.[1];
  if (token) return findAccountFile(accountId, token.toLowerCase());
  const row = await findOwnLink(url.trim());
  return row ? findAccountFile(accountId, row.id) : null;
}

/** The public file behind a token (for a download without a key); null otherwise. */
export async function findPublicFile(token: string): Promise<FileRow | null> {
  if (!/^[0-9a-f]{32}$/.test(token)) return null;
  const row = await getFileRow(token);
  if (!row || row.access !== "public" || row.expiresAt.getTime() < Date.now() || !row.complete) return null;
  return row;
}

export async function describeAccountFile(row: FileRow): Promise<AccountFile> {
  return describeFile(row);
}

export async function setFileAccess(id: string, access: "private" | "public"): Promise<void> {
  const db = await getDb();
  await db.update(files).set({ access }).where(eq(files.id, id));
}

/** A stream of a stored file's bytes (404 when its object is gone). */
export async function openFileBytes(row: FileRow): Promise<{ body: Readable; size: number }> {
  await assertUnreplaced(row);
  const o = await (await getObjectStore()).open(objectKey(row.id, row.name));
  if (!o) throw new QuireError(404, `the stored file ${row.name} is gone (expired or deleted)`);
  return { body: o.body, size: o.size };
}

/** A fresh GET link of a stored file. */
export async function fileLinkOf(row: FileRow): Promise<string> {
  return getLink(row.id, row.name, row.contentType, row.expiresAt);
}
