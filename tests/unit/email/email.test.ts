import { describe, expect, test } from "vitest";
import { parseEmail, isMsgFile } from "@/lib/engine/email/parse-email";
import { makeEml, makeMsg } from "@/tests/helpers/email-fixtures";

/** email-decode and email-extract-attachments at the engine level: .eml by mailparser, .msg by msgreader. */

describe("parseEmail (.eml)", () => {
  test("addresses, subject, date, both bodies, attachments with their bytes", async () => {
    const pdf = Buffer.from("%PDF-1.4\n% a tiny pdf\n");
    const eml = await makeEml({
      cc: "Carol <carol@example.org>",
      html: "<p>Hello <b>Bob</b></p>",
      attachments: [
        { filename: "report.pdf", content: pdf, contentType: "application/pdf" },
        { filename: "notes – été.txt", content: "ünïcödé notes", contentType: "text/plain; charset=utf-8" },
      ],
    });
    const m = await parseEmail(eml);
    expect(m).toMatchObject({
      format: "eml",
      from: "Alice Sender <alice@example.org>",
      to: "Bob Receiver <bob@example.org>",
      cc: "Carol <carol@example.org>",
      subject: "Quarterly report",
      date: "2026-03-04T05:06:07.000Z",
      messageId: "<test-1@example.org>",
    });
    expect(m.bodyText.trim()).toBe("Hello Bob,\nthe report is attached.");
    expect(m.bodyHtml).toContain("<p>Hello <b>Bob</b></p>");
    expect(m.attachments.map((a) => [a.name, a.contentType])).toEqual([
      ["report.pdf", "application/pdf"],
      ["notes – été.txt", "text/plain"],
    ]);
    expect(m.attachments[0].content.equals(pdf)).toBe(true);
    expect(m.attachments[1].content.toString("utf8")).toBe("ünïcödé notes");
  });

  test("a message without attachments; a file that is no e-mail → 415", async () => {
    const m = await parseEmail(await makeEml({ subject: "Plain" }));
    expect(m.attachments).toEqual([]);
    expect(m.subject).toBe("Plain");
    await expect(parseEmail(Buffer.from("%PDF-1.7\n..."))).rejects.toMatchObject({ status: 415 });
    await expect(parseEmail(Buffer.alloc(0))).rejects.toMatchObject({ status: 415 });
  });
});

describe("parseEmail (.msg)", () => {
  test("Outlook .msg: sender, recipients, subject, body, attachments", async () => {
    const data = Buffer.from("col1,col2\n1,2\n");
    const msg = makeMsg({
      subject: "Invoice 2026-0042",
      body: "Please find the invoice attached.",
      senderName: "Dora Billing",
      senderEmail: "billing@example.com",
      to: [{ name: "Eve Client", email: "eve@example.net" }],
      attachments: [{ name: "invoice-data.csv", content: data, mime: "text/csv" }],
    });
    expect(isMsgFile(msg)).toBe(true);
    const m = await parseEmail(msg);
    expect(m).toMatchObject({
      format: "msg",
      subject: "Invoice 2026-0042",
      from: "Dora Billing <billing@example.com>",
      to: "Eve Client <eve@example.net>",
    });
    expect(m.bodyText).toBe("Please find the invoice attached.");
    expect(m.attachments.map((a) => [a.name, a.contentType])).toEqual([["invoice-data.csv", "text/csv"]]);
    expect(m.attachments[0].content.equals(data)).toBe(true);
  });

  test("a damaged compound file → 442", async () => {
    const msg = makeMsg({ subject: "x", body: "y", senderName: "a", senderEmail: "a@b.c", to: [], attachments: [] });
    await expect(parseEmail(Buffer.concat([msg.subarray(0, 600)]))).rejects.toMatchObject({ status: 442 });
  });
});
