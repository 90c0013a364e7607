import zlib from "node:zlib";
import { QuireError } from "@/lib/core/errors";

/**
 * Zip-bomb check for .xlsx/.xlsm/.ods (zip containers) before SheetJS inflates them. The central
 * directory's sizes are read first (cheap refusals: too many entries, too many declared bytes, an
 * absurd ratio), then every entry is actually inflated with a hard output cap equal to its declared
 * size, so an entry that lies about its size is caught without ever producing more than the
 * declared total. SheetJS then inflates the very same deflate streams.
 */
export interface ZipLimits {
  /** Sum of uncompressed entry sizes. */
  maxUncompressedBytes: number;
  maxEntries: number;
  /** Uncompressed/compressed ratio above which a large entry is refused. */
  maxRatio: number;
}

export interface ZipEntryInfo {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const CDH = 0x02014b50;
const LFH = 0x04034b50;
/** Entries smaller than this are not judged by their ratio (tiny XML parts compress absurdly well). */
const RATIO_FLOOR = 1024 * 1024;

/** True when the bytes start like a zip archive. */
export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    (bytes[2] === 3 || bytes[2] === 5) &&
    (bytes[3] === 4 || bytes[3] === 6)
  );
}

/** Reads the central directory. Throws 442 for a damaged archive, 413 for zip64 (too large anyway). */
export function readZipDirectory(buf: Buffer, what: string): ZipEntryInfo[] {
  const damaged = (why: string) => new QuireError(442, `${what}: the file is damaged (${why}).`);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged("no zip directory; the file may be truncated");
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff) {
    throw new QuireError(
      413,
      `${what}: ZIP64 workbooks are not accepted (larger than 4 GB or more than 65535 parts).`,
    );
  }
  if (cdOffset + cdSize > eocd) throw damaged("zip directory out of bounds");
  const entries: ZipEntryInfo[] = [];
  let off = cdOffset;
  for (let i = 0; i < count; i++) {
    if (off + 46 > buf.length || buf.readUInt32LE(off) !== CDH) throw damaged("bad zip directory entry");
    const method = buf.readUInt16LE(off + 10);
    const compressedSize = buf.readUInt32LE(off + 20);
    const uncompressedSize = buf.readUInt32LE(off + 24);
    const nameLen = buf.readUInt16LE(off + 28);
    const extraLen = buf.readUInt16LE(off + 30);
    const commentLen = buf.readUInt16LE(off + 32);
    const localHeaderOffset = buf.readUInt32LE(off + 42);
    const name = buf.toString("utf8", off + 46, off + 46 + nameLen);
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
    off += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Refuses zip bombs and lying entries; returns the entries for further checks. */
export function checkZip(buf: Buffer, what: string, limits: ZipLimits): ZipEntryInfo[] {
  const entries = readZipDirectory(buf, what);
  const refuse = (why: string) => new QuireError(413, `${what}: refused, ${why}.`);
  if (entries.length > limits.maxEntries)
    throw refuse(`it holds ${entries.length} parts (limit ${limits.maxEntries})`);
  let declared = 0;
  for (const e of entries) {
    declared += e.uncompressedSize;
    if (
      e.uncompressedSize > RATIO_FLOOR &&
      e.uncompressedSize > limits.maxRatio * Math.max(1, e.compressedSize)
    ) {
      throw refuse(
        `part ${e.name} expands ${Math.round(e.uncompressedSize / Math.max(1, e.compressedSize))}× (a zip bomb?)`,
      );
    }
  }
  if (declared > limits.maxUncompressedBytes) {
    throw refuse(`it expands to ${formatMb(declared)} (limit ${formatMb(limits.maxUncompressedBytes)})`);
  }
  for (const e of entries) {
    if (e.method !== 0 && e.method !== 8)
      throw new QuireError(
        415,
        `${what}: part ${e.name} uses zip compression method ${e.method}, which is not supported.`,
      );
    const lo = e.localHeaderOffset;
    if (lo + 30 > buf.length || buf.readUInt32LE(lo) !== LFH)
      throw new QuireError(442, `${what}: the file is damaged (bad local header for ${e.name}).`);
    const start = lo + 30 + buf.readUInt16LE(lo + 26) + buf.readUInt16LE(lo + 28);
    const data = buf.subarray(start, start + e.compressedSize);
    if (e.method === 0) {
      if (e.compressedSize !== e.uncompressedSize)
        throw new QuireError(
          442,
          `${what}: the file is damaged (stored part ${e.name} has inconsistent sizes).`,
        );
      continue;
    }
    let actual: number;
    try {
      actual = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, e.uncompressedSize) }).length;
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
        throw refuse(`part ${e.name} expands beyond its declared size of ${e.uncompressedSize} bytes`);
      }
      throw new QuireError(442, `${what}: the file is damaged (part ${e.name} cannot be decompressed).`);
    }
    if (actual !== e.uncompressedSize && !(e.uncompressedSize === 0 && actual <= 1)) {
      throw new QuireError(
        442,
        `${what}: the file is damaged (part ${e.name} is ${actual} bytes, declared ${e.uncompressedSize}).`,
      );
    }
  }
  return entries;
}

function formatMb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
