import net from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sendEmail } from "@/lib/engine/email/send-email";

/** email-send at the engine level: nodemailer against smtp-server on loopback, the egress rules, the timeout. */

let smtp: SMTPServer;
let port: number;
let silent: net.Server;
let silentPort: number;
const seen: Buffer[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, _s, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        seen.push(Buffer.concat(chunks));
        cb();
      });
    },
    onRcptTo(addr, _s, cb) {
      cb(addr.address.endsWith("@refused.example") ? new Error("No such user") : undefined);
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  port = (smtp.server.address() as net.AddressInfo).port;
  silent = net.createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
  silentPort = (silent.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => smtp.close(() => r(undefined)));
  silent.close();
});

const base = { from: "Quire <quire@example.org>", to: "a@example.org", subject: "Hi", text: "Body", attachments: [], timeoutMs: 5000 };

describe("sendEmail", () => {
  test("delivers to an allowed server: recipients accepted and refused, attachment bytes", async () => {
    const r = await sendEmail({
      ...base,
      server: "127.0.0.1",
      port,
      to: "a@example.org, nobody@refused.example",
      attachments: [{ name: "x.bin", contentType: "application/octet-stream", content: Buffer.from([1, 2, 3]) }],
      egress: { policy: `127.0.0.1:${port}` },
    });
    expect(r.accepted).toEqual(["a@example.org"]);
    expect(r.rejected).toEqual(["nobody@refused.example"]);
    const m = await simpleParser(seen.at(-1)!);
    expect(m.subject).toBe("Hi");
    expect([...m.attachments[0].content]).toEqual([1, 2, 3]);
  });

  test("the server's address must pass the egress rules: loopback without an allow entry → 403, before any connection", async () => {
    const before = seen.length;
    await expect(sendEmail({ ...base, server: "127.0.0.1", port, egress: { policy: "" } })).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/^smtpServer: /) });
    await expect(sendEmail({ ...base, server: "localhost", port, egress: { policy: "" } })).rejects.toMatchObject({ status: 403 });
    await expect(sendEmail({ ...base, server: "mail.internal", port: 25, egress: { policy: "", lookup: async () => [{ address: "10.0.0.5", family: 4 }] } })).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/10\.0\.0\.5/) });
    expect(seen.length).toBe(before);
  });

  test("a server that never greets → 408 within the timeout", async () => {
    const t0 = Date.now();
    await expect(sendEmail({ ...base, server: "127.0.0.1", port: silentPort, timeoutMs: 1000, egress: { policy: `127.0.0.1:${silentPort}` } })).rejects.toMatchObject({ status: 408 });
    expect(Date.now() - t0).toBeLessThan(4000);
  });

  test("nothing listening → 400 naming the server", async () => {
    const free = await new Promise<number>((r) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => r(p));
      });
    });
    await expect(sendEmail({ ...base, server: "127.0.0.1", port: free, egress: { policy: `127.0.0.1:${free}` } })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^smtpServer: cannot connect to 127\.0\.0\.1/) });
  });
});
