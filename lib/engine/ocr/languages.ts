import "server-only";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { QuireError } from "@/lib/core/errors";

/**
 * OCR languages, the same for both engines (native `tesseract` and tesseract.js):
 * - the system's Tesseract data (Debian's tesseract-ocr-<lang> packages: eng deu fra spa ita por
 *   nld are installed by scripts/env.sh), found with `tesseract --list-langs` or in
 *   TESSDATA_PREFIX / the usual Debian folders;
 * - `eng` and `fra` from npm (@tesseract.js-data/<lang>/4.0.0), so the fallback works without them;
 * - anything dropped as `<code>.traineddata` (or `.traineddata.gz`) in OCR_LANG_DIR (default
 *   `<DATA_DIR>/tessdata`, DATA_DIR default ./data).
 * Nothing is ever downloaded: each engine gets a private local folder assembled from these files.
 */

const NPM_LANGS = ["eng", "fra"] as const;
/** Not recognition languages: orientation/script detection and the equation model. */
const NOT_LANGUAGES = new Set(["osd", "equ"]);

/** The folder of extra traineddata files. */
export function extraLanguageDir(): string {
  const dataDir = process.env.DATA_DIR ?? "./data";
  return path.resolve(process.env.OCR_LANG_DIR ?? path.join(dataDir, "tessdata"));
}

let systemDirCache: string | null | undefined;

/** The native Tesseract's data folder, or null when there is none. */
export function systemTessdataDir(): string | null {
  if (systemDirCache !== undefined) return systemDirCache;
  const candidates: string[] = [];
  if (process.env.TESSDATA_PREFIX) candidates.push(process.env.TESSDATA_PREFIX, path.join(process.env.TESSDATA_PREFIX, "tessdata"));
  try {
    const res = spawnSync("tesseract", ["--list-langs"], { encoding: "utf8", timeout: 10_000 });
    const m = /in "([^"]+)"/.exec(`${res.stdout ?? ""}${res.stderr ?? ""}`);
    if (m) candidates.push(m[1]);
  } catch {
    /* no native tesseract */
  }
  candidates.push("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata");
  systemDirCache = candidates.find((d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith(".traineddata"))) ?? null;
  return systemDirCache;
}

/** Traineddata files of a folder, by code (osd and equ excluded unless asked for). */
function scan(dir: string, out: Map<string, string>, withOsd = false): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const m = /^([A-Za-z0-9_]+)\.traineddata(\.gz)?$/.exec(name);
    if (m && !out.has(m[1]) && (withOsd || !NOT_LANGUAGES.has(m[1]))) out.set(m[1], path.join(dir, name));
  }
}

function npmLanguages(out: Map<string, string>): void {
  const require = createRequire(import.meta.url);
  for (const code of NPM_LANGS) {
    if (out.has(code)) continue;
    try {
      const pkg = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
      const file = path.join(pkg, "4.0.0", `${code}.traineddata.gz`);
      if (existsSync(file)) out.set(code, file);
    } catch {
      // Package missing: the language is simply not installed.
    }
  }
}

/**
 * Where the traineddata of each installed language is, by code. `engine` picks the preferred
 * source where a language exists twice: the system's files for the native engine, npm's for
 * tesseract.js (its own tested models); the set of codes is the same for both.
 */
export function installedLanguages(engine: "native" | "wasm" = "native"): Map<string, string> {
  const out = new Map<string, string>();
  const system = systemTessdataDir();
  if (engine === "wasm") npmLanguages(out);
  scan(extraLanguageDir(), out);
  if (system) scan(system, out);
  npmLanguages(out);
  return out;
}

/**
 * Validates `lang` ("eng", "eng+fra"; default eng) against the installed languages.
 * Unknown or malformed → 400 naming the installed languages.
 */
export function parseLanguages(lang: string | undefined): string[] {
  const text = (lang ?? "").trim() || "eng";
  const installed = installedLanguages();
  const names = [...installed.keys()].sort().join(", ");
  const codes = text.split("+").map((c) => c.trim());
  for (const code of codes) {
    if (!/^[a-z]{3}(_[a-z0-9]+)?$/i.test(code)) {
      throw new QuireError(400, `lang: "${text}" is not a language list; use codes like eng or eng+fra. Installed: ${names}.`);
    }
    if (!installed.has(code)) {
      throw new QuireError(400, `lang: language "${code}" is not installed. Installed: ${names}. Add more by putting ${code}.traineddata in ${extraLanguageDir()}.`);
    }
  }
  return [...new Set(codes)];
}

interface PrivateDir {
  dir: string;
  linked: Set<string>;
}
const privateDirs = new Map<string, PrivateDir>();

function privateDir(kind: "wasm" | "native"): PrivateDir {
  let d = privateDirs.get(kind);
  if (d) return d;
  const dir = path.join(tmpdir(), `quire-tessdata-${kind}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  d = { dir, linked: new Set() };
  privateDirs.set(kind, d);
  if (privateDirs.size === 1) {
    process.once("exit", () => {
      for (const p of privateDirs.values()) {
        try {
          rmSync(p.dir, { recursive: true, force: true });
        } catch {
          /* best effort */
        }
      }
    });
  }
  return d;
}

const isGzip = (file: string) => {
  const head = readFileSync(file).subarray(0, 2);
  return head[0] === 0x1f && head[1] === 0x8b;
};

/**
 * A private folder holding `<code>.traineddata.gz` links to every installed language, used as
 * tesseract.js's langPath (it wants all languages in one folder; plain files under a .gz name
 * are fine, it checks the gzip magic bytes).
 */
export function tesseractLangPath(codes: string[]): string {
  const p = privateDir("wasm");
  const installed = installedLanguages("wasm");
  for (const code of codes) {
    if (p.linked.has(code)) continue;
    const src = installed.get(code);
    if (!src) throw new QuireError(400, `lang: language "${code}" is not installed.`);
    const dst = path.join(p.dir, `${code}.traineddata.gz`);
    rmSync(dst, { force: true });
    symlinkSync(src, dst);
    p.linked.add(code);
  }
  return p.dir;
}

/**
 * The `--tessdata-dir` for the native engine: the system folder itself when it holds every
 * requested language, else a private folder of links (gzipped extra files are unpacked there,
 * native Tesseract reads only plain ones). `osd` is linked too for orientation detection.
 */
export function nativeTessdataDir(codes: string[]): string {
  const system = systemTessdataDir();
  const installed = installedLanguages("native");
  // The system folder itself when every language comes from it (a file in OCR_LANG_DIR wins).
  if (system && codes.every((c) => installed.get(c) === path.join(system, `${c}.traineddata`))) return system;
  const p = privateDir("native");
  if (system) scan(system, installed, true);
  for (const code of [...codes, "osd"]) {
    if (p.linked.has(code)) continue;
    const src = installed.get(code);
    if (!src) {
      if (code === "osd") continue;
      throw new QuireError(400, `lang: language "${code}" is not installed.`);
    }
    const dst = path.join(p.dir, `${code}.traineddata`);
    rmSync(dst, { force: true });
    if (isGzip(src)) writeFileSync(dst, gunzipSync(readFileSync(src)));
    else symlinkSync(src, dst);
    p.linked.add(code);
  }
  return p.dir;
}
