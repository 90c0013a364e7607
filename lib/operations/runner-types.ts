/**
 * What a runner receives and returns. Runners run inside a sandboxed child process with a
 * wall-time and memory cap (lib/jobs/sandbox); they get bytes on disk and typed params, never
 * database access. Throw QuireError for anything the caller should fix.
 */
export interface SourceFile {
  /** Absolute path of the downloaded (and, if asked, decrypted) source. */
  path: string;
  /** File name from the URL or upload (e.g. "invoice.pdf"). */
  name: string;
  /** Content-Type reported by the server or upload, may be empty. */
  contentType: string;
  size: number;
  /** The URL it came from. */
  url: string;
}

export interface OutputFile {
  /** Absolute path of a file the runner wrote inside `workDir`. */
  path: string;
  /** File name the caller sees, e.g. "result_page1-2.pdf". */
  name: string;
  contentType: string;
}

export interface RunContext<P> {
  /** Validated params of the operation's contract (profiles parsed into an object). */
  params: P;
  /** Inputs; empty for input kind "webpage". */
  sources: SourceFile[];
  /** A private temporary directory for outputs; deleted after the job. */
  workDir: string;
  /**
   * Fetches a secondary URL named in the params (edit/add images, rulescsvurl) through the
   * egress guard (or straight from storage for Quire's own URLs). Honours httpusername/password.
   */
  fetchUrl(url: string): Promise<{ bytes: Buffer; contentType: string; name: string }>;
  /** Progress messages for logs; optional. */
  log(message: string): void;
  /**
   * How many other sandbox children this job may use at most (the pool's size less one); 0 or
   * unset outside a pool. With runBeside, a job over many pages splits its pages among them.
   */
  besideSlots?: number;
  /**
   * Runs an internal task (lib/operations/runners.ts) in another sandbox child that is free now,
   * on this job's sources and work directory, inside this job's time and memory budget; the
   * job is charged once, for its own result. Resolves null when no child is free (the caller
   * then does the work itself); rejects with the task's error.
   */
  runBeside?(opId: string, params: unknown): Promise<RunResult | null>;
}

export interface RunResult {
  /** Files to store and link: one → `url`, several or `multiple: true` → `urls`. */
  outputs?: OutputFile[];
  /** Answer with `urls` even for one output (split, attachments). */
  multiple?: boolean;
  /** Extra envelope fields: `info`, `body` (classifier/invoice object), `fileSize`, ... */
  fields?: Record<string, unknown>;
  /**
   * The text result for `inline: true` (CSV, HTML). When set and the caller asked inline,
   * the spine puts it in `body` and stores no file.
   */
  inlineText?: string;
  /** Pages of the document (or of the output); the answer's `pageCount`. */
  pageCount?: number;
  /**
   * Pages the operation worked on (the pages selected by `pages`, or every page); drives the
   * per-page credits. Unset: `pageCount`.
   */
  pagesProcessed?: number;
  message?: string;
}

export type Runner<P> = (ctx: RunContext<P>) => Promise<RunResult>;
