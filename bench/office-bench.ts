/**
 * docx → PDF through the API (POST /v1/pdf/convert/from/doc, a generated 5-page .docx) against a
 * direct `soffice --headless --convert-to pdf` of the same file with an initialised profile (its
 * best case), as a ratio. Both are warm: the sandbox workers have converted once, and soffice's
 * profile exists. Targets: within 1.2× the direct call and under 2 s for 5 pages.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { QuireServer } from "../tests/helpers/quire-server";
import { uploadBytes } from "../tests/helpers/api-client";
import { makeDocx } from "../tests/helpers/office-fixtures";

export async function benchDocxToPdf(
  q: QuireServer,
  tmp: string,
  timeIt: (fn: () => Promise<unknown> | unknown, runs?: number) => Promise<number>,
): Promise<string[]> {
  const docx = makeDocx({ pages: 5, linesPerPage: 30 });
  const file = path.join(tmp, "five.docx");
  fs.writeFileSync(file, docx);
  const url = await uploadBytes(q, docx, "five.docx");
  const call = async () => {
    const r = await q.api("/v1/pdf/convert/from/doc", { json: { url } });
    if (r.status !== 200 || r.body.pageCount !== 5) throw new Error(`docx → PDF failed: ${JSON.stringify(r.body).slice(0, 300)}`);
  };
  // Warm-up: each sandbox worker prepares its LibreOffice profile on its first conversion.
  await Promise.all([call(), call()]);
  await call();
  const quire = await timeIt(call, 5);
  let direct = "soffice not installed";
  try {
    execFileSync("which", ["soffice"], { stdio: "ignore" });
    const profile = `-env:UserInstallation=file://${path.join(tmp, "soffice-profile")}`;
    const out = path.join(tmp, "soffice-out");
    const run = () => execFileSync("soffice", [profile, "--headless", "--convert-to", "pdf", "--outdir", out, file], { stdio: "ignore" });
    run(); // creates the profile
    const t = await timeIt(run, 5);
    direct = `soffice --convert-to pdf ${t.toFixed(0)} ms (Quire/soffice ${(quire / t).toFixed(2)}×)`;
  } catch {
    /* soffice missing: the row says so */
  }
  return ["POST /v1/pdf/convert/from/doc, 5-page docx", `${quire.toFixed(0)} ms`, direct, "target ≤ 1.2× soffice, < 2000 ms"];
}
