import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunContext } from "@/lib/operations/runner-types";
import { operation as invoiceOp } from "@/lib/operations/ai-invoice-parser/contract";
import { run as runInvoice } from "@/lib/operations/ai-invoice-parser/runner";
import { operation as classifierOp } from "@/lib/operations/pdf-classifier/contract";
import { run as runClassifier } from "@/lib/operations/pdf-classifier/runner";
import { parseRules } from "@/lib/engine/classify/parse-rules";
import { shutdownOcr } from "@/lib/engine/ocr/pool";
import {
  SPECS,
  invoicePdf,
  labelledDocuments,
  makeTextPdf,
  renderPng,
} from "@/tests/helpers/invoice-fixtures";

const dir = mkdtempSync(path.join(tmpdir(), "quire-intel-"));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await shutdownOcr();
});

function ctx<P>(
  params: P,
  bytes: Uint8Array,
  name = "doc.pdf",
  files: Record<string, string> = {},
): RunContext<P> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}-${name}`);
  writeFileSync(file, bytes);
  return {
    params,
    sources: [{ path: file, name, contentType: "", size: bytes.length, url: `https://example.com/${name}` }],
    workDir: dir,
    fetchUrl: async (url) => {
      if (!(url in files)) throw Object.assign(new Error("not found"), { name: "QuireError", status: 400 });
      return { bytes: Buffer.from(files[url]), contentType: "text/csv", name: "rules.csv" };
    },
    log: () => {},
  };
}

describe("ai-invoice-parser contract and runner", () => {
  it("is always asynchronous, in the intelligence category, with the public API's fields", () => {
    expect(invoiceOp).toMatchObject({
      id: "ai-invoice-parser",
      path: "/v1/ai-invoice-parser",
      alwaysAsync: true,
      category: "intelligence",
      input: "document",
    });
    const p = invoiceOp.params.parse({
      url: "https://x/inv.pdf",
      customField: "deliveryDate",
      profiles: { IncludeFieldSources: true },
    });
    expect(p.profiles?.IncludeFieldSources).toBe(true);
  });

  it("answers body (and fieldSources when asked), pageCount and message", async () => {
    const bytes = await invoicePdf(SPECS.usClassic);
    const plain = await runInvoice(
      ctx(invoiceOp.params.parse({ url: "u", customField: "deliveryDate" }), bytes),
    );
    expect(plain.pageCount).toBe(1);
    expect(plain.message).toMatch(/layout analysis/);
    expect(plain.fields?.fieldSources).toBeUndefined();
    const body = plain.fields?.body as Record<string, any>;
    expect(body.invoice.invoiceNo).toBe("INV-10482");
    expect(body.deliveryDate).toBe("2024-03-01");
    const withSources = await runInvoice(
      ctx(invoiceOp.params.parse({ url: "u", profiles: { IncludeFieldSources: true } }), bytes),
    );
    expect((withSources.fields?.fieldSources as Record<string, unknown>)["vendor.name"]).toMatchObject({
      page: 0,
    });
  });
});

describe("pdf-classifier contract and runner", () => {
  const invoice = () => invoicePdf(SPECS.usClassic);

  it("declares the public API's fields and profile keys", () => {
    const shape = classifierOp.params.shape;
    for (const k of [
      "url",
      "rulescsv",
      "rulescsvurl",
      "caseSensitive",
      "inline",
      "password",
      "async",
      "callback",
      "name",
      "expiration",
      "httpusername",
      "httppassword",
      "profiles",
    ]) {
      expect(shape, k).toHaveProperty(k);
    }
    const p = classifierOp.params.parse({
      url: "u",
      profiles: {
        RenderTextObjects: false,
        TIFFCompression: "CCITT4",
        OCRMode: "Auto",
        IncludeMatchDetails: true,
      },
    });
    expect(p.profiles?.TIFFCompression).toBe("CCITT4");
  });

  it("custom rules: matching classes in rule order, details on request", async () => {
    const rules =
      "Contract, AND, agreement, signature\nInvoice, OR, /INV-\\d+/, nothing here\nBilling, OR, Subtotal";
    const r = await runClassifier(
      ctx(
        classifierOp.params.parse({ url: "u", rulescsv: rules, profiles: { IncludeMatchDetails: true } }),
        await invoice(),
      ),
    );
    expect(r.fields?.body).toEqual({ classes: [{ class: "Invoice" }, { class: "Billing" }] });
    expect(r.pageCount).toBe(1);
    const matches = r.fields?.matches as {
      class: string;
      matched: boolean;
      keywords: { keyword: string; positions: unknown[] }[];
    }[];
    expect(matches.map((m) => [m.class, m.matched])).toEqual([
      ["Contract", false],
      ["Invoice", true],
      ["Billing", true],
    ]);
    expect(matches[1].keywords[0].positions[0]).toMatchObject({ page: 0, text: "INV-10482" });
  });

  it("caseSensitive false", async () => {
    const r = await runClassifier(
      ctx(
        classifierOp.params.parse({ url: "u", rulescsv: "X, OR, brightline supply", caseSensitive: false }),
        await invoice(),
      ),
    );
    expect(r.fields?.body).toEqual({ classes: [{ class: "X" }] });
    const r2 = await runClassifier(
      ctx(classifierOp.params.parse({ url: "u", rulescsv: "X, OR, brightline supply" }), await invoice()),
    );
    expect(r2.fields?.body).toEqual({ classes: [] });
  });

  it("rules from rulescsvurl", async () => {
    const r = await runClassifier(
      ctx(
        classifierOp.params.parse({ url: "u", rulescsvurl: "https://rules.example/r.csv" }),
        await invoice(),
        "i.pdf",
        { "https://rules.example/r.csv": "Acme,Brightline|Nothing" },
      ),
    );
    expect(r.fields?.body).toEqual({ classes: [{ class: "Acme" }] });
  });

  it("a malformed rule is a 400 naming the line and the problem", async () => {
    await expect(
      runClassifier(
        ctx(classifierOp.params.parse({ url: "u", rulescsv: "A, OR, ok\nB, OR, /[a/" }), await invoice()),
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^rulescsv line 2: invalid regex \/\[a\/: /),
    });
  });

  it("built-in: document type, organisation, country", async () => {
    const r = await runClassifier(
      ctx(classifierOp.params.parse({ url: "u", profiles: { IncludeMatchDetails: true } }), await invoice()),
    );
    expect(r.fields?.body).toEqual({
      classes: [{ class: "invoice" }, { class: "Brightline Supply Inc." }, { class: "United States" }],
    });
    expect((r.fields?.matches as { scores: Record<string, number> }[])[0].scores.invoice).toBeGreaterThan(0);
  });

  it("built-in on an image (OCR): a PNG of a resume", async () => {
    const doc = labelledDocuments().find((d) => d.name === "resume-en")!;
    const png = renderPng(await makeTextPdf(doc.pages), 0, 150);
    const r = await runClassifier(ctx(classifierOp.params.parse({ url: "u" }), png, "cv.png"));
    expect((r.fields?.body as { classes: { class: string }[] }).classes[0]).toEqual({ class: "resume" });
  }, 60_000);

  it("the rules parser is universal (no server-only import) for the dashboard editor", async () => {
    const src = await import("node:fs").then((fs) =>
      fs.readFileSync(path.join(process.cwd(), "lib/engine/classify/parse-rules.ts"), "utf8"),
    );
    expect(src).not.toMatch(/import\s+["']server-only["']|from\s+["']/);
    expect(parseRules("A, OR, x").errors).toEqual([]);
  });
});
