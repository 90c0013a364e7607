"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode, type MouseEvent } from "react";
import { local } from "@/lib/dashboard/data/http";
import { Icon } from "@/components/ui/icon";
import { Notice } from "@/components/ui/notice";

export interface PageBox {
  width: number;
  height: number;
}

/** Page sizes (points) of a PDF output, from the preview route. */
const previewInfoQuery = (url: string) => ({
  queryKey: ["preview", url] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => local<{ pageCount: number; pages: PageBox[] }>(`/api/preview?info=1&url=${encodeURIComponent(url)}`, { signal }),
  staleTime: 5 * 60_000,
  retry: false,
});

function previewSrc(url: string, page: number, dpi = 110) {
  return `/api/preview?url=${encodeURIComponent(url)}&page=${page}&dpi=${dpi}`;
}

/**
 * One rendered page with an overlay in PDF points (top-left origin). `onPick` receives the
 * clicked point in points, for editors that place things on the page.
 */
function PdfPage({
  url,
  page,
  box,
  overlay,
  onPick,
  label,
}: {
  url: string;
  page: number;
  box: PageBox;
  overlay?: ReactNode;
  onPick?: (pt: { x: number; y: number }) => void;
  label?: string;
}) {
  function pick(e: MouseEvent<HTMLDivElement>) {
    if (!onPick) return;
    const r = e.currentTarget.getBoundingClientRect();
    onPick({ x: Math.round(((e.clientX - r.left) / r.width) * box.width), y: Math.round(((e.clientY - r.top) / r.height) * box.height) });
  }
  return (
    <div
      className={`relative w-full overflow-hidden rounded-md bg-white shadow ring-1 ring-zinc-200 dark:ring-zinc-700 ${onPick ? "cursor-crosshair" : ""}`}
      style={{ aspectRatio: `${box.width} / ${box.height}` }}
      onClick={pick}
      data-testid="pdf-page"
    >
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={previewSrc(url, page)} alt={label ?? `Page ${page + 1}`} className="absolute inset-0 size-full" loading="lazy" draggable={false} />
      {overlay ? (
        <svg viewBox={`0 0 ${box.width} ${box.height}`} className="pointer-events-none absolute inset-0 size-full" aria-hidden="true">
          {overlay}
        </svg>
      ) : null}
    </div>
  );
}

/** A PDF output previewed page by page, with download. */
export function PdfPreview({
  url,
  name,
  overlay,
  onPick,
  page: controlledPage,
  onPageChange,
  showDownload = true,
}: {
  url: string;
  name?: string;
  overlay?: (page: number) => ReactNode;
  onPick?: (page: number, pt: { x: number; y: number }) => void;
  page?: number;
  onPageChange?: (page: number) => void;
  showDownload?: boolean;
}) {
  const [ownPage, setOwnPage] = useState(0);
  const page = controlledPage ?? ownPage;
  const setPage = (p: number) => (onPageChange ? onPageChange(p) : setOwnPage(p));
  const { data, isError, error } = useQuery(previewInfoQuery(url));
  if (isError) {
    const expired = (error as { status?: number }).status === 410;
    return <Notice tone={expired ? "warning" : "error"} title={expired ? "Link expired" : "Preview unavailable"}>{expired ? "This output link has expired; run the job again for a fresh one." : (error as Error).message}</Notice>;
  }
  if (!data) return <div className="aspect-[3/4] w-full animate-pulse rounded-md bg-zinc-200 dark:bg-zinc-800" />;
  const box = data.pages[page] ?? data.pages[0] ?? { width: 612, height: 792 };
  return (
    <div className="space-y-3" data-testid="pdf-preview">
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className="btn-secondary btn-sm" onClick={() => setPage(Math.max(0, page - 1))} disabled={page === 0} aria-label="Previous page">
          <Icon name="chevron" className="size-3.5 rotate-180" />
        </button>
        <span className="text-sm tabular-nums" aria-live="polite">
          Page {page + 1} of {data.pageCount}
        </span>
        <button type="button" className="btn-secondary btn-sm" onClick={() => setPage(Math.min(data.pageCount - 1, page + 1))} disabled={page >= data.pageCount - 1} aria-label="Next page">
          <Icon name="chevron" className="size-3.5" />
        </button>
        {showDownload ? (
          <a href={url} download={name} className="btn-secondary btn-sm ml-auto" target="_blank" rel="noreferrer">
            <Icon name="download" className="size-3.5" /> Download
          </a>
        ) : null}
      </div>
      <PdfPage url={url} page={page} box={box} overlay={overlay?.(page)} onPick={onPick ? (pt) => onPick(page, pt) : undefined} />
      {data.pageCount > 1 ? (
        <div className="flex gap-2 overflow-x-auto pb-1" role="list" aria-label="Pages">
          {data.pages.slice(0, 60).map((p, i) => (
            <button
              key={i}
              type="button"
              role="listitem"
              onClick={() => setPage(i)}
              aria-label={`Show page ${i + 1}`}
              aria-current={i === page ? "true" : undefined}
              className={`w-14 shrink-0 overflow-hidden rounded border bg-white ${i === page ? "border-brand-500 ring-2 ring-brand-500/40" : "border-zinc-200 dark:border-zinc-700"}`}
              style={{ aspectRatio: `${p.width} / ${p.height}` }}
            >
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src={previewSrc(url, i, 24)} alt="" loading="lazy" className="size-full" />
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
