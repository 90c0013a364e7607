import * as XLSX from "@e965/xlsx";
import { makeZip } from "./convert-fixtures";

/**
 * Office documents written from scratch for the LibreOffice tests: a minimal WordprocessingML
 * package (one paragraph per line, a page break between pages), an RTF file, and the hostile
 * variants (a zip bomb, an encrypted OLE container, a document with an external image link).
 */

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`;
const rootRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

/** A .docx with `pages` pages, page N starting with "Page N" followed by `linesPerPage` lines of text. */
export function makeDocx(opts: { pages?: number; linesPerPage?: number; extraBody?: string; rels?: string } = {}): Buffer {
  const pages = opts.pages ?? 1;
  const lines = opts.linesPerPage ?? 3;
  const paras: string[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p > 1) paras.push(`<w:p><w:r><w:br w:type="page"/></w:r></w:p>`);
    paras.push(`<w:p><w:r><w:t>${esc(`Page ${p}`)}</w:t></w:r></w:p>`);
    for (let l = 1; l <= lines; l++) {
      paras.push(
        `<w:p><w:r><w:t>${esc(`Line ${l} of page ${p}: the quick brown fox jumps over the lazy dog.`)}</w:t></w:r></w:p>`,
      );
    }
  }
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">
<w:body>${paras.join("")}${opts.extraBody ?? ""}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/></w:sectPr></w:body>
</w:document>`;
  const entries = [
    { name: "[Content_Types].xml", data: Buffer.from(contentTypes) },
    { name: "_rels/.rels", data: Buffer.from(rootRels) },
    { name: "word/document.xml", data: Buffer.from(document) },
  ];
  if (opts.rels) entries.push({ name: "word/_rels/document.xml.rels", data: Buffer.from(opts.rels) });
  return makeZip(entries);
}

/** A .docx whose body shows an image linked (not embedded) from `imageUrl`: converting must not fetch it. */
export function makeDocxWithExternalImage(imageUrl: string): Buffer {
  const rels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${esc(imageUrl)}" TargetMode="External"/>
</Relationships>`;
  const drawing = `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="Linked"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="Linked"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="rIdImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  return makeDocx({ extraBody: drawing, rels });
}

/** A .docx whose parts claim 1 kB each but inflate to `inflatedBytes` in all (a zip bomb that lies about its sizes). */
export function makeDocxBomb(inflatedBytes = 256 * 1024 * 1024): Buffer {
  const filler = Buffer.alloc(64 * 1024 * 1024, 0x20);
  const copies = Math.ceil(inflatedBytes / filler.length);
  const entries = [
    { name: "[Content_Types].xml", data: Buffer.from(contentTypes) },
    { name: "_rels/.rels", data: Buffer.from(rootRels) },
  ];
  const zips: Array<{ name: string; data: Buffer; declaredSize?: number }> = [...entries];
  for (let i = 0; i < copies; i++) zips.push({ name: `word/media/pad${i}.xml`, data: filler, declaredSize: 1024 });
  return makeZip(zips);
}

/** An RTF document with one paragraph per line. */
export function makeRtf(lines: string[]): Buffer {
  const body = lines.map((l) => l.replace(/[\\{}]/g, (c) => `\\${c}`) + "\\par").join("\n");
  return Buffer.from(`{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Helvetica;}}\\f0\\fs24\n${body}\n}`, "latin1");
}


/** A password-protected OOXML file as Word writes it: an OLE compound file with EncryptionInfo and EncryptedPackage. */
export function makeEncryptedOffice(): Buffer {
  return makeCfb({ EncryptionInfo: Buffer.alloc(256, 1), EncryptedPackage: Buffer.alloc(4096, 7) });
}

/** SheetJS's compound-file writer (not in its type declarations). */
interface CfbApi {
  utils: { cfb_new(): unknown; cfb_add(cfb: unknown, path: string, content: Buffer): void };
  write(cfb: unknown, opts: { type: "buffer" }): Uint8Array;
}
const CFB = (XLSX as unknown as { CFB: CfbApi }).CFB;

/** An OLE compound file with the given root streams. */
export function makeCfb(streams: Record<string, Buffer>): Buffer {
  const cfb = CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams)) CFB.utils.cfb_add(cfb, `/${name}`, content);
  return Buffer.from(CFB.write(cfb, { type: "buffer" }));
}

const utf16 = (s: string) => Buffer.from(s, "utf16le");

/**
 * A minimal Outlook .msg ([MS-OXMSG]): subject, sender, body (text and optionally HTML), one
 * recipient and the given attachments, as property streams of an OLE compound file.
 */
export function makeMsg(opts: {
  subject: string;
  senderName: string;
  senderEmail: string;
  to: string;
  body: string;
  html?: string;
  attachments?: Array<{ name: string; mime: string; data: Buffer }>;
}): Buffer {
  const props = Buffer.alloc(32); // top-level property stream header, no fixed properties
  const streams: Record<string, Buffer> = {
    "__properties_version1.0": props,
    "__substg1.0_0037001F": utf16(opts.subject),
    "__substg1.0_0C1A001F": utf16(opts.senderName),
    "__substg1.0_0C1F001F": utf16(opts.senderEmail),
    "__substg1.0_5D01001F": utf16(opts.senderEmail),
    "__substg1.0_1000001F": utf16(opts.body),
    "__recip_version1.0_#00000000/__properties_version1.0": Buffer.alloc(8),
    "__recip_version1.0_#00000000/__substg1.0_3001001F": utf16(opts.to),
    "__recip_version1.0_#00000000/__substg1.0_39FE001F": utf16(opts.to),
    "__nameid_version1.0/__substg1.0_00020102": Buffer.alloc(0),
    "__nameid_version1.0/__substg1.0_00030102": Buffer.alloc(0),
    "__nameid_version1.0/__substg1.0_00040102": Buffer.alloc(0),
  };
  if (opts.html) streams["__substg1.0_10130102"] = Buffer.from(opts.html, "utf8");
  (opts.attachments ?? []).forEach((a, i) => {
    const dir = `__attach_version1.0_#${String(i).padStart(8, "0")}`;
    streams[`${dir}/__properties_version1.0`] = Buffer.alloc(8);
    streams[`${dir}/__substg1.0_3707001F`] = utf16(a.name);
    streams[`${dir}/__substg1.0_3704001F`] = utf16(a.name);
    streams[`${dir}/__substg1.0_370E001F`] = utf16(a.mime);
    streams[`${dir}/__substg1.0_37010102`] = a.data;
  });
  return makeCfb(streams);
}

/** An .eml (MIME) message with a text and an HTML body, an inline cid: image and attachments. */
export function makeEml(opts: {
  subject: string;
  from: string;
  to: string;
  html?: string;
  text: string;
  attachments?: Array<{ name: string; mime: string; data: Buffer; cid?: string }>;
}): Buffer {
  const b = "quire-boundary-1";
  const parts: string[] = [];
  parts.push(`--${b}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${opts.text}\r\n`);
  if (opts.html) parts.push(`--${b}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${opts.html}\r\n`);
  for (const a of opts.attachments ?? []) {
    const disp = a.cid ? `inline; filename="${a.name}"\r\nContent-ID: <${a.cid}>` : `attachment; filename="${a.name}"`;
    const b64 = a.data.toString("base64").replace(/.{76}/g, "$&\r\n");
    parts.push(`--${b}\r\nContent-Type: ${a.mime}; name="${a.name}"\r\nContent-Disposition: ${disp}\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64}\r\n`);
  }
  const head = [
    `From: ${opts.from}`,
    `To: ${opts.to}`,
    `Subject: ${opts.subject}`,
    `Date: Tue, 24 Nov 2026 09:00:00 +0000`,
    `MIME-Version: 1.0`,
    `Content-Type: multipart/mixed; boundary="${b}"`,
  ].join("\r\n");
  return Buffer.from(`${head}\r\n\r\n${parts.join("")}--${b}--\r\n`, "utf8");
}

/**
 * An .odt whose document-load event runs a Basic macro that writes `markerPath`: converting it
 * must never create that file (macros are disabled in every job's profile).
 */
export function makeOdtWithMacro(markerPath: string): Buffer {
  const basic = `Sub Main\n  Dim n As Integer\n  n = FreeFile\n  Open "${markerPath}" For Output As #n\n  Print #n, "macro ran"\n  Close #n\nEnd Sub\n`;
  const x = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.3">
<office:scripts><office:event-listeners><script:event-listener script:language="ooo:script" script:event-name="office:load" xlink:href="vnd.sun.star.script:Standard.Module1.Main?language=Basic&amp;location=document" xlink:type="simple"/></office:event-listeners></office:scripts>
<office:body><office:text><text:p>Document with a macro</text:p></office:text></office:body></office:document-content>`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
<manifest:file-entry manifest:full-path="Basic/script-lc.xml" manifest:media-type="text/xml"/>
<manifest:file-entry manifest:full-path="Basic/Standard/script-lb.xml" manifest:media-type="text/xml"/>
<manifest:file-entry manifest:full-path="Basic/Standard/Module1.xml" manifest:media-type="text/xml"/>
</manifest:manifest>`;
  const lc = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE library:libraries PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "libraries.dtd">
<library:libraries xmlns:library="http://openoffice.org/2000/library" xmlns:xlink="http://www.w3.org/1999/xlink"><library:library library:name="Standard" library:link="false"/></library:libraries>`;
  const lb = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE library:library PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "library.dtd">
<library:library xmlns:library="http://openoffice.org/2000/library" library:name="Standard" library:readonly="false" library:passwordprotected="false"><library:element library:name="Module1"/></library:library>`;
  const moduleXml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">${x(basic)}</script:module>`;
  return makeZip([
    { name: "mimetype", data: Buffer.from("application/vnd.oasis.opendocument.text"), store: true },
    { name: "content.xml", data: Buffer.from(content) },
    { name: "META-INF/manifest.xml", data: Buffer.from(manifest) },
    { name: "Basic/script-lc.xml", data: Buffer.from(lc) },
    { name: "Basic/Standard/script-lb.xml", data: Buffer.from(lb) },
    { name: "Basic/Standard/Module1.xml", data: Buffer.from(moduleXml) },
  ]);
}
