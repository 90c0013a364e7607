import "server-only";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import path from "node:path";
import crypto from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { getConfig } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import { files } from "@/lib/db/schema";
import { isSignatureValid, signValue } from "@/lib/auth/secret-box";

/**
 * Local-disk storage under DATA_DIR/files/<id>/<name>, reachable through signed, expiring URLs
 * built from PUBLIC_URL. Uploads and outputs are rows in `files`; a sweeper deletes expired ones.
 */

export type FileRow = typeof files.$inferSelect;

function filesRoot() {
  return path.join(getConfig().dataDir, "files");
}

/** A name safe for a path segment and a Content-Disposition header. */
export function safeFileName(name: string, fallback = "file"): string {
  const base = path.basename(name.replace(/\\/g, "/")).replace(/[\u0000-\u001f\u007f/"]/g, "_").trim();
  const clipped = base.slice(-180);
  return clipped === "" || clipped === "." || clipped === ".." ? fallback : clipped;
}

export function filePath(id: string, name: string) {
  return path.join(filesRoot(), id, safeFileName(name));
}

function newId() {
  return crypto.randomBytes(16).toString("hex");
}

function linkSig(id: string, name: string, exp: number, verb: "get" | "put") {
  return signValue(`${verb}:${id}/${name}/${exp}`, "storage");
}

/** The public GET URL of a stored file. */
function fileUrl(id: string, name: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  const n = safeFileName(name);
  return `${getConfig().publicUrl}/files/${id}/${encodeURIComponent(n)}?exp=${exp}&sig=${linkSig(id, n, exp, "get")}`;
}

/** The presigned PUT URL of a pending upload. */
function uploadUrl(id: string, name: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  const n = safeFileName(name);
  return `${getConfig().publicUrl}/files/upload/${id}/${encodeURIComponent(n)}?exp=${exp}&sig=${linkSig(id, n, exp, "put")}`;
}

export interface ParsedLink {
  id: string;
  name: string;
  exp: number;
  verb: "get" | "put";
}

/** Checks a storage link (path + query); null when it is not a valid, unexpired Quire link. */
export function parseStorageLink(pathname: string, search: URLSearchParams, verb: "get" | "put"): ParsedLink | null {
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

/** If `url` is one of Quire's own, valid GET links, the stored file behind it (read from disk, not the network). */
export async function resolveOwnFile(url: string): Promise<{ path: string; row: FileRow } | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const link = parseStorageLink(u.pathname, u.searchParams, "get");
  if (!link) return null;
  const row = await getFileRow(link.id);
  if (!row || !row.complete || row.expiresAt.getTime() < Date.now()) return null;
  return { path: filePath(row.id, row.name), row };
}

export async function getFileRow(id: string): Promise<FileRow | null> {
  const db = await getDb();
  const [row] = await db.select().from(files).where(eq(files.id, id)).limit(1);
  return row ?? null;
}

/** Registers a pending upload (presigned flow) and returns its PUT and GET links. */
export async function createPendingUpload(accountId: string, name: string, contentType: string) {
  const cfg = getConfig();
  const id = newId();
  const n = safeFileName(name, "upload");
  const expiresAt = new Date(Date.now() + cfg.uploadLinkMinutes * 60_000);
  const db = await getDb();
  await db.insert(files).values({ id, accountId, kind: "upload", name: n, contentType: contentType || "application/octet-stream", expiresAt });
  return { id, name: n, presignedUrl: uploadUrl(id, n, expiresAt), url: fileUrl(id, n, expiresAt), expiresAt };
}

/** Writes a stream to a pending upload, enforcing UPLOAD_MAX_BYTES while streaming. */
export async function writeUpload(
  id: string,
  name: string,
  body: AsyncIterable<Uint8Array>,
  contentType?: string,
): Promise<number> {
  const max = getConfig().uploadMaxBytes;
  const dest = filePath(id, name);
  await fsp.mkdir(path.dirname(dest), { recursive: true });
  const tmp = dest + ".part";
  let size = 0;
  async function* counted() {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > max) throw new QuireError(413, `file: the upload is larger than ${max} bytes (UPLOAD_MAX_BYTES)`);
      yield chunk;
    }
  }
  try {
    await pipeline(Readable.from(counted()), fs.createWriteStream(tmp));
    await fsp.rename(tmp, dest);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
  const db = await getDb();
  await db
    .update(files)
    .set({ size, complete: true, ...(contentType ? { contentType } : {}) })
    .where(eq(files.id, id));
  return size;
}

/**
 * The one way a new upload reaches storage (multipart parts, base64 bodies, an operation's `file`
 * part): a pending row, then the bytes streamed to disk under UPLOAD_MAX_BYTES. On failure nothing
 * is left behind, neither row nor bytes.
 */
export async function storeUpload(accountId: string, name: string, contentType: string, body: AsyncIterable<Uint8Array>) {
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
  if (n === upload.name) return { name: n, url: fileUrl(upload.id, n, upload.expiresAt) };
  await fsp.rename(filePath(upload.id, upload.name), filePath(upload.id, n));
  const db = await getDb();
  await db.update(files).set({ name: n }).where(eq(files.id, upload.id));
  return { name: n, url: fileUrl(upload.id, n, upload.expiresAt) };
}

/** Stores an output file (moved from a job's work dir) and returns its row and link. */
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
  const dest = filePath(id, n);
  await fsp.mkdir(path.dirname(dest), { recursive: true });
  try {
    await fsp.rename(input.srcPath, dest);
  } catch {
    await fsp.copyFile(input.srcPath, dest);
  }
  const size = (await fsp.stat(dest)).size;
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
  return { id, name: n, size, url: fileUrl(id, n, input.expiresAt) };
}

/** Reserves an output slot whose bytes come later (the async `url` promised before the job runs). */
export async function reserveOutput(accountId: string, jobId: string, name: string, contentType: string, expiresAt: Date) {
  const id = newId();
  const n = safeFileName(name, "result");
  const db = await getDb();
  await db.insert(files).values({ id, accountId, kind: "output", name: n, contentType, jobId, expiresAt, complete: false });
  return { id, name: n, url: fileUrl(id, n, expiresAt) };
}

/** Fills a reserved output slot with bytes. */
export async function fillReservedOutput(id: string, name: string, bytes: Buffer | string, contentType?: string) {
  const dest = filePath(id, name);
  await fsp.mkdir(path.dirname(dest), { recursive: true });
  await fsp.writeFile(dest + ".part", bytes);
  await fsp.rename(dest + ".part", dest);
  const db = await getDb();
  await db
    .update(files)
    .set({ complete: true, size: Buffer.byteLength(bytes), ...(contentType ? { contentType } : {}) })
    .where(eq(files.id, id));
}

/** Deletes expired files (rows and bytes). Returns how many went. */
export async function sweepExpiredFiles(now = new Date()): Promise<number> {
  const db = await getDb();
  const gone = await db.delete(files).where(lt(files.expiresAt, now)).returning({ id: files.id });
  await Promise.all(gone.map((g) => fsp.rm(path.join(filesRoot(), g.id), { recursive: true, force: true })));
  return gone.length;
}

export async function deleteFileRow(id: string) {
  const db = await getDb();
  await db.delete(files).where(and(eq(files.id, id)));
  await fsp.rm(path.join(filesRoot(), id), { recursive: true, force: true });
}
