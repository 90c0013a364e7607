"use client";

import { useRef, useState, type DragEvent } from "react";
import { uploadFile } from "@/lib/dashboard/operations/upload";
import { formatBytes } from "@/lib/dashboard/shell/format";
import { Icon } from "@/components/ui/icon";
import { takesSeveralFiles } from "@/lib/operations/types";

interface Item {
  id: number;
  name: string;
  size: number;
  progress: number;
  url?: string;
  error?: string;
}

const ACCEPT: Record<string, string> = {
  pdf: "application/pdf,.pdf",
  document: "application/pdf,image/*,.pdf,.png,.jpg,.jpeg,.tif,.tiff",
  images: "image/*,.png,.jpg,.jpeg,.gif,.bmp,.tif,.tiff,.webp",
  sheet: ".xls,.xlsx,.ods,.csv,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pdfs: "application/pdf,.pdf",
  file: ".eml,.msg,message/rfc822,application/vnd.ms-outlook",
  office: ".doc,.docx,.rtf,.odt,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/rtf,application/vnd.oasis.opendocument.text",
  email: ".eml,.msg,message/rfc822,application/vnd.ms-outlook",
};

/**
 * The source of an operation: a URL, or local files dropped/picked and uploaded straight to
 * storage with a progress bar. Several files (images → PDF) become a comma-separated list.
 */
export function SourceInput({
  inputKind,
  value,
  onChange,
  error,
  label,
  help,
}: {
  inputKind: string;
  value: string;
  onChange: (url: string) => void;
  error?: string;
  label: string;
  help?: string;
}) {
  const webpage = inputKind === "webpage";
  const multiple = takesSeveralFiles(inputKind);
  const [mode, setMode] = useState<"file" | "url">(webpage ? "url" : "file");
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);

  async function addFiles(files: FileList | File[]) {
    const list = Array.from(files);
    if (!list.length) return;
    const fresh: Item[] = list.map((f) => ({ id: nextId.current++, name: f.name, size: f.size, progress: 0 }));
    const base = multiple ? items.filter((i) => i.url || !i.error) : [];
    let current = [...base, ...(multiple ? fresh : fresh.slice(0, 1))];
    setItems(current);
    const publish = () => onChange(current.filter((i) => i.url).map((i) => i.url!).join(","));
    await Promise.all(
      (multiple ? list : list.slice(0, 1)).map(async (file, n) => {
        const id = fresh[n]!.id;
        const update = (patch: Partial<Item>) => {
          current = current.map((i) => (i.id === id ? { ...i, ...patch } : i));
          setItems(current);
        };
        try {
          const url = await uploadFile(file, (p) => update({ progress: p }));
          update({ url, progress: 1 });
          publish();
        } catch (e) {
          update({ error: (e as Error).message });
        }
      }),
    );
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    void addFiles(e.dataTransfer.files);
  }

  function remove(id: number) {
    const next = items.filter((i) => i.id !== id);
    setItems(next);
    onChange(next.filter((i) => i.url).map((i) => i.url!).join(","));
  }

  return (
    <fieldset className="space-y-3">
      <legend className="label">{label} <span className="text-red-600" aria-hidden="true">*</span></legend>
      {webpage ? null : (
        <div role="tablist" aria-label="Source type" className="inline-flex rounded-lg bg-zinc-100 p-0.5 dark:bg-zinc-800">
          {(["file", "url"] as const).map((m) => (
            <button key={m} type="button" role="tab" aria-selected={mode === m} onClick={() => setMode(m)} className={`rounded-md px-3 py-1 text-sm ${mode === m ? "bg-white font-medium shadow-xs dark:bg-zinc-950" : "text-zinc-600 dark:text-zinc-400"}`}>
              {m === "file" ? (multiple ? "Upload files" : "Upload a file") : "From a URL"}
            </button>
          ))}
        </div>
      )}
      {mode === "url" ? (
        <div>
          <label htmlFor="source-url" className="sr-only">{label}</label>
          <input
            id="source-url"
            name="url"
            type="text"
            inputMode="url"
            className="input"
            placeholder={multiple ? "https://example.com/a.png, https://example.com/b.png" : "https://example.com/document.pdf"}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby="source-help source-error"
          />
        </div>
      ) : (
        <div>
          <div
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={`flex flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-6 py-8 text-center transition-colors ${dragging ? "border-brand-500 bg-brand-50 dark:bg-brand-500/10" : error ? "border-red-400" : "border-zinc-300 dark:border-zinc-700"}`}
          >
            <Icon name="upload" className="size-7 text-zinc-400" />
            <p className="text-sm">
              Drag {multiple ? "files" : "a file"} here, or{" "}
              <button type="button" data-focus-for="url" className="font-medium text-brand-600 underline-offset-2 hover:underline dark:text-brand-100" onClick={() => inputRef.current?.click()}>
                choose {multiple ? "files" : "a file"}
              </button>
            </p>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">Uploaded straight to storage; the link expires after a day.</p>
            <input ref={inputRef} type="file" className="sr-only" tabIndex={-1} aria-label={`Choose ${multiple ? "files" : "a file"}`} data-testid="file-input" multiple={multiple} accept={ACCEPT[inputKind]} onChange={(e) => e.target.files && void addFiles(e.target.files)} />
          </div>
          {items.length ? (
            <ul className="mt-3 space-y-2" aria-label="Uploads">
              {items.map((i) => (
                <li key={i.id} className="rounded-lg border border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
                  <div className="flex items-center gap-2">
                    <Icon name="doc" className="size-4 text-zinc-400" />
                    <span className="min-w-0 flex-1 truncate">{i.name}</span>
                    <span className="text-xs text-zinc-500 dark:text-zinc-400 tabular-nums">{formatBytes(i.size)}</span>
                    {i.url ? <Icon name="check" className="size-4 text-emerald-600" title="Uploaded" /> : null}
                    <button type="button" className="btn-ghost btn-sm px-1" onClick={() => remove(i.id)} aria-label={`Remove ${i.name}`}>
                      <Icon name="close" className="size-3.5" />
                    </button>
                  </div>
                  {i.error ? (
                    <p className="field-error">{i.error}</p>
                  ) : (
                    <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800" role="progressbar" aria-label={`Uploading ${i.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(i.progress * 100)}>
                      <div className={`h-full rounded-full transition-all ${i.url ? "bg-emerald-500" : "bg-brand-500"}`} style={{ width: `${Math.round(i.progress * 100)}%` }} />
                    </div>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
      {help ? <p id="source-help" className="help">{help}</p> : null}
      {error ? <p id="source-error" className="field-error" role="alert">{error}</p> : null}
    </fieldset>
  );
}
