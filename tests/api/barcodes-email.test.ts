import net from "node:net";
import sharp from "sharp";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { barcodePage } from "../helpers/barcode-fixtures";
import { makeEml, makeMsg } from "../helpers/email-fixtures";
import { makePdf } from "../helpers/pdf-fixtures";

/**
 * Barcodes and e-mail over HTTP: /v1/barcode/generate and /v1/barcode/read/from/url (the answer
 * read back), /v1/email/send against smtp-server on loopback (and a server that never answers),
 * /v1/email/decode and /v1/email/extract-attachments on generated .eml and .msg files.
 */

let q: QuireServer;
let smtp: SMTPServer;
let smtpPort: number;
let silent: net.Server;
let silentPort: number;
const received: Array<{ from: string; to: string[]; raw: Buffer; user?: string }> = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: true,
    onAuth(auth, _session, cb) {
      if (auth.username === "mailer" && auth.password === "s3cret") return cb(null, { user: "mailer" });
      cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  smtpPort = (smtp.server.address() as net.AddressInfo).port;
  // Accepts connections and never says a word (no SMTP greeting).
  silent = net.createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
  silentPort = (silent.address() as net.AddressInfo).port;
  q = await startQuire({ env: { EGRESS_ALLOW: `127.0.0.1:${smtpPort},127.0.0.1:${silentPort}` } });
}, 120_000);
afterAll(async () => {
  await q?.stop();
  await new Promise((r) => smtp?.close(() => r(undefined)));
  silent?.close();
});

describe("POST /v1/barcode/generate", () => {
  it("POST /v1/barcode/generate (QRCode by default: a PNG link; read back by /v1/barcode/read/from/url)", async () => {
    const g = await q.api("/v1/barcode/generate", { json: { value: "abcdef123456", name: "barcode.png" } });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    expect(g.body).toMatchObject({ name: "barcode.png", credits: 1, error: false });
    const png = await download(g.body.url);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect((await sharp(png.bytes).metadata()).format).toBe("png");
    const r = await q.api("/v1/barcode/read/from/url", { json: { url: g.body.url, types: "QRCode" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.barcodes).toHaveLength(1);
    expect(r.body.barcodes[0]).toMatchObject({ Value: "abcdef123456", TypeName: "QRCode", Page: 0, Confidence: 1, File: "barcode.png" });
    expect(r.body.barcodes[0].Rect).toMatch(/^\{X=[\d.]+,Y=[\d.]+,Width=[\d.]+,Height=[\d.]+\}$/);
  });

  it("GET /v1/barcode/generate?type=Code128&inline=true (the PNG as base64 in body, no link); every generated type reads back", async () => {
    const g = await q.api("/v1/barcode/generate?value=ORDER-42&type=Code128&inline=true");
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    expect(g.body.url).toBeUndefined();
    const png = Buffer.from(g.body.body, "base64");
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    const url = await uploadBytes(q, png, "code128.png", "image/png");
    const r = await q.api("/v1/barcode/read/from/url", { json: { url } });
    expect(r.body.barcodes.map((b: { TypeName: string; Value: string }) => [b.TypeName, b.Value])).toEqual([["Code128", "ORDER-42"]]);
  });

  it("POST /v1/barcode/generate (decorationImage: a logo in the QR code, fetched from its URL; the code still reads)", async () => {
    const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#1060c0" } }).png().toBuffer();
    const logoUrl = await uploadBytes(q, logo, "logo.png", "image/png");
    const g = await q.api("/v1/barcode/generate", { json: { value: "https://example.org/logo", type: "QRCode", decorationImage: logoUrl } });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    const png = (await download(g.body.url)).bytes;
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const mid = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
    expect([data[mid], data[mid + 1], data[mid + 2]]).toEqual([0x10, 0x60, 0xc0]);
    const r = await q.api("/v1/barcode/read/from/url", { json: { url: g.body.url } });
    expect(r.body.barcodes.map((b: { Value: string }) => b.Value)).toEqual(["https://example.org/logo"]);
  });

  it("POST /v1/barcode/generate (unknown type → 400; a value the type cannot hold → 400; no value → 400)", async () => {
    const bad = await q.api("/v1/barcode/generate", { json: { value: "x", type: "Hologram" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/type: unknown barcode type "Hologram"/);
    const ean = await q.api("/v1/barcode/generate", { json: { value: "12AB", type: "EAN13" } });
    expect(ean.status).toBe(400);
    expect(ean.body.message).toMatch(/value: cannot encode "12AB" as EAN13/);
    expect((await q.api("/v1/barcode/generate", { json: { type: "QRCode" } })).status).toBe(400);
  });

  it("POST /v1/barcode/generate (async: the promised url holds the PNG)", async () => {
    const g = await q.api("/v1/barcode/generate", { json: { value: "later", async: true } });
    expect(g.body.jobId).toBeTruthy();
    const done = await waitForJob(q, g.body.jobId);
    expect(done.status).toBe("success");
    expect((await download(g.body.url)).bytes.subarray(1, 4).toString()).toBe("PNG");
  });
});

describe("POST /v1/barcode/read/from/url", () => {
  it("POST /v1/barcode/read/from/url (a PDF: every barcode with page and box in points; types and pages narrow; credits per page)", async () => {
    const p1 = await barcodePage([{ bcid: "qrcode", text: "QR-PAGE-1" }, { bcid: "code128", text: "C128-PAGE-1", y: 300 }]);
    const p2 = await barcodePage([{ bcid: "datamatrix", text: "DM-PAGE-2" }]);
    const both = await mergePdfs([p1, p2]);
    const url = await uploadBytes(q, both, "two-pages.pdf", "application/pdf");
    const all = await q.api("/v1/barcode/read/from/url", { json: { url } });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.pageCount).toBe(2);
    expect(all.body.credits).toBe(1 + 2);
    expect(all.body.barcodes.map((b: { Page: number; TypeName: string; Value: string }) => [b.Page, b.TypeName, b.Value])).toEqual([
      [0, "QRCode", "QR-PAGE-1"],
      [0, "Code128", "C128-PAGE-1"],
      [1, "DataMatrix", "DM-PAGE-2"],
    ]);
    // The QR code was drawn at x = 72 pt, its top at 792 - 500 - height.
    const qr = all.body.barcodes[0].Box;
    expect(qr.x).toBeGreaterThan(70);
    expect(qr.x).toBeLessThan(100);
    expect(qr.y + qr.height).toBeGreaterThan(792 - 500 - 20);
    expect(qr.y + qr.height).toBeLessThan(792 - 500 + 5);
    const narrowed = await samplePost({ url, types: "Code128,Code39,Interleaved2of5,EAN13", pages: "0" });
    expect(narrowed.body.barcodes.map((b: { Value: string }) => b.Value)).toEqual(["C128-PAGE-1"]);
    expect(narrowed.body.pageCount).toBe(1);
    const page2 = await q.api(`/v1/barcode/read/from/url?url=${encodeURIComponent(url)}&pages=1`);
    expect(page2.body.barcodes.map((b: { Value: string }) => b.Value)).toEqual(["DM-PAGE-2"]);
  });

  it("POST /v1/barcode/read/from/url (an image without barcodes → empty list; not a document → 415; unknown types → 400; page past the end → 449)", async () => {
    const blank = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#ffffff" } }).png().toBuffer();
    const none = await q.api("/v1/barcode/read/from/url", { json: { url: await uploadBytes(q, blank, "blank.png", "image/png") } });
    expect(none.status).toBe(200);
    expect(none.body.barcodes).toEqual([]);
    const text = await q.api("/v1/barcode/read/from/url", { json: { url: await uploadBytes(q, Buffer.from("just text"), "a.txt", "text/plain") } });
    expect(text.status).toBe(415);
    const pdf = await uploadBytes(q, makePdf({ pages: 1 }), "one.pdf", "application/pdf");
    const types = await q.api("/v1/barcode/read/from/url", { json: { url: pdf, types: "QRCode,Checkbox" } });
    expect(types.status).toBe(400);
    expect(types.body.message).toMatch(/^types: unknown barcode type "Checkbox"/);
    expect((await q.api("/v1/barcode/read/from/url", { json: { url: pdf, pages: "3" } })).status).toBe(449);
  });
});

/** `requests.post(url, data=parameters)` as the official samples send it: form-encoded. */
function samplePost(parameters: Record<string, string>) {
  return q.api("/v1/barcode/read/from/url", { method: "POST", body: new URLSearchParams(parameters) });
}

async function mergePdfs(parts: Buffer[]): Promise<Buffer> {
  const mupdf = await import("mupdf");
  const out = new mupdf.PDFDocument();
  for (const p of parts) {
    const src = new mupdf.PDFDocument(p);
    out.graftPage(-1, src, 0);
    src.destroy();
  }
  const b = Buffer.from(out.saveToBuffer("compress").asUint8Array());
  out.destroy();
  return b;
}

const smtpParams = () => ({ smtpServer: "127.0.0.1", smtpPort, smtpUsername: "mailer", smtpPassword: "s3cret" });

describe("POST /v1/email/send", () => {
  it("POST /v1/email/send (through the caller's SMTP server: addresses, bodies, an attachment from a URL; password masked in the job list)", async () => {
    const pdf = makePdf({ pages: 2 });
    const att = await uploadBytes(q, pdf, "sample.pdf", "application/pdf");
    const r = await q.api("/v1/email/send", {
      json: {
        url: att,
        from: "John Doe <john@example.com>",
        to: "Partner <partner@example.com>",
        cc: "copy@example.com",
        subject: "Check attached sample pdf",
        bodytext: "Please check the attached pdf",
        bodyHtml: "<p>Please check the attached pdf</p>",
        ...smtpParams(),
        smtpport: String(smtpPort),
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ error: false, credits: 1, accepted: ["partner@example.com", "copy@example.com"], rejected: [] });
    const got = received.at(-1)!;
    expect(got.user).toBe("mailer");
    expect(got.to).toEqual(["partner@example.com", "copy@example.com"]);
    const m = await simpleParser(got.raw);
    expect(m.subject).toBe("Check attached sample pdf");
    expect(m.text?.trim()).toBe("Please check the attached pdf");
    expect(m.html).toContain("<p>Please check the attached pdf</p>");
    expect(m.attachments.map((a) => [a.filename, a.contentType])).toEqual([["sample.pdf", "application/pdf"]]);
    expect(m.attachments[0].content.equals(pdf)).toBe(true);
    expect(m.messageId).toBe(r.body.messageId);
    const jobs = await q.api("/v1/jobs?limit=5");
    const job = jobs.body.jobs.find((j: { operation: string }) => j.operation === "email-send");
    expect(JSON.stringify(job)).not.toContain("s3cret");
  });

  it("POST /v1/email/send (wrong SMTP password → 400; no body and no attachment → 400)", async () => {
    const bad = await q.api("/v1/email/send", { json: { ...smtpParams(), smtpPassword: "nope", from: "a@example.com", to: "b@example.com", subject: "s", bodyText: "t" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/smtpUsername\/smtpPassword: the SMTP server refused the login/);
    const empty = await q.api("/v1/email/send", { json: { ...smtpParams(), from: "a@example.com", to: "b@example.com", subject: "s" } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/^bodyText: give a text or HTML body/);
  });

  it("POST /v1/email/send (an SMTP server at a private address not allowed → 403, nothing connects)", async () => {
    const before = received.length;
    const r = await q.api("/v1/email/send", { json: { smtpServer: "127.0.0.1", smtpPort: smtpPort + 1 === silentPort ? smtpPort + 2 : smtpPort + 1, from: "a@example.com", to: "b@example.com", subject: "s", bodyText: "t" } });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/^smtpServer: /);
    const meta = await q.api("/v1/email/send", { json: { smtpServer: "169.254.169.254", smtpPort: 25, from: "a@example.com", to: "b@example.com", subject: "s", bodyText: "t" } });
    expect(meta.status).toBe(403);
    expect(received.length).toBe(before);
  });

  it("POST /v1/email/send (an SMTP server that never answers → 408 within the timeout)", async () => {
    const t0 = Date.now();
    const r = await q.api("/v1/email/send", { json: { smtpServer: "127.0.0.1", smtpPort: silentPort, timeout: 2, from: "a@example.com", to: "b@example.com", subject: "s", bodyText: "t" } });
    const took = Date.now() - t0;
    expect(r.status, JSON.stringify(r.body)).toBe(408);
    expect(r.body.message).toMatch(/did not answer within 2 s/);
    expect(took).toBeLessThan(10_000);
  });
});

describe("POST /v1/email/decode and /v1/email/extract-attachments", () => {
  it("POST /v1/email/decode (.eml: addresses, subject, date, bodies, attachment list; a JSON file unless inline)", async () => {
    const eml = await makeEml({ html: "<p>Hi</p>", attachments: [{ filename: "data.csv", content: "a,b\n1,2\n", contentType: "text/csv" }] });
    const url = await uploadBytes(q, eml, "message.eml", "message/rfc822");
    const r = await q.api("/v1/email/decode", { json: { url } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.body).toMatchObject({
      from: "Alice Sender <alice@example.org>",
      to: "Bob Receiver <bob@example.org>",
      subject: "Quarterly report",
      date: "2026-03-04T05:06:07.000Z",
      attachments: [{ name: "data.csv", contentType: "text/csv", size: 8, contentId: "" }],
    });
    expect(r.body.body.bodyHtml).toContain("<p>Hi</p>");
    const file = JSON.parse((await download(r.body.url)).bytes.toString("utf8"));
    expect(file).toEqual(r.body.body);
    const inline = await q.api("/v1/email/decode", { json: { url, inline: true } });
    expect(inline.body.url).toBeUndefined();
    expect(inline.body.body.subject).toBe("Quarterly report");
  });

  it("POST /v1/email/extract-attachments (.eml and .msg: one link per attachment with its bytes; none → empty urls; not an e-mail → 415)", async () => {
    const pdf = makePdf({ pages: 1 });
    const eml = await makeEml({ attachments: [{ filename: "a.pdf", content: pdf, contentType: "application/pdf" }, { filename: "b.txt", content: "bee" }] });
    const r = await q.api("/v1/email/extract-attachments", { json: { url: await uploadBytes(q, eml, "m.eml") } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.urls).toHaveLength(2);
    const a = await download(r.body.urls[0]);
    expect(a.bytes.equals(pdf)).toBe(true);
    expect(a.headers.get("content-type")).toBe("application/pdf");
    expect((await download(r.body.urls[1])).bytes.toString()).toBe("bee");

    const msg = makeMsg({ subject: "From Outlook", body: "See file", senderName: "Olga", senderEmail: "olga@example.com", to: [{ name: "Pat", email: "pat@example.com" }], attachments: [{ name: "sheet.csv", content: Buffer.from("x,y\n"), mime: "text/csv" }] });
    const msgUrl = await uploadBytes(q, msg, "outlook.msg");
    const fromMsg = await q.api("/v1/email/extract-attachments", { json: { url: msgUrl } });
    expect(fromMsg.status, JSON.stringify(fromMsg.body)).toBe(200);
    expect((await download(fromMsg.body.urls[0])).bytes.toString()).toBe("x,y\n");
    const decoded = await q.api("/v1/email/decode", { json: { url: msgUrl, inline: true } });
    expect(decoded.body.body).toMatchObject({ subject: "From Outlook", from: "Olga <olga@example.com>", to: "Pat <pat@example.com>", bodyText: "See file" });

    const none = await q.api("/v1/email/extract-attachments", { json: { url: await uploadBytes(q, await makeEml({}), "plain.eml") } });
    expect(none.body.urls).toEqual([]);
    const notMail = await q.api("/v1/email/extract-attachments", { json: { url: await uploadBytes(q, pdf, "x.pdf") } });
    expect(notMail.status).toBe(415);
  });
});
