import "server-only";
import type { Readable } from "node:stream";
import { getConfig } from "@/lib/core/config";

/**
 * Where the bytes of uploads and outputs live: local disk under DATA_DIR/files (one process or a
 * shared volume) or an S3-compatible bucket (several nodes). Keys are `<id>/<name>`; the rows
 * that say what a key is, who owns it and when it expires are in the `files` table.
 */
export interface ObjectStore {
  readonly kind: "local" | "s3";
  /** Stores a file from disk; `move` lets the store take the file instead of copying it. Returns its size. */
  putFile(key: string, srcPath: string, contentType: string, opts?: { move?: boolean; metadata?: Record<string, string> }): Promise<number>;
  /**
   * Local stores: moves a file in with a few synchronous system calls (mkdir, rename, stat) and
   * returns its size, or null when a rename cannot do it (another file system: use putFile).
   * For batches of many small outputs, where a thread-pool round trip per call costs more than
   * the call; the caller yields to the event loop between short runs of them.
   */
  moveFileSync?(key: string, srcPath: string): number | null;
  putBytes(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** A stream of the object, or null when it is not there. */
  open(key: string): Promise<{ body: Readable; size: number; contentType?: string } | null>;
  /** Copies the object to a local file; false when it is not there. */
  saveTo(key: string, destPath: string): Promise<boolean>;
  /**
   * Local stores: gives the object a second name at `destPath` (a hard link: no bytes copied),
   * copying it where a link cannot be made (another file system); false when it is not there.
   * The file is shared with the store: whoever holds the link must only read it.
   */
  linkTo?(key: string, destPath: string): Promise<boolean>;
  stat(key: string): Promise<{ size: number; contentType?: string } | null>;
  /** Gives an object another key (the store's copy + delete where it has no rename). */
  move(fromKey: string, toKey: string): Promise<void>;
  /** Deletes the object (no error when it is already gone). */
  delete(key: string): Promise<void>;
  /** Throws when the store cannot be reached or used (readiness). */
  check(): Promise<void>;
  /** Presigned URLs straight from the store, when it hands them out (S3_PRESIGN). */
  presign?: {
    put(key: string, expiresAt: Date): Promise<string>;
    get(
      key: string,
      file: { name: string; contentType: string; inline: boolean },
      expiresAt: Date,
    ): Promise<string>;
    /** The key behind one of this store's presigned GET URLs (unexpired), else null. */
    keyOf(url: URL): Promise<string | null>;
    /** Longest lifetime of a presigned URL (SigV4: 7 days). */
    maxSeconds: number;
    /**
     * Marks an object as seen (metadata `quire-seal` = `value`, written by a copy onto itself): a
     * later PUT through its presigned link replaces the object without the mark, since such a PUT
     * cannot carry unsigned `x-amz-meta-*` headers.
     */
    seal(key: string, value: string, contentType: string): Promise<void>;
    /** The object's seal ("" when it has none), or null when the object is gone. */
    sealOf(key: string): Promise<string | null>;
  };
}

const g = globalThis as unknown as { __quireObjectStore?: Promise<ObjectStore> };

/** The process's object store, chosen by the configuration (S3_BUCKET → S3, else local disk). */
export function getObjectStore(): Promise<ObjectStore> {
  g.__quireObjectStore ??= (async () => {
    const cfg = getConfig();
    if (cfg.s3) {
      const { createS3Store } = await import("./s3-store");
      return createS3Store(cfg.s3);
    }
    const { createDiskStore } = await import("./disk-store");
    return createDiskStore(cfg.dataDir);
  })().catch((e) => {
    g.__quireObjectStore = undefined;
    throw e;
  });
  return g.__quireObjectStore;
}

/** For tests: forget the store so the next call reads the configuration again. */
export function resetObjectStoreForTests() {
  g.__quireObjectStore = undefined;
}

const INLINE_TYPES = /^(application\/pdf|image\/(png|jpeg|gif|webp)|text\/(csv|plain)|application\/json)/;

/** Types a browser may show in place; everything else downloads. */
export function isInlineType(contentType: string): boolean {
  return INLINE_TYPES.test(contentType);
}

/**
 * A Content-Disposition header (RFC 6266): the name as is when it is plain ASCII, else an ASCII
 * fallback plus the exact UTF-8 name in `filename*`.
 */
export function contentDisposition(name: string, inline: boolean): string {
  const type = inline ? "inline" : "attachment";
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/\\/g, "_");
  if (ascii === name) return `${type}; filename="${name}"`;
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
