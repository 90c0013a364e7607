import zlib from "node:zlib";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * A one-page PDF whose content stream is `inflatedBytes` of zeros compressed with Flate: about a
 * thousandth of that on disk, all of it to inflate and read when the page is drawn (a
 * decompression bomb aimed at whatever renders it).
 */
export async function makeInflationBombPdf(inflatedBytes = 1200 * 1024 * 1024): Promise<Buffer> {
  const zero = Buffer.alloc(1024 * 1024);
  async function* zeros() {
    for (let left = inflatedBytes; left > 0; left -= zero.length) yield left >= zero.length ? zero : zero.subarray(0, left);
  }
  const chunks: Buffer[] = [];
  await pipeline(Readable.from(zeros()), zlib.createDeflate({ level: 9 }), async function* (deflated) {
    for await (const c of deflated) chunks.push(c as Buffer);
  });
  const stream = Buffer.concat(chunks);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const add = (b: Buffer | string) => {
    const buf = typeof b === "string" ? Buffer.from(b, "latin1") : b;
    parts.push(buf);
    size += buf.length;
  };
  const obj = (n: number, body: Buffer | string, tail = "") => {
    offsets[n] = size;
    add(`${n} 0 obj\n`);
    add(body);
    add(`${tail}\nendobj\n`);
  };
  add("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
  obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>");
  offsets[4] = size;
  add(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`);
  add(stream);
  add("\nendstream\nendobj\n");
  const xref = size;
  add(`xref\n0 5\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`);
  add(`trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/**
 * A 1-page PDF whose page tree loops: the root /Pages node lists itself among its kids, and a
 * second /Pages node lists the root and itself. Page loads fail with "cycle in page tree".
 */
export function makeCyclicPageTreePdf(): Buffer {
  const parts: string[] = [];
  const offsets: number[] = [];
  let size = 0;
  const add = (s: string) => { parts.push(s); size += Buffer.byteLength(s, "latin1"); };
  const obj = (n: number, body: string) => { offsets[n] = size; add(`${n} 0 obj\n${body}\nendobj\n`); };
  add("%PDF-1.7\n");
  obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  obj(2, "<< /Type /Pages /Kids [3 0 R 2 0 R 5 0 R] /Count 3 >>");
  obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 6 0 R >> >> >>");
  const text = "BT /F1 24 Tf 72 700 Td (Hello cycle) Tj ET";
  obj(4, `<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
  obj(5, "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 5 0 R] /Count 2 >>");
  obj(6, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const xref = size;
  add(`xref\n0 7\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`);
  add(`trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.from(parts.join(""), "latin1");
}
