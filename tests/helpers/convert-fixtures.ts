import http from "node:http";
import type net from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import * as mupdf from "mupdf";

/**
 * Fixtures for the conversion tests (web page, images, spreadsheets → PDF/CSV): local HTTP
 * servers on 127.0.0.1, a BMP writer, temp files, and a PDF reader built on MuPDF that gives
 * page count, page sizes in points, page text and rendered pixels.
 */

export type RouteHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: Buffer,
) => void | Promise<void>;
export type RouteSpec =
  string | { status?: number; headers?: Record<string, string>; body?: string | Buffer } | RouteHandler;

export interface TestServer {
  origin: string;
  port: number;
  /** "METHOD /path" of every request received, in order. */
  requests: string[];
  /** TCP connections accepted (a preconnect without a request counts too). */
  connections(): number;
  setRoute(path: string, spec: RouteSpec): void;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 serving fixed routes (HTML strings default to text/html); 404 otherwise. */
export async function startServer(routes: Record<string, RouteSpec> = {}): Promise<TestServer> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  let connections = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    requests.push(`${req.method} ${req.url}`);
    const pathname = new URL(req.url ?? "/", "http://x").pathname;
    const spec = table.get(req.url ?? "/") ?? table.get(pathname);
    if (spec === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    if (typeof spec === "function") return void (await spec(req, res, Buffer.concat(chunks)));
    if (typeof spec === "string") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(spec);
      return;
    }
    res
      .writeHead(spec.status ?? 200, { "content-type": "text/html; charset=utf-8", ...spec.headers })
      .end(spec.body ?? "");
  });
  server.on("connection", (s: net.Socket) => {
    connections++;
    s.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    setRoute: (p, spec) => void table.set(p, spec),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fresh temp directory, removed by the returned cleanup. */
export function makeTempDir(prefix = "quire-convert-"): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Writes bytes to `dir/name` and returns a SourceFile-like record for a runner context. */
export function sourceFile(dir: string, name: string, bytes: Uint8Array, contentType = "") {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return { path: p, name, contentType, size: bytes.length, url: `http://example.test/${name}` };
}

export interface PdfSummary {
  pageCount: number;
  /** [width, height] in points, per page. */
  sizes: Array<[number, number]>;
  /** Structured text of each page. */
  texts: string[];
}

/** Reads a PDF back with MuPDF: page count, page sizes (pt) and text per page. */
export function readPdf(bytes: Uint8Array): PdfSummary {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    const pageCount = doc.countPages();
    const sizes: Array<[number, number]> = [];
    const texts: string[] = [];
    for (let i = 0; i < pageCount; i++) {
      const page = doc.loadPage(i);
      const [x0, y0, x1, y1] = page.getBounds();
      sizes.push([round2(x1 - x0), round2(y1 - y0)]);
      texts.push(page.toStructuredText("preserve-whitespace").asText());
    }
    return { pageCount, sizes, texts };
  } finally {
    doc.destroy();
  }
}

export interface RenderedPage {
  width: number;
  height: number;
  png: Uint8Array;
  /** [r, g, b] at pixel (x, y). */
  pixel(x: number, y: number): [number, number, number];
}

/** Renders one page to RGB at `dpi` (default 36: small and fast, enough for colour checks). */
export function renderPdfPage(bytes: Uint8Array, pageIndex = 0, dpi = 36): RenderedPage {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    const page = doc.loadPage(pageIndex);
    const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false);
    const width = pix.getWidth();
    const height = pix.getHeight();
    const stride = pix.getStride();
    const samples = Uint8Array.from(pix.getPixels());
    const png = pix.asPNG();
    return {
      width,
      height,
      png,
      pixel: (x, y) => {
        const o = Math.floor(y) * stride + Math.floor(x) * 3;
        return [samples[o], samples[o + 1], samples[o + 2]];
      },
    };
  } finally {
    doc.destroy();
  }
}

/** True when two colours are within `tolerance` on every channel. */
export function near(a: [number, number, number], b: [number, number, number], tolerance = 24): boolean {
  return a.every((v, i) => Math.abs(v - b[i]) <= tolerance);
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * Writes an uncompressed BMP (sharp cannot write BMP): 24-bit BGR or 32-bit BGRA with bitfields,
 * bottom-up unless `topDown`; `dpi` goes into the pixels-per-metre fields (0 = unknown).
 */
export function makeBmp(
  width: number,
  height: number,
  color: (x: number, y: number) => [number, number, number, number?],
  opts: { bits?: 24 | 32; dpi?: number; topDown?: boolean } = {},
): Buffer {
  const bits = opts.bits ?? 24;
  const rowBytes = Math.ceil((width * bits) / 32) * 4;
  const headerSize = bits === 32 ? 108 : 40;
  const dataOffset = 14 + headerSize;
  const buf = Buffer.alloc(dataOffset + rowBytes * height);
  buf.write("BM", 0, "ascii");
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(dataOffset, 10);
  buf.writeUInt32LE(headerSize, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(opts.topDown ? -height : height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(bits, 28);
  buf.writeUInt32LE(bits === 32 ? 3 : 0, 30); // BI_BITFIELDS for 32-bit
  buf.writeUInt32LE(rowBytes * height, 34);
  const ppm = Math.round((opts.dpi ?? 0) / 0.0254 || 0);
  buf.writeInt32LE(ppm, 38);
  buf.writeInt32LE(ppm, 42);
  if (bits === 32) {
    buf.writeUInt32LE(0x00ff0000, 54);
    buf.writeUInt32LE(0x0000ff00, 58);
    buf.writeUInt32LE(0x000000ff, 62);
    buf.writeUInt32LE(0xff000000, 66);
    buf.write("BGRs", 70, "ascii");
  }
  for (let y = 0; y < height; y++) {
    const row = opts.topDown ? y : height - 1 - y;
    for (let x = 0; x < width; x++) {
      const [r, g, b, a = 255] = color(x, y);
      const o = dataOffset + row * rowBytes + x * (bits / 8);
      buf[o] = b;
      buf[o + 1] = g;
      buf[o + 2] = r;
      if (bits === 32) buf[o + 3] = a;
    }
  }
  return buf;
}

/**
 * Writes an uncompressed RGB TIFF with one IFD per page (sharp writes only equal-size pages);
 * each page may have its own size, colour and resolution.
 */
export function makeTiff(
  pages: Array<{ width: number; height: number; rgb: [number, number, number]; dpi?: number }>,
): Buffer {
  const parts: Buffer[] = [];
  let offset = 8;
  const header = Buffer.alloc(8);
  header.write("II", 0, "ascii");
  header.writeUInt16LE(42, 2);
  parts.push(header);
  let prevNextPtr = 4; // where to write the offset of the next IFD
  const patches: Array<{ at: number; value: number }> = [];
  for (const p of pages) {
    const pixels = Buffer.alloc(p.width * p.height * 3);
    for (let i = 0; i < p.width * p.height; i++) pixels.set(p.rgb, i * 3);
    const pixelsAt = offset;
    parts.push(pixels);
    offset += pixels.length;
    const extra = Buffer.alloc(6 + 16); // BitsPerSample (3 shorts) + X/Y rationals
    const extraAt = offset;
    extra.writeUInt16LE(8, 0);
    extra.writeUInt16LE(8, 2);
    extra.writeUInt16LE(8, 4);
    const dpi = p.dpi ?? 72;
    extra.writeUInt32LE(dpi, 6);
    extra.writeUInt32LE(1, 10);
    extra.writeUInt32LE(dpi, 14);
    extra.writeUInt32LE(1, 18);
    parts.push(extra);
    offset += extra.length;
    if (offset % 2) {
      parts.push(Buffer.alloc(1));
      offset++;
    }
    const entries: Array<[number, number, number, number]> = [
      [256, 4, 1, p.width],
      [257, 4, 1, p.height],
      [258, 3, 3, extraAt],
      [259, 3, 1, 1],
      [262, 3, 1, 2],
      [273, 4, 1, pixelsAt],
      [277, 3, 1, 3],
      [278, 4, 1, p.height],
      [279, 4, 1, pixels.length],
      [282, 5, 1, extraAt + 6],
      [283, 5, 1, extraAt + 14],
      [296, 3, 1, 2],
    ];
    const ifd = Buffer.alloc(2 + entries.length * 12 + 4);
    ifd.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, type, count, value], i) => {
      const o = 2 + i * 12;
      ifd.writeUInt16LE(tag, o);
      ifd.writeUInt16LE(type, o + 2);
      ifd.writeUInt32LE(count, o + 4);
      if (type === 3 && count === 1) ifd.writeUInt16LE(value, o + 8);
      else ifd.writeUInt32LE(value, o + 8);
    });
    patches.push({ at: prevNextPtr, value: offset });
    prevNextPtr = offset + 2 + entries.length * 12;
    parts.push(ifd);
    offset += ifd.length;
  }
  const out = Buffer.concat(parts);
  for (const { at, value } of patches) out.writeUInt32LE(value, at);
  return out;
}

/**
 * Writes a zip archive (for zip-bomb fixtures): each entry deflated (or stored), optionally with a
 * `declaredSize` that lies about its uncompressed size in both headers.
 */
export function makeZip(
  entries: Array<{ name: string; data: Buffer; store?: boolean; declaredSize?: number }>,
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const body = e.store ? e.data : zlib.deflateRawSync(e.data);
    const crc = zlib.crc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.store ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.store ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The entries of a zip written by makeZip or SheetJS, decompressed (to rebuild it with extras). */
export function unzipEntries(zip: Buffer): Array<{ name: string; data: Buffer }> {
  const out: Array<{ name: string; data: Buffer }> = [];
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  let off = zip.readUInt32LE(eocd + 16);
  const count = zip.readUInt16LE(eocd + 10);
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(off + 10);
    const csize = zip.readUInt32LE(off + 20);
    const nameLen = zip.readUInt16LE(off + 28);
    const extraLen = zip.readUInt16LE(off + 30);
    const commentLen = zip.readUInt16LE(off + 32);
    const lo = zip.readUInt32LE(off + 42);
    const name = zip.toString("utf8", off + 46, off + 46 + nameLen);
    const start = lo + 30 + zip.readUInt16LE(lo + 26) + zip.readUInt16LE(lo + 28);
    const raw = zip.subarray(start, start + csize);
    out.push({ name, data: method === 8 ? zlib.inflateRawSync(raw) : Buffer.from(raw) });
    off += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
