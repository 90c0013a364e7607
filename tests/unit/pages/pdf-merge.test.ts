import { afterAll, describe, expect, test } from "vitest";
import { run } from "@/lib/operations/pdf-merge/runner";
import { encryptPdf, makeDamagedPdf, makePdf, pageTexts } from "@/tests/helpers/pdf-fixtures";
import { messageOf, runRunner, statusOf, workspace } from "./run-helper";

/** pdf-merge runner: order, passwords per input, errors naming the input, pageCount. */

const ws = workspace();
afterAll(() => ws.cleanup());

const pdf = (label: string, pages = 1) => makePdf({ pages, text: (i) => `${label}${i + 1}` });

describe("pdf-merge runner", () => {
  test("merges in the order of url; pageCount is the merged page count", async () => {
    const r = await runRunner(run, { url: "x" }, [ws.source("a.pdf", pdf("A", 2)), ws.source("b.pdf", pdf("B", 1))], ws.dir);
    expect(r.pageCount).toBe(3);
    expect(r.outputs?.[0].name).toBe("result.pdf");
    expect(pageTexts(r.files[0])).toEqual(["A1", "A2", "B1"]);
  });

  test("name sets the output name (.pdf added)", async () => {
    const r = await runRunner(run, { url: "x", name: "bundle" }, [ws.source("a.pdf", pdf("A"))], ws.dir);
    expect(r.outputs?.[0].name).toBe("bundle.pdf");
  });

  test("password opens every encrypted input; passwords[i] wins for its input", async () => {
    const one = encryptPdf(pdf("S"), { userPassword: "common" });
    const two = encryptPdf(pdf("T"), { userPassword: "own, with comma" });
    const r = await runRunner(
      run,
      { url: "x", password: "common", passwords: ["", "own, with comma", ""] },
      [ws.source("s.pdf", one), ws.source("t.pdf", two), ws.source("p.pdf", pdf("P"))],
      ws.dir,
    );
    expect(pageTexts(r.files[0])).toEqual(["S1", "T1", "P1"]);
  });

  test("a missing password → 441 naming the input and where the password goes", async () => {
    const sources = [ws.source("plain.pdf", pdf("A")), ws.source("locked.pdf", encryptPdf(pdf("B"), { userPassword: "pw" }))];
    const p = runRunner(run, { url: "x" }, sources, ws.dir);
    expect(await statusOf(p)).toBe(441);
    expect(await messageOf(runRunner(run, { url: "x" }, sources, ws.dir))).toMatch(/^url #2 \(locked\.pdf\): .*passwords\[1\]/);
    expect(await messageOf(runRunner(run, { url: "x", password: "nope" }, sources, ws.dir))).toMatch(/^url #2 \(locked\.pdf\): wrong password/);
  });

  test("a damaged input → 442 naming it", async () => {
    const sources = [ws.source("a.pdf", pdf("A")), ws.source("b.pdf", pdf("B")), ws.source("broken.pdf", makeDamagedPdf("truncated"))];
    const msg = await messageOf(runRunner(run, { url: "x" }, sources, ws.dir));
    expect(msg).toMatch(/^url #3 \(broken\.pdf\): /);
    expect(await statusOf(runRunner(run, { url: "x" }, sources, ws.dir))).toBe(442);
  });

  test("passwords of the wrong length → 400", async () => {
    const p = runRunner(run, { url: "x", passwords: ["a"] }, [ws.source("a.pdf", pdf("A")), ws.source("b.pdf", pdf("B"))], ws.dir);
    expect(await messageOf(p)).toMatch(/^passwords: 1 password\(s\) for 2 URL\(s\)/);
  });

  test("an input whose permissions forbid assembly needs its owner password (443)", async () => {
    const locked = encryptPdf(pdf("L"), { userPassword: "", ownerPassword: "boss", permissions: ["print"] });
    const sources = [ws.source("a.pdf", pdf("A")), ws.source("locked.pdf", locked)];
    expect(await statusOf(runRunner(run, { url: "x" }, sources, ws.dir))).toBe(443);
    const r = await runRunner(run, { url: "x", passwords: ["", "boss"] }, sources, ws.dir);
    expect(pageTexts(r.files[0])).toEqual(["A1", "L1"]);
  });
});
