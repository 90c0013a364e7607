"use client";

import { useRef, useState, type DragEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { filesQuery } from "@/lib/dashboard/data/queries";
import { api } from "@/lib/dashboard/data/http";
import { uploadFile } from "@/lib/dashboard/operations/upload";
import type { StoredFile } from "@/lib/dashboard/data/api-types";
import { formatBytes } from "@/lib/dashboard/shell/format";
import { CopyButton } from "@/components/ui/copy-button";
import { Icon } from "@/components/ui/icon";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";

interface Upload {
  id: number;
  name: string;
  progress: number;
  error?: string;
}

/** The account's stored files: upload (drop or pick, with progress), list, make public or private, copy link, delete. */
export function FilesView() {
  const qc = useQueryClient();
  const { data, isError, error } = useQuery(filesQuery());
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const nextId = useRef(0);
  const refresh = () => qc.invalidateQueries({ queryKey: ["files"] });

  const remove = useMutation({
    mutationFn: (f: StoredFile) => api("/v1/file/delete", { body: { url: `filetoken://${f.token}` } }),
    onSuccess: () => {
      setConfirm(null);
      void refresh();
    },
  });
  const access = useMutation({
    mutationFn: (f: StoredFile) =>
      api(`/v1/file/options/${f.token}`, { body: { accessMode: f.accessMode === "public" ? "private" : "public" } }),
    onSuccess: () => void refresh(),
  });

  async function addFiles(list: FileList | File[]) {
    for (const file of Array.from(list)) {
      const id = nextId.current++;
      setUploads((u) => [...u, { id, name: file.name, progress: 0 }]);
      try {
        await uploadFile(file, (p) => setUploads((u) => u.map((x) => (x.id === id ? { ...x, progress: p } : x))));
        setUploads((u) => u.filter((x) => x.id !== id));
        void refresh();
      } catch (e) {
        setUploads((u) => u.map((x) => (x.id === id ? { ...x, error: (e as Error).message } : x)));
      }
    }
  }
  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) void addFiles(e.dataTransfer.files);
  }

  const files = data?.files ?? [];
  return (
    <div className="space-y-6">
      <div
        className={`card flex flex-wrap items-center gap-4 border-dashed p-5 ${dragging ? "ring-2 ring-indigo-400" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="files-drop"
      >
        <Icon name="upload" className="size-5 text-zinc-500" />
        <p className="muted flex-1 text-sm">Drop files here, or</p>
        <button type="button" className="btn-primary" onClick={() => inputRef.current?.click()}>Upload files</button>
        <input ref={inputRef} type="file" multiple className="sr-only" tabIndex={-1} aria-label="Choose files to upload" data-testid="files-input" onChange={(e) => e.target.files && void addFiles(e.target.files)} />
      </div>
      {uploads.length ? (
        <ul className="space-y-2" aria-live="polite">
          {uploads.map((u) => (
            <li key={u.id} className="card p-3 text-sm">
              <div className="flex items-center justify-between gap-3">
                <span className="truncate font-medium">{u.name}</span>
                {u.error ? (
                  <span className="text-red-700 dark:text-red-400">{u.error} <button type="button" className="btn-ghost btn-sm" onClick={() => setUploads((l) => l.filter((x) => x.id !== u.id))}>Dismiss</button></span>
                ) : (
                  <span className="muted tabular-nums">{Math.round(u.progress * 100)}%</span>
                )}
              </div>
              {u.error ? null : (
                <div className="mt-2 h-1.5 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800" role="progressbar" aria-valuenow={Math.round(u.progress * 100)} aria-valuemin={0} aria-valuemax={100} aria-label={`Uploading ${u.name}`}>
                  <div className="h-full bg-indigo-500 transition-[width]" style={{ width: `${Math.round(u.progress * 100)}%` }} />
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {isError ? <Notice tone="error" title="Could not load files">{(error as Error).message}</Notice> : null}
      {remove.isError ? <Notice tone="error" title="Could not delete the file">{(remove.error as Error).message}</Notice> : null}
      {access.isError ? <Notice tone="error" title="Could not change access">{(access.error as Error).message}</Notice> : null}
      <div className="card table-scroll" tabIndex={0} role="region" aria-label="Stored files">
        <table className="data-table" data-testid="files-table">
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Size</th><th scope="col" className="hidden md:table-cell">Type</th><th scope="col" className="hidden sm:table-cell">Uploaded</th><th scope="col" className="hidden sm:table-cell">Expires</th><th scope="col">Access</th><th scope="col"><span className="sr-only">Actions</span></th></tr>
          </thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.token} data-file-name={f.name}>
                <td className="max-w-72 truncate font-medium"><a href={f.url} target="_blank" rel="noreferrer" className="hover:underline">{f.name}</a></td>
                <td className="whitespace-nowrap tabular-nums">{formatBytes(f.size)}</td>
                <td className="muted hidden text-xs md:table-cell">{f.contentType}</td>
                <td className="hidden whitespace-nowrap sm:table-cell"><LocalTime iso={f.createdAt} mode="relative" /></td>
                <td className="hidden whitespace-nowrap sm:table-cell"><LocalTime iso={f.expiresAt} /></td>
                <td>
                  <button type="button" className="btn-ghost btn-sm" onClick={() => access.mutate(f)} disabled={access.isPending} aria-label={`${f.accessMode}: make ${f.name} ${f.accessMode === "public" ? "private" : "public"}`} title="Public files download without a key at /v1/file/download/{token}">
                    {f.accessMode === "public" ? <span className="text-amber-700 dark:text-amber-400">public</span> : <span className="muted">private</span>}
                  </button>
                </td>
                <td className="text-right whitespace-nowrap">
                  <span className="inline-flex gap-2">
                    <CopyButton value={f.url} label="Copy link" />
                    <CopyButton value={`filetoken://${f.token}`} label="Copy token" iconOnly />
                    {confirm === f.token ? (
                      <>
                        <button type="button" className="btn-danger btn-sm" onClick={() => remove.mutate(f)} disabled={remove.isPending}>Confirm delete</button>
                        <button type="button" className="btn-ghost btn-sm" onClick={() => setConfirm(null)}>Cancel</button>
                      </>
                    ) : (
                      <button type="button" className="btn-secondary btn-sm" onClick={() => setConfirm(f.token)} aria-label={`Delete ${f.name}`}>
                        <Icon name="trash" className="size-3.5" />
                        <span>Delete</span>
                      </button>
                    )}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && files.length === 0 ? <p className="muted px-5 py-8 text-center text-sm">No stored files. Upload one to use its link in any operation.</p> : null}
      </div>
    </div>
  );
}
