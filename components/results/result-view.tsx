"use client";

import { useState, useSyncExternalStore, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { readJson } from "@/lib/dashboard/data/http";
import { fileNameOf, formatBytes, isLinkExpired } from "@/lib/dashboard/shell/format";
import { Notice } from "@/components/ui/notice";
import { Icon } from "@/components/ui/icon";
import { JsonTree } from "./json-tree";
import { PdfPreview } from "./pdf-preview";
import { CsvTable } from "./csv-table";
import { ClassifierResult } from "@/components/rules/classifier-result";
import { InvoiceView } from "@/components/invoice/invoice-view";
import { LocalTime } from "@/components/ui/local-time";
import { CopyButton } from "@/components/ui/copy-button";
import { infoLabel } from "@/lib/dashboard/results/info-labels";

type Result = Record<string, unknown>;

const textOutputQuery = (url: string, as?: "csv") => ({
  queryKey: ["output", url, as ?? ""] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const res = await fetch(`/api/output?url=${encodeURIComponent(url)}${as ? `&as=${as}` : ""}`, { signal });
    if (!res.ok) await readJson(res);
    return res.text();
  },
  staleTime: 5 * 60_000,
  retry: false,
});

function isPdfUrl(url: string) {
  return /\.pdf($|\?)/i.test(new URL(url, "http://x").pathname + "?");
}

/** Images a browser shows (TIFF is downloaded instead). */
const IMAGE_EXT = /\.(png|jpe?g|gif|webp|bmp|svg)$/i;
const SHEET_EXT = /\.(xlsx|xls|ods)$/i;
const TEXT_EXT = /\.(txt|xml|md|log)$/i;

function isImageUrl(url: string) {
  return IMAGE_EXT.test(fileNameOf(url));
}

/** Where the browser reads an output from: the same-origin proxy (the link may be on the engine's loopback). */
function viaProxy(url: string) {
  return `/api/output?url=${encodeURIComponent(url)}`;
}

/** Picks the right viewer for an operation's result (PDF, CSV, HTML, JSON, info, lists, invoice). */
export function ResultView({ operation, result, jobId, sourceUrl }: { operation: string; result: Result; jobId?: string; sourceUrl?: string | null }) {
  const url = typeof result.url === "string" ? result.url : null;
  const urls = Array.isArray(result.urls) ? (result.urls as string[]) : null;
  const validTill = typeof result.outputLinkValidTill === "string" ? result.outputLinkValidTill : null;
  const body = result.body;

  if (operation === "ai-invoice-parser" && body && typeof body === "object") {
    return <InvoiceView result={result} jobId={jobId} sourceUrl={sourceUrl} />;
  }
  if (operation === "pdf-classifier") {
    return <ClassifierResult result={result} />;
  }
  if ((operation === "pdf-info" || operation === "pdf-info-fields") && result.info && typeof result.info === "object") {
    return <InfoView info={result.info as Result} result={result} />;
  }
  const barcodes = Array.isArray(result.barcodes) ? (result.barcodes as FoundBarcode[]) : null;
  const extra = Object.fromEntries(Object.entries(result).filter(([k]) => !ENVELOPE_KEYS.has(k)));
  return (
    <div className="space-y-4">
      <Summary result={result} />
      {barcodes ? <BarcodesTable barcodes={barcodes} /> : null}
      {Object.keys(extra).length ? <div className="card p-4" data-testid="result-fields"><JsonTree value={extra} /></div> : null}
      {typeof body === "string" && operation === "barcode-generate" ? <ImageOutput src={`data:image/png;base64,${body}`} name={String(result.name ?? "barcode.png")} /> : null}
      {typeof body === "string" && /csv/.test(operation) ? <CsvTable text={body} name={String(result.name ?? "result.csv")} /> : null}
      {typeof body === "string" && /html/.test(operation) ? <HtmlFrame html={body} /> : null}
      {typeof body === "string" && /-to-(text|text-simple|xml)$/.test(operation) ? <PlainText text={body} /> : null}
      {body && typeof body === "object" ? <JsonView value={body} /> : null}
      {urls && urls.length > 0 && urls.every(isImageUrl) ? <ImageGallery urls={urls} validTill={validTill} /> : null}
      {urls && urls.length > 0 && !urls.every(isImageUrl) ? <UrlList urls={urls} validTill={validTill} /> : null}
      {url && !urls ? <OutputView url={url} operation={operation} validTill={validTill} name={typeof result.name === "string" ? result.name : undefined} /> : null}
    </div>
  );
}

/** Answer fields every viewer already shows (or that mean nothing to a reader); the rest is shown as data. */
const ENVELOPE_KEYS = new Set(["error", "status", "credits", "remainingCredits", "duration", "jobDuration", "pageCount", "message", "name", "outputLinkValidTill", "fileSize", "url", "urls", "body", "jobId", "barcodes"]);

interface FoundBarcode {
  Value: string;
  TypeName: string;
  Page: number;
  Box?: { x: number; y: number; width: number; height: number };
}

/** The barcodes /v1/barcode/read/from/url found, one row each. */
function BarcodesTable({ barcodes }: { barcodes: FoundBarcode[] }) {
  if (!barcodes.length) return <p className="muted text-sm" data-testid="barcodes-none">No barcode was found.</p>;
  return (
    <div className="card overflow-x-auto">
      <table className="data-table" data-testid="barcodes-table">
        <thead>
          <tr><th scope="col">Page</th><th scope="col">Type</th><th scope="col">Value</th><th scope="col">Box (x, y, w, h)</th></tr>
        </thead>
        <tbody>
          {barcodes.map((b, i) => (
            <tr key={i}>
              <td className="tabular-nums">{b.Page}</td>
              <td>{b.TypeName}</td>
              <td className="font-mono text-xs break-all">{b.Value}</td>
              <td className="muted text-xs whitespace-nowrap tabular-nums">{b.Box ? [b.Box.x, b.Box.y, b.Box.width, b.Box.height].map((v) => Math.round(v)).join(", ") : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An image output shown in place, with its download. */
function ImageOutput({ src, name }: { src: string; name: string }) {
  return (
    <figure className="card inline-flex flex-col items-start gap-3 p-4" data-testid="image-output">
      {/* eslint-disable-next-line @next/next/no-img-element -- a generated output, not a static asset */}
      <img src={src} alt={`Output ${name}`} className="max-h-96 max-w-full rounded border border-zinc-200 bg-white dark:border-zinc-800" />
      <a href={src} className="btn-secondary btn-sm" download={name}>
        <Icon name="download" className="size-3.5" /> Download {name}
      </a>
    </figure>
  );
}

function Summary({ result }: { result: Result }) {
  const items: [string, ReactNode][] = [];
  if (typeof result.pageCount === "number") items.push(["Pages", String(result.pageCount)]);
  if (typeof result.credits === "number") items.push(["Credits", String(result.credits)]);
  if (typeof result.duration === "number") items.push(["Duration", `${result.duration} ms`]);
  if (typeof result.inputFileSize === "number" && typeof result.fileSize === "number") {
    // Compression: the size before and after, and what was saved.
    const saved = 1 - result.fileSize / Math.max(1, result.inputFileSize);
    items.push(["Size", `${formatBytes(result.inputFileSize)} → ${formatBytes(result.fileSize)}`]);
    items.push(["Saved", saved > 0 ? `${Math.round(saved * 100)} %` : "nothing (the original was kept)"]);
  } else if (typeof result.fileSize === "number") items.push(["File size", formatBytes(result.fileSize)]);
  if (typeof result.outputLinkValidTill === "string") items.push(["Link valid till", <LocalTime key="t" iso={result.outputLinkValidTill} />]);
  if (!items.length) return null;
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
      {items.map(([k, v]) => (
        <div key={k} className="flex gap-1.5"><dt className="muted">{k}</dt><dd className="font-medium tabular-nums">{v}</dd></div>
      ))}
    </dl>
  );
}

function ExpiredNotice() {
  return <Notice tone="warning" title="Link expired">This output link has expired; run the job again for a fresh one.</Notice>;
}

function OutputView({ url, operation, validTill, name }: { url: string; operation: string; validTill: string | null; name?: string }) {
  if (isLinkExpired(url, validTill)) return <ExpiredNotice />;
  const lower = (name ?? fileNameOf(url)).toLowerCase();
  if (isPdfUrl(url) || lower.endsWith(".pdf")) return <PdfPreview url={url} name={name} />;
  if (lower.endsWith(".csv") || /csv/.test(operation)) return <TextOutput url={url} kind="csv" name={name} />;
  if (lower.endsWith(".html") || lower.endsWith(".htm") || /html/.test(operation)) return <TextOutput url={url} kind="html" name={name} />;
  if (lower.endsWith(".json")) return <TextOutput url={url} kind="json" name={name} />;
  if (SHEET_EXT.test(lower)) return <TextOutput url={url} kind="sheet" name={name} />;
  if (TEXT_EXT.test(lower)) return <TextOutput url={url} kind="text" name={name} />;
  if (IMAGE_EXT.test(lower)) return <ImageGallery urls={[url]} validTill={validTill} />;
  return (
    <a href={url} className="btn-secondary" target="_blank" rel="noreferrer" download={name}>
      <Icon name="download" /> Download {name ?? fileNameOf(url)}
    </a>
  );
}

function TextOutput({ url, kind, name }: { url: string; kind: "csv" | "html" | "json" | "sheet" | "text"; name?: string }) {
  const { data, isError, error } = useQuery(textOutputQuery(url, kind === "sheet" ? "csv" : undefined));
  if (isError) return (error as { status?: number }).status === 410 ? <ExpiredNotice /> : <Notice tone="error" title="Could not load the output">{(error as Error).message}</Notice>;
  if (data === undefined) return <div className="h-40 animate-pulse rounded-lg bg-zinc-200 dark:bg-zinc-800" />;
  if (kind === "csv" || kind === "sheet") return <CsvTable text={data} downloadUrl={url} name={name ?? fileNameOf(url)} />;
  if (kind === "html") return <HtmlFrame html={data} downloadUrl={url} />;
  if (kind === "text") return <PlainText text={data} downloadUrl={url} name={name ?? fileNameOf(url)} />;
  let parsed: unknown = data;
  try {
    parsed = JSON.parse(data);
  } catch {}
  return <JsonView value={parsed} />;
}

/** A JSON result as a tree that folds, with a copy button. */
function JsonView({ value }: { value: unknown }) {
  return (
    <div className="card p-4" data-testid="json-view">
      <div className="mb-2 flex justify-end">
        <CopyButton value={JSON.stringify(value, null, 2)} label="Copy JSON" />
      </div>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="JSON result"><JsonTree value={value} /></div>
    </div>
  );
}

/** Text or XML output as preformatted text (the first 200,000 characters; the file has all), with copy. */
function PlainText({ text, downloadUrl, name }: { text: string; downloadUrl?: string; name?: string }) {
  const shown = text.length > 200_000 ? `${text.slice(0, 200_000)}\n…` : text;
  return (
    <div className="card overflow-hidden" data-testid="text-output">
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
        <span className="muted min-w-0 truncate">{name ?? `${text.length.toLocaleString("en-US")} characters`}</span>
        <CopyButton value={text} label="Copy text" className="btn-secondary btn-sm ml-auto" />
        {downloadUrl ? (
          <a href={downloadUrl} download={name} className="btn-secondary btn-sm">
            <Icon name="download" className="size-3.5" /> Download
          </a>
        ) : null}
      </div>
      <pre className="max-h-[32rem] overflow-auto whitespace-pre p-3 font-mono text-xs">{shown.replace(/\f/g, "\n")}</pre>
    </div>
  );
}

/** Image outputs as a grid of thumbnails, each opening full size, with download links. */
function ImageGallery({ urls, validTill }: { urls: string[]; validTill: string | null }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" data-testid="image-gallery">
      {urls.map((u, i) => (
        <li key={u + i} className="card min-w-0 overflow-hidden">
          {isLinkExpired(u, validTill) ? (
            <p className="muted p-4 text-xs">Link expired</p>
          ) : (
            <a href={viaProxy(u)} target="_blank" rel="noreferrer" className="block bg-zinc-100 dark:bg-zinc-800">
              {/* eslint-disable-next-line @next/next/no-img-element -- outputs are private, same-origin proxied files */}
              <img src={viaProxy(u)} alt={`Output ${i + 1}: ${fileNameOf(u)}`} loading="lazy" className="mx-auto max-h-56 w-full object-contain" />
            </a>
          )}
          <div className="flex items-center gap-2 px-3 py-2 text-xs">
            <span className="min-w-0 flex-1 truncate" title={fileNameOf(u)}>{fileNameOf(u)}</span>
            <a href={u} download className="text-brand-600 hover:underline dark:text-brand-100" aria-label={`Download ${fileNameOf(u)}`}>
              <Icon name="download" className="size-3.5" />
            </a>
          </div>
        </li>
      ))}
    </ul>
  );
}

const onResize = (cb: () => void) => {
  window.addEventListener("resize", cb);
  return () => window.removeEventListener("resize", cb);
};
const isNarrow = () => window.innerWidth < 640;

/** The HTML with a zoom applied (inside <head>, so a doctype stays first and the page keeps its mode). */
function zoomed(html: string, zoom: number): string {
  if (zoom === 1) return html;
  const style = `<style>html{zoom:${zoom}}</style>`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => m + style) : style + html;
}

/**
 * HTML output in a sandboxed frame: no script, no access to the dashboard. Pages laid out at
 * their PDF width are wider than a phone: a zoom (fit by default on narrow screens) shows them whole.
 */
function HtmlFrame({ html, downloadUrl }: { html: string; downloadUrl?: string }) {
  const [zoom, setZoom] = useState<number | null>(null);
  const narrow = useSyncExternalStore(onResize, isNarrow, () => false);
  const z = zoom ?? (narrow ? 0.5 : 1);
  return (
    <div className="card overflow-hidden" data-testid="html-frame">
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
        <span className="muted">HTML preview (sandboxed)</span>
        <div role="group" aria-label="Zoom" className="flex gap-1">
          {[0.5, 0.75, 1].map((v) => (
            <button key={v} type="button" aria-pressed={z === v} onClick={() => setZoom(v)} className={`btn btn-sm ${z === v ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "btn-ghost"}`}>
              {v * 100}%
            </button>
          ))}
        </div>
        <a href={downloadUrl ?? `data:text/html;charset=utf-8,${encodeURIComponent(html)}`} download="result.html" className="btn-secondary btn-sm ml-auto">
          <Icon name="download" className="size-3.5" /> Download HTML
        </a>
      </div>
      <iframe title="HTML result" sandbox="" srcDoc={zoomed(html, z)} className="h-[32rem] w-full bg-white" />
    </div>
  );
}

function UrlList({ urls, validTill }: { urls: string[]; validTill: string | null }) {
  return (
    <ul className="card divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="url-list">
      {urls.map((u, i) => {
        const expired = isLinkExpired(u, validTill);
        return (
          <li key={u + i} className="flex flex-wrap items-center gap-3 px-4 py-3">
            <Icon name="doc" className="size-5 text-zinc-400" />
            <span className="min-w-0 flex-1 truncate text-sm font-medium">{fileNameOf(u)}</span>
            {expired ? (
              <span className="rounded bg-zinc-100 px-2 py-0.5 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400">expired</span>
            ) : (
              <>
                {isPdfUrl(u) ? (
                  <details className="w-full order-last">
                    <summary className="cursor-pointer text-xs text-brand-600 dark:text-brand-100">Preview</summary>
                    <div className="mt-2 max-w-md"><PdfPreview url={u} showDownload={false} /></div>
                  </details>
                ) : null}
                <a href={u} target="_blank" rel="noreferrer" download className="btn-secondary btn-sm">
                  <Icon name="download" className="size-3.5" /> Download
                </a>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

const INFO_ORDER = ["PageCount", "Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModificationDate", "Encrypted", "EncryptionAlgorithm"];

function show(v: unknown): string {
  if (v === null || v === undefined || v === "") return "—";
  if (typeof v === "boolean") return v ? "Yes" : "No";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** "612 × 792 pt (Letter)": the first page's size in points, named when it is a common paper size. */
function pageSize(rect: Result): string {
  const w = Number(rect.Width);
  const h = Number(rect.Height);
  if (!Number.isFinite(w) || !Number.isFinite(h)) return show(rect.Size);
  const near = (a: number, b: number) => Math.abs(a - b) <= 2;
  const named = [["A4", 595, 842], ["Letter", 612, 792], ["Legal", 612, 1008], ["A3", 842, 1191], ["A5", 420, 595]].find(
    ([, pw, ph]) => (near(w, pw as number) && near(h, ph as number)) || (near(h, pw as number) && near(w, ph as number)),
  );
  return `${Math.round(w)} × ${Math.round(h)} pt${named ? ` (${named[0]}${w > h ? ", landscape" : ""})` : ""}`;
}

function findFields(v: unknown): Result[] | null {
  if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === "object" && "FieldName" in (x as object))) return v as Result[];
  if (v && typeof v === "object") {
    for (const x of Object.values(v as object)) {
      const f = findFields(x);
      if (f) return f;
    }
  }
  return null;
}

function InfoView({ info, result }: { info: Result; result: Result }) {
  const keys = [...INFO_ORDER.filter((k) => k in info), ...Object.keys(info).filter((k) => !INFO_ORDER.includes(k) && typeof info[k] !== "object")];
  const rect = info.PageRectangle as Result | undefined;
  const fields = findFields(result);
  return (
    <div className="space-y-4">
      <div className="card overflow-hidden">
        <table className="data-table" data-testid="info-table">
          <caption className="px-3 pt-3 text-left text-sm font-semibold">Document info</caption>
          <tbody>
            {keys.map((k) => (
              <tr key={k}>
                <th scope="row" className="w-2/5 text-sm! font-medium! tracking-normal! text-zinc-700! normal-case! dark:text-zinc-300!" title={k}>{infoLabel(k)}</th>
                <td className="break-all">{k === "EncryptionAlgorithm" && !info.Encrypted ? "—" : show(info[k])}</td>
              </tr>
            ))}
            {rect ? <tr><th scope="row" className="text-sm! font-medium! tracking-normal! text-zinc-700! normal-case! dark:text-zinc-300!">Page size</th><td>{pageSize(rect)}</td></tr> : null}
          </tbody>
        </table>
      </div>
      {fields ? (
        <div className="card table-scroll" tabIndex={0} role="region" aria-label="Form fields">
          <table className="data-table" data-testid="fields-table">
            <caption className="px-3 pt-3 text-left text-sm font-semibold">Form fields ({fields.length})</caption>
            <thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Value</th><th scope="col">Page</th><th scope="col">Alt name</th></tr></thead>
            <tbody>
              {fields.map((f, i) => (
                <tr key={i}><td className="font-mono text-xs">{show(f.FieldName)}</td><td>{show(f.Type)}</td><td>{show(f.Value)}</td><td className="tabular-nums">{show(f.PageIndex)}</td><td>{show(f.AltFieldName)}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
