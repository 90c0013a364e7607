"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { keysQuery } from "@/lib/dashboard/data/queries";
import { api } from "@/lib/dashboard/data/http";
import type { ApiKey } from "@/lib/dashboard/data/api-types";
import { CopyButton } from "@/components/ui/copy-button";
import { Notice } from "@/components/ui/notice";
import { LocalTime } from "@/components/ui/local-time";

/** API keys: create (the secret is shown once), see last use, revoke. */
export function KeysView() {
  const qc = useQueryClient();
  const { data, isError, error } = useQuery(keysQuery());
  const [name, setName] = useState("");
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (n: string) => api<{ key: ApiKey; secret: string }>("/v1/account/keys", { method: "POST", body: { name: n } }),
    onSuccess: (res) => {
      setSecret({ name: res.key.name, value: res.secret });
      setName("");
      void qc.invalidateQueries({ queryKey: ["keys"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/v1/account/keys/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => {
      setConfirm(null);
      void qc.invalidateQueries({ queryKey: ["keys"] });
    },
  });
  function onCreate(e: FormEvent) {
    e.preventDefault();
    if (name.trim()) create.mutate(name.trim());
  }
  const keys = (data?.keys ?? []).filter((k) => k.kind !== "dashboard");
  return (
    <div className="space-y-6">
      <form onSubmit={onCreate} className="card flex flex-wrap items-end gap-3 p-5">
        <div className="min-w-56 flex-1">
          <label htmlFor="key-name" className="label">New key name</label>
          <input id="key-name" className="input mt-1.5" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Billing integration" maxLength={100} required />
        </div>
        <button type="submit" className="btn-primary" disabled={create.isPending || !name.trim()}>{create.isPending ? "Creating…" : "Create key"}</button>
      </form>
      {create.isError ? <Notice tone="error" title="Could not create the key">{(create.error as Error).message}</Notice> : null}
      {secret ? (
        <div className="rounded-xl border border-emerald-300 bg-emerald-50 p-5 dark:border-emerald-800 dark:bg-emerald-950/50" role="status" data-testid="new-key">
          <p className="font-medium text-emerald-900 dark:text-emerald-100">Key “{secret.name}” created. Copy it now: it will not be shown again.</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 rounded-lg bg-white px-3 py-2 font-mono text-sm break-all dark:bg-zinc-950" data-testid="new-key-secret">{secret.value}</code>
            <CopyButton value={secret.value} label="Copy key" className="btn-primary" />
            <button type="button" className="btn-ghost" onClick={() => setSecret(null)}>Done</button>
          </div>
        </div>
      ) : null}
      {isError ? <Notice tone="error" title="Could not load keys">{(error as Error).message}</Notice> : null}
      <div className="card table-scroll" tabIndex={0} role="region" aria-label="API keys">
        <table className="data-table" data-testid="keys-table">
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span className="sr-only">Actions</span></th></tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} data-key-name={k.name}>
                <td className="font-medium">{k.name}</td>
                <td className="font-mono text-xs">{k.prefix}…</td>
                <td className="whitespace-nowrap"><LocalTime iso={k.createdAt} /></td>
                <td className="whitespace-nowrap"><LocalTime iso={k.lastUsedAt} mode="relative" /></td>
                <td>{k.revokedAt ? <span className="text-xs text-zinc-500 dark:text-zinc-400">revoked <LocalTime iso={k.revokedAt} mode="relative" /></span> : <span className="text-xs text-emerald-700 dark:text-emerald-400">active</span>}</td>
                <td className="text-right whitespace-nowrap">
                  {k.revokedAt ? null : confirm === k.id ? (
                    <span className="inline-flex gap-2">
                      <button type="button" className="btn-danger btn-sm" onClick={() => revoke.mutate(k.id)} disabled={revoke.isPending}>Confirm revoke</button>
                      <button type="button" className="btn-ghost btn-sm" onClick={() => setConfirm(null)}>Cancel</button>
                    </span>
                  ) : (
                    <button type="button" className="btn-secondary btn-sm" onClick={() => setConfirm(k.id)} aria-label={`Revoke ${k.name}`}>Revoke</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && keys.length === 0 ? <p className="muted px-5 py-8 text-center text-sm">No API keys yet. Create one to call the API from your code.</p> : null}
      </div>
    </div>
  );
}
