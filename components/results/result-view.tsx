"use client";

import type { ReactNode } from "react";
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

type Result = Record<string, unknown>;

const textOutputQuery = (url: string) => ({
  queryKey: ["output", url] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const res = await fetch(`/api/output?url=${encodeURIComponent(url)}`, { signal });
    if (!res.ok) await readJson(res);
    return res.text();
  },
  staleTime: 5 * 60_000,
  retry: false,
});

function isPdfUrl(url: string) {
  return /\.pdf($|\?)/i.test(new URL(url, "http://x").pathname + "?");
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
  return (
    <div className="space-y-4">
      <Summary result={result} />
      {typeof body === "string" && /csv/.test(operation) ? <CsvTable text={body} name={String(result.name ?? "result.csv")} /> : null}
      {typeof body === "string" && /html/.test(operation) ? <HtmlFrame html={body} /> : null}
      {body && typeof body === "object" ? <div className="card p-4"><JsonTree value={body} /></div> : null}
      {urls && urls.length > 0 ? <UrlList urls={urls} validTill={validTill} /> : null}
      {url && !urls ? <OutputView url={url} operation={operation} validTill={validTill} name={typeof result.name === "string" ? result.name : undefined} /> : null}
    </div>
  );
}

function Summary({ result }: { result: Result }) {
  const items: [string, ReactNode][] = [];
  if (typeof result.pageCount === "number") items.push(["Pages", String(result.pageCount)]);
  if (typeof result.credits === "number") items.push(["Credits", String(result.credits)]);
  if (typeof result.duration === "number") items.push(["Duration", `${result.duration} ms`]);
  if (typeof result.fileSize === "number") items.push(["File size", formatBytes(result.fileSize)]);
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
  return (
    <a href={url} className="btn-secondary" target="_blank" rel="noreferrer" download={name}>
      <Icon name="download" /> Download {name ?? fileNameOf(url)}
    </a>
  );
}

function TextOutput({ url, kind, name }: { url: string; kind: "csv" | "html" | "json"; name?: string }) {
  const { data, isError, error } = useQuery(textOutputQuery(url));
  if (isError) return (error as { status?: number }).status === 410 ? <ExpiredNotice /> : <Notice tone="error" title="Could not load the output">{(error as Error).message}</Notice>;
  if (data === undefined) return <div className="h-40 animate-pulse rounded-lg bg-zinc-200 dark:bg-zinc-800" />;
  if (kind === "csv") return <CsvTable text={data} downloadUrl={url} name={name ?? fileNameOf(url)} />;
  if (kind === "html") return <HtmlFrame html={data} downloadUrl={url} />;
  let parsed: unknown = data;
  try {
    parsed = JSON.parse(data);
  } catch {}
  return <div className="card p-4"><JsonTree value={parsed} /></div>;
}

/** HTML output in a sandboxed frame: no script, no access to the dashboard. */
function HtmlFrame({ html, downloadUrl }: { html: string; downloadUrl?: string }) {
  return (
    <div className="card overflow-hidden" data-testid="html-frame">
      <div className="flex items-center border-b border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
        <span className="muted">HTML preview (sandboxed)</span>
        <a href={downloadUrl ?? `data:text/html;charset=utf-8,${encodeURIComponent(html)}`} download="result.html" className="btn-secondary btn-sm ml-auto">
          <Icon name="download" className="size-3.5" /> Download HTML
        </a>
      </div>
      <iframe title="HTML result" sandbox="" srcDoc={html} className="h-[32rem] w-full bg-white" />
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
              <tr key={k}><th scope="row" className="w-1/3 normal-case tracking-normal">{k}</th><td className="break-all">{show(info[k])}</td></tr>
            ))}
            {rect ? <tr><th scope="row" className="normal-case tracking-normal">Page size</th><td>{show(rect.Size ?? `${rect.Width}, ${rect.Height}`)}</td></tr> : null}
          </tbody>
        </table>
      </div>
      {fields ? (
        <div className="card overflow-x-auto">
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
