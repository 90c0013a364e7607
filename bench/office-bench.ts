/**
 * docx → PDF through the API (POST /v1/pdf/convert/from/doc, a generated 5-page .docx) against a
 * direct `soffice --headless --convert-to pdf` of the same file, as ratios. The direct call is
 * what a user would script: a new LibreOffice per file (its start included), with an initialised
 * profile (its best case). Quire is measured twice:
 *  - warm: the worker's spare LibreOffice is ready (a pause between calls, outside the timing),
 *    the case of a request arriving at a server that is not converting back to back;
 *  - back to back: the next request arrives as soon as the previous answer, while the worker is
 *    still starting its next spare.
 * Targets: warm within 1.2× the direct call and under 2 s for 5 pages. Quire and soffice are
 * timed alternately, soffice at Quire's work priority (bench/side-by-side.ts).
 */
import fs from "node:fs";
import path from "node:path";
import type { QuireServer } from "../tests/helpers/quire-server";
import { uploadBytes } from "../tests/helpers/api-client";
import { makeDocx } from "../tests/helpers/office-fixtures";
import { hasTool, runTool, sideBySide } from "./side-by-side";

const SPARE_READY_MS = 3000;

export async function benchDocxToPdf(
  q: QuireServer,
  tmp: string,
  timeIt: (fn: () => Promise<unknown> | unknown, runs?: number) => Promise<number>,
): Promise<string[][]> {
  const docx = makeDocx({ pages: 5, linesPerPage: 30 });
  const file = path.join(tmp, "five.docx");
  fs.writeFileSync(file, docx);
  const url = await uploadBytes(q, docx, "five.docx");
  const call = async () => {
    const r = await q.api("/v1/pdf/convert/from/doc", { json: { url } });
    if (r.status !== 200 || r.body.pageCount !== 5) throw new Error(`docx → PDF failed: ${JSON.stringify(r.body).slice(0, 300)}`);
  };
  const pause = () => new Promise((r) => setTimeout(r, SPARE_READY_MS));
  // Warm-up: each sandbox worker prepares its LibreOffice profile on its first conversion, then starts its spare.
  await Promise.all([call(), call()]);
  await pause();
  let warm: number;
  let direct = 0;
  if (hasTool("soffice")) {
    const profile = `-env:UserInstallation=file://${path.join(tmp, "soffice-profile")}`;
    const out = path.join(tmp, "soffice-out");
    const run = () => runTool("soffice", [profile, "--headless", "--convert-to", "pdf", "--outdir", out, file]);
    run(); // creates the profile
    // Quire, pause (its worker's next spare gets ready), soffice, …
    const t = await sideBySide(call, run, 5, pause);
    warm = t.quire;
    direct = t.tool;
  } else {
    warm = await timeIt(async () => {
      await call();
      await pause();
    }, 5) - SPARE_READY_MS;
  }
  const backToBack = await timeIt(call, 5);
  const tool = (quire: number) =>
    direct ? `soffice --convert-to pdf ${direct.toFixed(0)} ms (Quire/soffice ${(quire / direct).toFixed(2)}×)` : "soffice not installed";
  return [
    ["POST /v1/pdf/convert/from/doc, 5-page docx (warm: spare ready)", `${warm.toFixed(0)} ms`, tool(warm), "target ≤ 1.2× soffice, < 2000 ms"],
    ["POST /v1/pdf/convert/from/doc, 5-page docx (back to back)", `${backToBack.toFixed(0)} ms`, tool(backToBack), "(spare still starting)"],
  ];
}
