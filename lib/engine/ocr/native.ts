import "server-only";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";
import { nativeTessdataDir } from "@/lib/engine/ocr/languages";

/**
 * The native Tesseract engine (Debian's `tesseract-ocr`): one short-lived process per page, fed
 * a gray BMP file (preprocess.ts toTesseractImage), answering TSV (or OSD text) on stdout. A process per page is the isolation
 * rule of the sandbox children applied to OCR: a page that crashes or traps the engine cannot
 * break the next job's. Each process runs single-threaded (OMP_THREAD_LIMIT=1; pages run in
 * parallel instead), under an address-space cap and a wall-time limit.
 *
 * OCR_ENGINE=auto (default) uses it when `tesseract` is on PATH, else tesseract.js; `native`
 * requires it; `wasm` always uses tesseract.js.
 */

export type EngineName = "native" | "wasm";

let probed: boolean | undefined;

/** True when a `tesseract` command of version 4 or later runs. */
export function nativeAvailable(): boolean {
  if (probed !== undefined) return probed;
  try {
    const res = spawnSync("tesseract", ["--version"], { encoding: "utf8", timeout: 10_000 });
    const m = /tesseract\s+v?(\d+)/i.exec(`${res.stdout ?? ""}${res.stderr ?? ""}`);
    probed = !res.error && !!m && Number(m[1]) >= 4;
  } catch {
    probed = false;
  }
  return probed;
}

/** The engine OCR uses now (OCR_ENGINE: auto | native | wasm). */
export function ocrEngine(): EngineName {
  const want = (process.env.OCR_ENGINE ?? "auto").trim().toLowerCase();
  if (want === "wasm") return "wasm";
  if (want === "native") {
    if (!nativeAvailable()) throw new QuireError(500, "OCR_ENGINE=native but the tesseract command is not installed (apt-get install tesseract-ocr).");
    return "native";
  }
  return nativeAvailable() ? "native" : "wasm";
}

/** Wall-time limit of one native Tesseract run. */
const TIMEOUT_MS = 120_000;
/** Address-space cap of one native run: a 1200 dpi A4 page stays well under it. */
export const NATIVE_MAX_MB = 2048;

/** Result of one run: stdout, stderr, exit code (null: killed). */
interface RunResult {
  out: string;
  err: string;
  code: number | null;
}

/** This process's folder for the images handed to tesseract (removed at exit). */
let imageDir: string | undefined;
let imageSeq = 0;

function imageFile(): string {
  if (!imageDir || !existsSync(imageDir)) {
    imageDir = mkdtempSync(path.join(tmpdir(), `quire-ocr-${process.pid}-`));
    const dir = imageDir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return path.join(imageDir, `${++imageSeq}.img`);
}

/**
 * Runs `tesseract <image> stdout <args>` on `input`, under the caps above. The image goes
 * through a file, not stdin: Tesseract reads stdin a character at a time (measured: +0.1 s of
 * CPU per 300 dpi A4 page, a third of a sparse page's whole reading); writing the file costs
 * a few milliseconds.
 */
export async function runTesseract(input: Buffer, args: string[], timeoutMs = TIMEOUT_MS): Promise<RunResult> {
  const file = imageFile();
  await writeFile(file, input);
  try {
    return await runOn(file, args, timeoutMs);
  } finally {
    await rm(file, { force: true });
  }
}

function runOn(file: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // ulimit in a shell: Node's spawn has no rlimit option; exec keeps one process.
    const child = spawn("/bin/sh", ["-c", `ulimit -v ${NATIVE_MAX_MB * 1024} 2>/dev/null; exec tesseract "$@"`, "sh", file, "stdout", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    });
    const out: Buffer[] = [];
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => {
      if (err.length < 4000) err += d.toString();
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ out: Buffer.concat(out).toString("utf8"), err, code });
    });
  });
}

/** One row of Tesseract's TSV output (level 4 = line, 5 = word). */
export interface TsvRow {
  level: number;
  block: number;
  par: number;
  line: number;
  left: number;
  top: number;
  width: number;
  height: number;
  conf: number;
  text: string;
}

export function parseTsv(tsv: string): TsvRow[] {
  const rows: TsvRow[] = [];
  for (const line of tsv.split("\n")) {
    const f = line.split("\t");
    if (f.length < 12 || f[0] === "level") continue;
    rows.push({
      level: Number(f[0]),
      block: Number(f[2]),
      par: Number(f[3]),
      line: Number(f[4]),
      left: Number(f[6]),
      top: Number(f[7]),
      width: Number(f[8]),
      height: Number(f[9]),
      conf: Number(f[10]),
      text: f.slice(11).join("\t").replace(/\r$/, ""),
    });
  }
  return rows;
}

/** Recognises an image file's bytes (BMP, PNM, PNG...): TSV rows, in Tesseract's reading order (blocks, paragraphs, lines). */
export async function recognizeNative(image: Buffer, langs: string[], dpi: number, psm = 3): Promise<TsvRow[]> {
  const dir = nativeTessdataDir(langs);
  const res = await runTesseract(image, ["--tessdata-dir", dir, "-l", langs.join("+"), "--psm", String(psm), "--dpi", String(Math.round(dpi)), "tsv"]);
  if (res.code !== 0) {
    throw new QuireError(500, `OCR: tesseract failed (${res.code === null ? "killed: time or memory limit" : `exit ${res.code}`}): ${res.err.trim().slice(0, 300)}`);
  }
  return parseTsv(res.out);
}
