import "server-only";
import { accessSync, constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { envNumber } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { familyOf, sniffOfficeFormat, SHEET_FORMATS, TEXT_FORMATS, type OfficeFamily, type OfficeFormat } from "./office-format";
import { keepOnlySheet } from "./keep-only-sheet";
import { canIsolateNetwork, judgeExit, launchSoffice, profileArg, runSoffice as runCapped, type SofficeCaps } from "./soffice-process";
import { keepSpareReady, stopSpare, takeSpare, type SpareOffice } from "./spare-office";

export { canIsolateNetwork, setNetworkIsolationForTests } from "./soffice-process";

/**
 * Office documents (doc, docx, rtf, odt; xls, xlsx, ods, csv) → PDF by LibreOffice in headless
 * mode. Each job gets its own copy of a prepared user profile (macros disabled at the highest
 * security level, links to untrusted places blocked, the Internet proxy pointed at a closed port),
 * its own process group, and runs:
 *   - without network: in a fresh network namespace (`unshare -n`) when the host allows it, so
 *     no link, linked image or external data source is ever fetched;
 *   - under caps: address space and written-file size (prlimit), CPU seconds, and a wall-time
 *     timer that kills the whole process group (→ 408), backed by coreutils `timeout` should
 *     this process die first;
 * The bytes are sniffed first (office-format.ts): zip bombs are refused before LibreOffice
 * inflates anything, encrypted documents are refused with a clear message.
 *
 * The profile template is built once per process (first call) and copied per LibreOffice
 * instance. A job normally runs on the process's spare (spare-office.ts): an instance started
 * ahead of it with its own fresh profile under the same caps and namespace, used for that one job
 * and then killed, so no instance ever holds two callers' documents; without one (the first job,
 * other caps, OFFICE_SPARE_IDLE_MS=0) the job starts LibreOffice itself.
 */
export interface OfficeLimits {
  /** Wall time of one LibreOffice run. */
  timeoutMs: number;
  /** Address-space cap of LibreOffice (RLIMIT_AS). */
  memoryMb: number;
  /** Largest file LibreOffice may write (RLIMIT_FSIZE): the PDF and its temp files. */
  maxOutputMb: number;
  maxUncompressedBytes: number;
  maxZipEntries: number;
  maxZipRatio: number;
}

/** OFFICE_TIMEOUT_MS (120 s), OFFICE_MEMORY_MB (2048), OFFICE_MAX_OUTPUT_MB (512), OFFICE_MAX_UNCOMPRESSED_BYTES (512 MiB). */
export function officeLimitsFromEnv(): OfficeLimits {
  return {
    timeoutMs: envNumber("OFFICE_TIMEOUT_MS", 120_000),
    memoryMb: envNumber("OFFICE_MEMORY_MB", 2048),
    maxOutputMb: envNumber("OFFICE_MAX_OUTPUT_MB", 512),
    maxUncompressedBytes: envNumber("OFFICE_MAX_UNCOMPRESSED_BYTES", 512 * 1024 * 1024),
    maxZipEntries: envNumber("OFFICE_MAX_ZIP_ENTRIES", 10_000),
    maxZipRatio: envNumber("OFFICE_MAX_ZIP_RATIO", 1000),
  };
}

export interface OfficeToPdfOptions {
  /** Which family the caller's endpoint takes (from/doc: text, xls/convert/to/pdf: sheet); default either. */
  accept?: OfficeFamily;
  /** Spreadsheets: print only this sheet (1-based, as SheetJS and Excel count sheets). */
  worksheetIndex?: number;
  /** Spreadsheets: each printed sheet on one page sized to its content (LibreOffice's SinglePageSheets). */
  autosize?: boolean;
  limits?: Partial<OfficeLimits>;
  /** Directory for the job's files (default: a temp directory, removed afterwards). */
  workDir?: string;
  log?: (line: string) => void;
}

export interface OfficeToPdfResult {
  pdf: Buffer;
  format: OfficeFormat;
  /** Milliseconds LibreOffice ran (all runs of the job). */
  officeMs: number;
}

const what = "the document";

/** Converts one office document to PDF; errors are QuireErrors that say what to fix. */
export async function convertOfficeToPdf(
  input: { bytes: Buffer; name: string },
  opts: OfficeToPdfOptions = {},
): Promise<OfficeToPdfResult> {
  const limits = { ...officeLimitsFromEnv(), ...opts.limits };
  const log = opts.log ?? (() => {});
  const format = sniffOfficeFormat(input.bytes, input.name, what, {
    maxUncompressedBytes: limits.maxUncompressedBytes,
    maxEntries: limits.maxZipEntries,
    maxRatio: limits.maxZipRatio,
  });
  const family = familyOf(format);
  if (opts.accept && opts.accept !== family) {
    const list = (opts.accept === "text" ? TEXT_FORMATS : SHEET_FORMATS).join(", ");
    const other = family === "sheet" ? "/v1/xls/convert/to/pdf" : "/v1/pdf/convert/from/doc";
    throw new QuireError(415, `${what}: this is a ${format} file; this operation takes ${list} (use ${other}).`);
  }
  const soffice = requireSoffice();
  const started = Date.now();
  const dir = await fs.mkdtemp(path.join(opts.workDir ?? os.tmpdir(), "office-"));
  try {
    const template = await profileTemplate(soffice, limits, log);
    // One time budget for the job, however many LibreOffice runs it takes.
    const deadline = started + limits.timeoutMs;
    const budget = (): OfficeLimits => {
      const left = deadline - Date.now();
      if (left <= 0) throw new QuireError(408, `${what}: converting it took longer than ${Math.round(limits.timeoutMs / 1000)} s.`);
      return { ...limits, timeoutMs: left };
    };
    let source = path.join(dir, `document.${format}`);
    await fs.writeFile(source, input.bytes);
    let runFormat = format;
    if (family === "sheet" && opts.worksheetIndex !== undefined) {
      // Only the chosen sheet is printed: the others are hidden in an xlsx copy (LibreOffice
      // prints no hidden sheet). Other workbook formats become xlsx first, by LibreOffice.
      if (format !== "xlsx") {
        source = await runSoffice(soffice, template, dir, source, "xlsx:Calc MS Excel 2007 XML", runFormat, budget(), log);
        runFormat = "xlsx";
      }
      const only = await keepOnlySheet(await fs.readFile(source), opts.worksheetIndex);
      source = path.join(dir, "sheet.xlsx");
      await fs.writeFile(source, only);
    }
    const filter =
      family === "sheet"
        ? `pdf:calc_pdf_Export${opts.autosize ? ':{"SinglePageSheets":{"type":"boolean","value":"true"}}' : ""}`
        : "pdf:writer_pdf_Export";
    const out = await runSoffice(soffice, template, dir, source, filter, runFormat, budget(), log);
    const pdf = await fs.readFile(out);
    const officeMs = Date.now() - started;
    log(`office: ${format} → PDF (${pdf.length} bytes) in ${officeMs} ms`);
    return { pdf, format, officeMs };
  } finally {
    await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
    // The next job's instance starts now, after this one's work (it competes for no CPU with it).
    if (templatePromise) keepSpareReady(soffice, templatePromise, officeLimitsFromEnv());
  }
}

/** soffice (SOFFICE_PATH or found); 500 naming the missing packages otherwise. */
function requireSoffice(): string {
  const found = findSoffice();
  if (!found)
    throw new QuireError(
      500,
      "LibreOffice is not installed on this server (Debian: libreoffice-writer-nogui and libreoffice-calc-nogui; scripts/env.sh installs them).",
    );
  return found;
}

let sofficeCache: string | null | undefined;

/** The LibreOffice launcher (SOFFICE_PATH, else soffice/libreoffice on PATH), or null. */
export function findSoffice(): string | null {
  if (sofficeCache !== undefined) return sofficeCache;
  const candidates = [process.env.SOFFICE_PATH, "/usr/bin/soffice", "/usr/lib/libreoffice/program/soffice", "/usr/bin/libreoffice"];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) if (dir) candidates.push(path.join(dir, "soffice"));
  sofficeCache = null;
  for (const c of candidates) {
    if (!c) continue;
    try {
      accessSync(c, fsConstants.X_OK); // once per process
      sofficeCache = c;
      break;
    } catch {
      /* next */
    }
  }
  return sofficeCache;
}


/**
 * Settings of every job's profile: macros never run (security level "very high" and execution
 * disabled), documents may not pull links from untrusted places, and the Internet proxy is a
 * closed loopback port (the floor under the network namespace, or the only guard without one).
 */
const registryItems = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="SecureURL" oor:op="fuse"><value/></prop></item>
<item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetProxyType" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetHTTPProxyName" oor:op="fuse"><value>127.0.0.1</value></prop></item>
<item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetHTTPProxyPort" oor:op="fuse"><value>9</value></prop></item>
<item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetHTTPSProxyName" oor:op="fuse"><value>127.0.0.1</value></prop></item>
<item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetHTTPSProxyPort" oor:op="fuse"><value>9</value></prop></item>
<item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetFTPProxyName" oor:op="fuse"><value>127.0.0.1</value></prop></item>
<item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetFTPProxyPort" oor:op="fuse"><value>9</value></prop></item>
<item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetNoProxy" oor:op="fuse"><value></value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseOpenCL" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="CreateBackup" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

let templatePromise: Promise<string> | undefined;

/** The prepared profile of this process: initialised once by LibreOffice, then our settings written in. */
function profileTemplate(soffice: string, limits: OfficeLimits, log: (l: string) => void): Promise<string> {
  templatePromise ??= (async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "quire-office-profile-"));
    const started = Date.now();
    await runCapped(what, soffice, [profileArg(dir), "--headless", "--norestore", "--nologo", "--nodefault", "--nolockcheck", "--terminate_after_init"], dir, limits);
    await fs.mkdir(path.join(dir, "user"), { recursive: true });
    await fs.writeFile(path.join(dir, "user", "registrymodifications.xcu"), registryItems);
    // The backup copy LibreOffice restores settings from must not bring the defaults back.
    await fs.rm(path.join(dir, "user", "pack"), { recursive: true, force: true });
    log(`office: profile template ready in ${Date.now() - started} ms (network isolation: ${canIsolateNetwork() ? "namespace" : "proxy only"})`);
    return dir;
  })();
  templatePromise.catch(() => {
    templatePromise = undefined;
  });
  return templatePromise;
}

/**
 * One LibreOffice run converting `source` with `filter` into `dir/out-…`; returns the output's path.
 * On the spare when there is one that fits the caps, else by a LibreOffice of its own.
 * No output (LibreOffice prints "source file could not be loaded" and exits 0) → 442.
 */
async function runSoffice(
  soffice: string,
  template: string,
  dir: string,
  source: string,
  filter: string,
  format: OfficeFormat,
  limits: OfficeLimits,
  log: (l: string) => void,
): Promise<string> {
  const started = Date.now();
  const outDir = await fs.mkdtemp(path.join(dir, "out-"));
  const convertArgs = ["--headless", "--norestore", "--nologo", "--nodefault", "--nolockcheck", "--nofirststartwizard"];
  if (format === "csv") convertArgs.push("--infilter=CSV:44,34,76,1");
  convertArgs.push("--convert-to", filter, "--outdir", outDir, source);
  let ran: { output: string; exit: number | string } | undefined;
  const spare = await takeSpare(limits);
  if (spare) ran = await runOnSpare(spare, soffice, convertArgs, limits);
  if (!ran) {
    const left = limits.timeoutMs - (Date.now() - started);
    if (left <= 0) throw timeoutError(limits);
    const profile = await fs.mkdtemp(path.join(dir, "profile-"));
    await fs.cp(template, profile, { recursive: true });
    ran = await runCapped(what, soffice, [profileArg(profile), ...convertArgs], dir, { ...limits, timeoutMs: left });
    await fs.rm(profile, { recursive: true, force: true }).catch(() => {});
  }
  log(`office: LibreOffice ${spare ? `(spare ${path.basename(spare.dir)}) ` : ""}ran ${Date.now() - started} ms`);
  const { output, exit } = ran;
  const outputs = await fs.readdir(outDir);
  if (outputs.length === 0 && exit !== 0) {
    // LibreOffice exits 0 on a file it cannot load; anything else is a crash or a cap (an
    // allocation refused under RLIMIT_AS aborts it).
    log(`office: LibreOffice stopped (${exit}); it said: ${output.slice(-500)}`);
    throw new QuireError(
      442,
      `${what}: LibreOffice stopped while converting the ${format} file (exit ${exit}): the file is damaged, or converting it needs more than this server allows (${limits.memoryMb} MB).`,
    );
  }
  if (outputs.length === 0) {
    log(`office: no output; LibreOffice said: ${output.slice(-500)}`);
    throw new QuireError(
      442,
      `${what}: LibreOffice could not open the ${format} file (damaged, password-protected, or not really a ${format} file).`,
    );
  }
  return path.join(outDir, outputs[0]);
}

function timeoutError(limits: SofficeCaps): QuireError {
  return new QuireError(408, `${what}: LibreOffice took longer than ${Math.round(limits.timeoutMs / 1000)} s to convert it.`);
}

/**
 * The conversion on the spare: a forwarding `soffice` with the spare's profile hands the request
 * to the waiting instance over its pipe and exits when the instance has written the file. The
 * forwarder runs under the same caps and namespace (should the spare be gone, it converts
 * itself). Both are killed when the job ends or its time is up. Undefined when the spare died
 * before the job (the caller starts LibreOffice itself).
 */
async function runOnSpare(
  spare: SpareOffice,
  soffice: string,
  convertArgs: string[],
  limits: OfficeLimits,
): Promise<{ output: string; exit: number | string } | undefined> {
  let timedOut = false;
  let forwarder: ReturnType<typeof launchSoffice> | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    forwarder?.killGroup();
    spare.dispose();
  }, limits.timeoutMs);
  try {
    const ready = await spare.ready;
    if (timedOut) throw timeoutError(limits);
    if (!ready) return undefined;
    const client = launchSoffice(soffice, [profileArg(spare.profile), ...convertArgs], spare.dir, limits, limits.timeoutMs);
    forwarder = client;
    const first = await Promise.race([
      client.exited.then((r) => ({ by: "forwarder" as const, r })),
      spare.run.exited.then((r) => ({ by: "spare" as const, r })),
    ]);
    if (timedOut) throw timeoutError(limits);
    const output = `${spare.run.output()}\n${client.output()}`;
    // The instance ending first is a crash or a cap (its forwarder is then left waiting).
    const { exit } = judgeExit(what, first.r, output, limits);
    return { output, exit: first.by === "spare" && exit === 0 ? "spare ended" : exit };
  } finally {
    clearTimeout(timer);
    forwarder?.killGroup();
    spare.dispose();
  }
}

/** For tests and the benchmark: the profile template, prepared ahead of the first job. */
export async function warmOffice(log?: (l: string) => void): Promise<void> {
  const soffice = requireSoffice();
  const template = profileTemplate(soffice, officeLimitsFromEnv(), log ?? (() => {}));
  await template;
  keepSpareReady(soffice, template, officeLimitsFromEnv());
}

/** For tests: no spare until the next job ends (that job starts LibreOffice itself). */
export async function stopOfficeSpare(): Promise<void> {
  await stopSpare();
}
