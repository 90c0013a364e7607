import type { ParseResult } from "./parse-document";

/** The document parser's result as CSV or XML (JSON is the object itself). */

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * CSV: the fields first, one `name,value` line each (with a `name,value` header when
 * `generateCsvHeaders`), then each table after an empty line: its name, its column names (with
 * headers), and a line per row.
 */
export function toCsv(result: ParseResult, headers: boolean): string {
  const lines: string[] = [];
  const fields = result.objects.filter((o) => o.objectType === "field");
  if (fields.length) {
    if (headers) lines.push("name,value");
    for (const f of fields) lines.push(`${csvCell(f.name)},${csvCell(f.value)}`);
  }
  for (const t of result.objects) {
    if (t.objectType !== "table") continue;
    if (lines.length) lines.push("");
    lines.push(csvCell(t.name));
    const columns = t.columns;
    if (headers && columns.length) lines.push(columns.map(csvCell).join(","));
    for (const r of t.rows) lines.push(columns.map((c) => csvCell(r[c]?.value)).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

const xmlText = (v: unknown) =>
  String(v ?? "").replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);
const xmlName = (n: string) => (/^[A-Za-z_][\w.-]*$/.test(n) ? n : "_" + n.replace(/[^\w.-]/g, "_"));

/** XML: `<template>` with a `<field>` per field and a `<table>` of `<row>`s of columns. */
export function toXml(result: ParseResult): string {
  const out = [`<?xml version="1.0" encoding="utf-8"?>`, `<template name="${xmlText(result.templateName)}" version="${xmlText(result.templateVersion)}">`];
  for (const o of result.objects) {
    if (o.objectType === "field") {
      const box = o.x !== undefined ? ` x="${o.x}" y="${o.y}" width="${o.width}" height="${o.height}"` : "";
      out.push(`  <field name="${xmlText(o.name)}"${o.pageIndex !== null ? ` pageIndex="${o.pageIndex}"` : ""}${box}>${xmlText(o.value)}</field>`);
    } else {
      out.push(`  <table name="${xmlText(o.name)}">`);
      for (const r of o.rows) {
        out.push("    <row>");
        for (const c of o.columns) out.push(`      <${xmlName(c)}>${xmlText(r[c]?.value)}</${xmlName(c)}>`);
        out.push("    </row>");
      }
      out.push("  </table>");
    }
  }
  out.push("</template>");
  return out.join("\n") + "\n";
}
