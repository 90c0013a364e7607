import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { z } from "zod";
import type { QuireError } from "@/lib/core/errors";
import type { RunContext, RunResult } from "@/lib/operations/runner-types";
import { operation as attachmentsOp } from "@/lib/operations/pdf-attachments-extract/contract";
import { run as runAttachments } from "@/lib/operations/pdf-attachments-extract/runner";
import { operation as fieldsOp } from "@/lib/operations/pdf-info-fields/contract";
import { run as runFields } from "@/lib/operations/pdf-info-fields/runner";
import { operation as infoOp } from "@/lib/operations/pdf-info/contract";
import { run as runInfo } from "@/lib/operations/pdf-info/runner";
import { operation as splitOp } from "@/lib/operations/pdf-split/contract";
import { run as runSplit } from "@/lib/operations/pdf-split/runner";
import {
  encryptPdf,
  FORM_FIXTURE_FIELDS,
  makeDamagedPdf,
  makeFormPdf,
  makePdf,
  makePdfWithAttachments,
  pageTexts,
} from "@/tests/helpers/pdf-fixtures";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A RunContext like the spine's: the source on disk, a private work dir, typed params. */
async function contextFor<P>(
  schema: z.ZodType<P>,
  bytes: Uint8Array,
  params: Record<string, unknown>,
): Promise<RunContext<P>> {
  const dir = await mkdtemp(path.join(tmpdir(), "quire-pdf-"));
  dirs.push(dir);
  const source = path.join(dir, "source.pdf");
  await writeFile(source, bytes);
  const workDir = path.join(dir, "work");
  await (await import("node:fs/promises")).mkdir(workDir);
  return {
    params: schema.parse({ url: "https://example.com/source.pdf", ...params }),
    sources: [
      {
        path: source,
        name: "source.pdf",
        contentType: "application/pdf",
        size: bytes.byteLength,
        url: "https://example.com/source.pdf",
      },
    ],
    workDir,
    fetchUrl: async () => {
      throw new Error("no secondary fetches expected");
    },
    log: () => {},
  };
}

async function failure(p: Promise<RunResult>): Promise<number> {
  try {
    await p;
  } catch (e) {
    return (e as QuireError).status;
  }
  return 0;
}

describe("pdf-info runner", () => {
  test("answers info with the public API's fields", async () => {
    const ctx = await contextFor(infoOp.params, makePdf({ pages: 3, info: { Title: "Hello" } }), {
      profiles: { OCRMode: "Never" },
    });
    const result = await runInfo(ctx);
    expect(result.pageCount).toBe(3);
    const info = result.fields?.info as Record<string, unknown>;
    expect(info).toMatchObject({ PageCount: 3, Title: "Hello", Encrypted: false, EncryptionAlgorithm: 0 });
    expect(Object.keys(info)).toEqual([
      "PageCount",
      "Author",
      "Title",
      "Producer",
      "Subject",
      "Creator",
      "Keywords",
      "Bookmarks",
      "CreationDate",
      "ModificationDate",
      "Encrypted",
      "EncryptionAlgorithm",
      "PageRectangle",
      "PermissionPrinting",
      "PermissionModifyDocument",
      "PermissionContentExtraction",
      "PermissionModifyAnnotations",
      "PermissionFillForms",
      "PermissionAccessibility",
      "PermissionAssemble",
      "PermissionHighQualityPrint",
    ]);
    expect(result.outputs ?? []).toEqual([]);
  });

  test("441 without the password, success with it, 442 for HTML", async () => {
    const enc = encryptPdf(makePdf(), { userPassword: "pw" });
    expect(await failure(runInfo(await contextFor(infoOp.params, enc, {})))).toBe(441);
    expect(await failure(runInfo(await contextFor(infoOp.params, enc, { password: "bad" })))).toBe(441);
    const ok = await runInfo(await contextFor(infoOp.params, enc, { password: "pw" }));
    expect((ok.fields?.info as { Encrypted: boolean }).Encrypted).toBe(true);
    expect(await failure(runInfo(await contextFor(infoOp.params, makeDamagedPdf("html"), {})))).toBe(442);
  });
});

describe("pdf-info-fields runner", () => {
  test("info plus FieldsInfo.Fields", async () => {
    const result = await runFields(await contextFor(fieldsOp.params, await makeFormPdf(), {}));
    const info = result.fields?.info as {
      PageCount: number;
      FieldsInfo: { Fields: Record<string, unknown>[] };
    };
    expect(info.PageCount).toBe(2);
    expect(info.FieldsInfo.Fields).toHaveLength(FORM_FIXTURE_FIELDS.length);
    for (const [i, f] of FORM_FIXTURE_FIELDS.entries()) expect(info.FieldsInfo.Fields[i]).toMatchObject(f);
  });

  test("a PDF without a form → empty Fields", async () => {
    const result = await runFields(await contextFor(fieldsOp.params, makePdf(), {}));
    expect((result.fields?.info as { FieldsInfo: { Fields: unknown[] } }).FieldsInfo.Fields).toEqual([]);
  });
});

describe("pdf-split runner", () => {
  test("one file per group, named result_pageN, pageCount = the pages written out (what is charged)", async () => {
    const ctx = await contextFor(splitOp.params, makePdf({ pages: 5 }), { pages: "1-2,3,!1" });
    const result = await runSplit(ctx);
    expect(result.multiple).toBe(true);
    expect(result.pageCount).toBe(4);
    expect(result.outputs?.map((o) => o.name)).toEqual([
      "result_page1-2.pdf",
      "result_page3.pdf",
      "result_page5.pdf",
    ]);
    const texts = await Promise.all(
      (result.outputs ?? []).map(async (o) => pageTexts(await readFile(o.path))),
    );
    expect(texts).toEqual([["Page 1", "Page 2"], ["Page 3"], ["Page 5"]]);
    for (const o of result.outputs ?? []) {
      expect(o.contentType).toBe("application/pdf");
      expect(path.dirname(o.path)).toBe(ctx.workDir);
    }
  });

  test("empty pages splits every page; name gives the base", async () => {
    const result = await runSplit(
      await contextFor(splitOp.params, makePdf({ pages: 3 }), { name: "invoice.pdf" }),
    );
    expect(result.outputs?.map((o) => o.name)).toEqual([
      "invoice_page1.pdf",
      "invoice_page2.pdf",
      "invoice_page3.pdf",
    ]);
  });

  test("449 past the end, 450 malformed", async () => {
    expect(
      await failure(runSplit(await contextFor(splitOp.params, makePdf({ pages: 3 }), { pages: "2-4" }))),
    ).toBe(449);
    expect(
      await failure(runSplit(await contextFor(splitOp.params, makePdf({ pages: 3 }), { pages: "1-x" }))),
    ).toBe(450);
  });

  test("443 when permissions forbid assembling, unless the owner password is sent", async () => {
    const locked = encryptPdf(makePdf({ pages: 2 }), {
      userPassword: "",
      ownerPassword: "boss",
      permissions: ["print"],
    });
    expect(await failure(runSplit(await contextFor(splitOp.params, locked, {})))).toBe(443);
    const ok = await runSplit(await contextFor(splitOp.params, locked, { password: "boss" }));
    expect(ok.outputs).toHaveLength(2);
  });
});

describe("pdf-attachments-extract runner", () => {
  test("one output per embedded file with its name and bytes", async () => {
    const pdf = makePdfWithAttachments([
      { name: "data.csv", data: "a,b\n", mimeType: "text/csv" },
      { name: "note.txt", data: "hi", via: "annotation" },
    ]);
    const result = await runAttachments(await contextFor(attachmentsOp.params, pdf, {}));
    expect(result.multiple).toBe(true);
    expect(result.pageCount).toBe(1);
    expect(result.outputs?.map((o) => [o.name, o.contentType])).toEqual([
      ["data.csv", "text/csv"],
      ["note.txt", "text/plain"],
    ]);
    expect((await readFile(result.outputs![0].path)).toString()).toBe("a,b\n");
    expect((await readFile(result.outputs![1].path)).toString()).toBe("hi");
  });

  test("no attachments → success with no outputs (urls: [])", async () => {
    const result = await runAttachments(await contextFor(attachmentsOp.params, makePdf(), {}));
    expect(result.outputs).toEqual([]);
    expect(result.multiple).toBe(true);
  });
});

describe("contracts", () => {
  test("ids, paths, page bases and costs", () => {
    expect(
      [infoOp, fieldsOp, splitOp, attachmentsOp].map((o) => [
        o.id,
        o.path,
        o.pageBase,
        o.cost.perCall,
        o.cost.perPage,
      ]),
    ).toEqual([
      ["pdf-info", "/v1/pdf/info", 0, 1, 0],
      ["pdf-info-fields", "/v1/pdf/info/fields", 0, 1, 0],
      ["pdf-split", "/v1/pdf/split", 1, 1, 1],
      ["pdf-attachments-extract", "/v1/pdf/attachments/extract", 0, 1, 0],
    ]);
  });

  test("info accepts the OCR and encryption profile keys", () => {
    const parsed = infoOp.params.parse({
      url: "https://x/y.pdf",
      profiles: {
        OCRMode: "Auto",
        OCRResolution: 300,
        DataDecryptionAlgorithm: "AES256",
        DataDecryptionKey: "k",
      },
    });
    expect(parsed.profiles?.OCRResolution).toBe(300);
  });

  test("url is required", () => {
    expect(splitOp.params.safeParse({}).success).toBe(false);
  });
});
