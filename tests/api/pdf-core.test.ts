import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQuire, waitForJob, type QuireServer } from "../helpers/quire-server";
import { download, uploadBytes } from "../helpers/api-client";
import { FORM_FIXTURE_FIELDS, makeFormPdf, makePdf, makePdfWithAttachments, encryptPdf } from "../helpers/pdf-fixtures";

let q: QuireServer;
beforeAll(async () => {
  q = await startQuire();
});
afterAll(async () => q?.stop());

describe("PDF core operations over HTTP", () => {
  it("POST /v1/pdf/info (metadata, dates in M/d/yyyy h:mm:ss AM|PM, permissions)", async () => {
    const src = await uploadBytes(
      q,
      makePdf({ pages: 2, info: { Title: "Quarterly", Author: "Ada", CreationDate: new Date(Date.UTC(2024, 2, 5, 14, 7, 9)) } }),
      "meta.pdf",
    );
    const r = await q.api("/v1/pdf/info", { json: { url: src } });
    expect(r.status).toBe(200);
    expect(r.body.info).toMatchObject({ PageCount: 2, Title: "Quarterly", Author: "Ada", Encrypted: false, PermissionPrinting: true });
    expect(r.body.info.CreationDate).toBe("3/5/2024 2:07:09 PM");
    expect(r.body.info.PageRectangle).toMatchObject({ Width: 612, Height: 792, Size: "612, 792" });
  });

  it("POST /v1/pdf/info (restricted permissions of an encrypted PDF)", async () => {
    const src = await uploadBytes(q, encryptPdf(makePdf(), { userPassword: "", ownerPassword: "own", permissions: ["print"] }), "perm.pdf");
    const r = await q.api("/v1/pdf/info", { json: { url: src } });
    expect(r.status).toBe(200);
    expect(r.body.info.Encrypted).toBe(true);
    expect(r.body.info.PermissionPrinting).toBe(true);
    expect(r.body.info.PermissionModifyDocument).toBe(false);
  });

  it("POST /v1/pdf/info/fields (FieldName, Value, Type, AltFieldName, PageIndex)", async () => {
    const src = await uploadBytes(q, await makeFormPdf(), "form.pdf");
    const r = await q.api("/v1/pdf/info/fields", { json: { url: src } });
    expect(r.status).toBe(200);
    expect(r.body.info.PageCount).toBe(2);
    const fields = r.body.info.FieldsInfo.Fields;
    for (const want of FORM_FIXTURE_FIELDS) {
      expect(fields.find((f: { FieldName: string }) => f.FieldName === want.FieldName)).toMatchObject(want);
    }
  });

  it("POST /v1/pdf/attachments/extract (one URL per file, original names and bytes)", async () => {
    const src = await uploadBytes(
      q,
      makePdfWithAttachments([
        { name: "notes.txt", data: "hello attachments", mimeType: "text/plain" },
        { name: "data.csv", data: "a,b\n1,2\n", via: "annotation" },
      ]),
      "att.pdf",
    );
    const r = await q.api("/v1/pdf/attachments/extract", { json: { url: src } });
    expect(r.status).toBe(200);
    expect(r.body.urls).toHaveLength(2);
    const files = await Promise.all(r.body.urls.map((u: string) => download(u)));
    const byName = Object.fromEntries(
      files.map((f) => [/filename="([^"]+)"/.exec(f.headers.get("content-disposition") ?? "")![1], f.bytes.toString("utf8")]),
    );
    expect(byName["notes.txt"]).toBe("hello attachments");
    expect(byName["data.csv"]).toBe("a,b\n1,2\n");
  });

  it("POST /v1/pdf/attachments/extract (none → empty urls; async works)", async () => {
    const src = await uploadBytes(q, makePdf(), "plain.pdf");
    const r = await q.api("/v1/pdf/attachments/extract", { json: { url: src } });
    expect(r.status).toBe(200);
    expect(r.body.urls).toEqual([]);
    const a = await q.api("/v1/pdf/attachments/extract", { json: { url: src, async: true } });
    expect((await waitForJob(q, a.body.jobId)).status).toBe("success");
  });

  it("POST /v1/pdf/split (name sets the output names; more items than pages → error)", async () => {
    const src = await uploadBytes(q, makePdf({ pages: 2 }), "two.pdf");
    const r = await q.api("/v1/pdf/split", { json: { url: src, name: "report.pdf" } });
    expect(r.status).toBe(200);
    const names = await Promise.all(
      r.body.urls.map(async (u: string) => /filename="([^"]+)"/.exec((await download(u)).headers.get("content-disposition")!)![1]),
    );
    expect(names).toEqual(["report_page1.pdf", "report_page2.pdf"]);
    const reverse = await q.api("/v1/pdf/split", { json: { url: src, pages: "!1" } });
    expect(reverse.status).toBe(200);
    expect(reverse.body.urls).toHaveLength(1);
  });
});
