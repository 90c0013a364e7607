import "server-only";
import { existsSync, mkdirSync, readdirSync, symlinkSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { QuireError } from "@/lib/core/errors";

/**
 * OCR languages: `eng` and `fra` ship with npm (@tesseract.js-data/<lang>/4.0.0); more are
 * added by dropping `<code>.traineddata` (or `.traineddata.gz`) files into the folder named by
 * OCR_LANG_DIR (default `<DATA_DIR>/tessdata`, DATA_DIR default ./data). Nothing is ever
 * downloaded: tesseract.js gets a local langPath assembled from these files.
 */

const NPM_LANGS = ["eng", "fra"] as const;

/** The folder of extra traineddata files. */
export function extraLanguageDir(): string {
  const dataDir = process.env.DATA_DIR ?? "./data";
  return path.resolve(process.env.OCR_LANG_DIR ?? path.join(dataDir, "tessdata"));
}

/** Where the traineddata of each installed language is, by code. */
export function installedLanguages(): Map<string, string> {
  const out = new Map<string, string>();
  const require = createRequire(import.meta.url);
  for (const code of NPM_LANGS) {
    try {
      const pkg = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
      const file = path.join(pkg, "4.0.0", `${code}.traineddata.gz`);
      if (existsSync(file)) out.set(code, file);
    } catch {
      // Package missing: the language is simply not installed.
    }
  }
  const extra = extraLanguageDir();
  if (existsSync(extra)) {
    for (const name of readdirSync(extra)) {
      const m = /^([A-Za-z0-9_]+)\.traineddata(\.gz)?$/.exec(name);
      if (m && !out.has(m[1])) out.set(m[1], path.join(extra, name));
    }
  }
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

let langDir: string | null = null;
let linked = new Set<string>();

/**
 * A private folder holding `<code>.traineddata.gz` links to every installed language, used as
 * tesseract.js's langPath (it wants all languages in one folder; plain files under a .gz name
 * are fine, it checks the gzip magic bytes).
 */
export function tesseractLangPath(codes: string[]): string {
  if (!langDir) {
    langDir = path.join(tmpdir(), `quire-tessdata-${process.pid}`);
    rmSync(langDir, { recursive: true, force: true });
    mkdirSync(langDir, { recursive: true });
    linked = new Set();
    process.once("exit", () => {
      try {
        if (langDir) rmSync(langDir, { recursive: true, force: true });
      } catch {
        /* best effort */
      }
    });
  }
  const installed = installedLanguages();
  for (const code of codes) {
    if (linked.has(code)) continue;
    const src = installed.get(code);
    if (!src) throw new QuireError(400, `lang: language "${code}" is not installed.`);
    const dst = path.join(langDir, `${code}.traineddata.gz`);
    rmSync(dst, { force: true });
    symlinkSync(src, dst);
    linked.add(code);
  }
  return langDir;
}
