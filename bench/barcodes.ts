/**
 * Barcode figures for `npm run bench` (bench/api.ts calls barcodeRows; `npm run bench:barcodes`
 * runs them alone): the same generated "scans" — one barcode each, on a 1200×900 grey page, some
 * turned and faded — read by Quire's reader (ZXing, in process) and by `zbarimg` (Debian's
 * zbar-tools, all images in one process), as images per second and their ratio, with how many
 * each decoded (every fifth scan is skewed 12°); then the HTTP operations: POST /v1/barcode/generate and
 * POST /v1/barcode/read/from/url per second (sequential calls, sandbox and storage included).
 * Only types both readers know are used (zbar reads no Data Matrix, PDF417 or Aztec).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { generateBarcode } from "../lib/engine/barcode/generate-barcode";
import { readImageBarcodes } from "../lib/engine/barcode/read-barcodes";
import { startQuire, type QuireServer } from "../tests/helpers/quire-server";
import { uploadBytes } from "../tests/helpers/api-client";

const TYPES: Array<[string, (i: number) => string]> = [
  ["QRCode", (i) => `https://example.org/item/${i}`],
  ["Code128", (i) => `QUIRE-${1000 + i}`],
  ["EAN13", (i) => String(400000000000 + i * 7919).slice(0, 12)],
  ["Code39", (i) => `BENCH${i}`],
  ["Interleaved2of5", (i) => String(10000000 + i * 13).padStart(8, "0")],
  ["Codabar", (i) => `A${100000 + i}B`],
];

function hasTool(t: string) {
  try {
    execFileSync("which", [t], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A page-sized grey scan with the code pasted in; every third one turned a quarter, every fourth faded, every fifth skewed 12°. */
async function scanOf(png: Buffer, i: number): Promise<Buffer> {
  const code = await sharp(png).grayscale().toBuffer();
  const meta = await sharp(code).metadata();
  const faded = i % 4 === 3;
  let page = sharp({ create: { width: 1200, height: 900, channels: 3, background: faded ? "#b0b0b0" : "#f4f4f4" } })
    .composite([{ input: faded ? await sharp(code).linear(0.45, 110).toBuffer() : code, left: Math.max(0, 600 - Math.round(meta.width! / 2)), top: Math.max(0, 450 - Math.round(meta.height! / 2)) }])
    .grayscale();
  if (i % 3 === 2) page = sharp(await page.png().toBuffer()).rotate(90);
  if (i % 5 === 4) page = sharp(await page.png().toBuffer()).rotate(12, { background: "#f4f4f4" });
  return page.jpeg({ quality: 85 }).toBuffer();
}

export async function barcodeRows(q: QuireServer | undefined, count = 60): Promise<string[][]> {
  const rows: string[][] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-bc-"));
  try {
    const images: Array<{ file: string; bytes: Buffer; value: string }> = [];
    const tg = performance.now();
    const pngs: Array<{ png: Buffer; value: string }> = [];
    for (let i = 0; i < count; i++) {
      const [type, value] = TYPES[i % TYPES.length];
      pngs.push({ png: await generateBarcode({ type, value: value(i) }), value: value(i) });
    }
    const genMs = performance.now() - tg;
    rows.push([`generate ${count} barcodes (bwip-js, in process)`, `${((count * 1000) / genMs).toFixed(0)} /s`, "", `${TYPES.map((t) => t[0]).join(", ")}`]);
    for (const [i, p] of pngs.entries()) {
      const file = path.join(tmp, `scan-${i}.jpg`);
      const bytes = await scanOf(p.png, i);
      fs.writeFileSync(file, bytes);
      images.push({ file, bytes, value: p.value });
    }
    await readImageBarcodes(images[0].bytes, []); // load the WebAssembly once
    const tr = performance.now();
    let quireFound = 0;
    for (const im of images) {
      const [found] = await readImageBarcodes(im.bytes, []);
      if (found.some((f) => f.text === im.value || f.text.startsWith(im.value))) quireFound++;
    }
    const quireMs = performance.now() - tr;
    const quireRate = (images.length * 1000) / quireMs;
    let tool = "zbarimg not installed";
    if (hasTool("zbarimg")) {
      const tz = performance.now();
      let out = "";
      try {
        out = execFileSync("zbarimg", ["-q", "--raw", ...images.map((i) => i.file)], { encoding: "utf8", maxBuffer: 1 << 24 });
      } catch (e) {
        out = String((e as { stdout?: string }).stdout ?? ""); // exit 4 when some image had none
      }
      const zbarMs = performance.now() - tz;
      const lines = new Set(out.split("\n").map((l) => l.trim()));
      const zbarFound = images.filter((im) => [...lines].some((l) => l === im.value || l.startsWith(im.value) || (l.length === 13 && l.startsWith(im.value)))).length;
      const zbarRate = (images.length * 1000) / zbarMs;
      tool = `zbarimg ${zbarRate.toFixed(1)} images/s, decoded ${zbarFound}/${images.length} (Quire/zbarimg ${(quireRate / zbarRate).toFixed(2)}× speed)`;
    }
    rows.push([`read ${images.length} scans (ZXing, in process)`, `${quireRate.toFixed(1)} images/s`, tool, `Quire decoded ${quireFound}/${images.length}`]);

    if (q) {
      const one = await uploadBytes(q, images[0].bytes, "scan.jpg", "image/jpeg");
      const ok = async (p: Promise<{ status: number; body: any }>) => {
        const r = await p;
        if (r.status !== 200) throw new Error(`benchmark call failed: ${JSON.stringify(r.body).slice(0, 300)}`);
      };
      const gen = () => ok(q.api("/v1/barcode/generate", { json: { value: "https://example.org/bench", type: "QRCode" } }));
      const read = () => ok(q.api("/v1/barcode/read/from/url", { json: { url: one } }));
      await Promise.all([gen(), gen(), read(), read()]); // warm both sandbox workers
      const n = 20;
      let t = performance.now();
      for (let i = 0; i < n; i++) await gen();
      const genRate = (n * 1000) / (performance.now() - t);
      t = performance.now();
      for (let i = 0; i < n; i++) await read();
      const readRate = (n * 1000) / (performance.now() - t);
      rows.push(["POST /v1/barcode/generate (sequential)", `${genRate.toFixed(1)} req/s`, "HTTP + sandbox + storage", ""]);
      rows.push(["POST /v1/barcode/read/from/url, 1200×900 scan (sequential)", `${readRate.toFixed(1)} req/s`, "HTTP + fetch from storage + sandbox", ""]);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const q = await startQuire({ env: { LOG_LEVEL: "error", WORKERS: "2", RATE_LIMIT_PER_SECOND: "0" } });
  try {
    const rows = await barcodeRows(q);
    const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)));
    console.log(`\nQuire barcode benchmark (${os.cpus().length} cores)\n`);
    for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i])).join("  |  "));
  } finally {
    await q.stop();
  }
}
