import http from "node:http";
import type net from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as mupdf from "mupdf";

/**
 * Fixtures for the conversion tests (web page, images, spreadsheets → PDF/CSV): local HTTP
 * servers on 127.0.0.1, a BMP writer, temp files, and a PDF reader built on MuPDF that gives
 * page count, page sizes in points, page text and rendered pixels.
 */

export type RouteHandler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void | Promise<void>;
export type RouteSpec = string | { status?: number; headers?: Record<string, string>; body?: string | Buffer } | RouteHandler;

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
    res.writeHead(spec.status ?? 200, { "content-type": "text/html; charset=utf-8", ...spec.headers }).end(spec.body ?? "");
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
  const ppm = Math.round(((opts.dpi ?? 0) / 0.0254) || 0);
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
