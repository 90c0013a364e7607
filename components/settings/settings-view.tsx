"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, local } from "@/lib/dashboard/data/http";
import { upstreamQuery } from "@/lib/dashboard/data/queries";
import { CopyButton } from "@/components/ui/copy-button";
import { Notice } from "@/components/ui/notice";

/** Webhook signing secret (revealed on demand, rotatable) and the upstream API of the dashboard. */
export function SettingsView() {
  return (
    <div className="max-w-3xl space-y-6">
      <WebhookSecret />
      <Upstream />
    </div>
  );
}

function WebhookSecret() {
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const reveal = useMutation({ mutationFn: () => api<{ secret: string }>("/v1/account/webhook-secret"), onSuccess: (r) => setSecret(r.secret) });
  const rotate = useMutation({
    mutationFn: () => api<{ secret: string }>("/v1/account/webhook-secret/rotate", { method: "POST", body: {} }),
    onSuccess: (r) => {
      setSecret(r.secret);
      setConfirm(false);
    },
  });
  return (
    <section className="card p-5" aria-labelledby="wh-h">
      <h2 id="wh-h" className="font-semibold">Webhook signing secret</h2>
      <p className="muted mt-1 text-sm">Callbacks carry Standard Webhooks headers (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>) signed with this secret.</p>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 rounded-lg bg-zinc-100 px-3 py-2 font-mono text-sm break-all dark:bg-zinc-800" data-testid="webhook-secret">{secret ?? "whsec_••••••••••••••••••••"}</code>
        {secret ? <CopyButton value={secret} label="Copy" className="btn-secondary" /> : <button type="button" className="btn-secondary" onClick={() => reveal.mutate()} disabled={reveal.isPending}>Reveal</button>}
        {confirm ? (
          <>
            <button type="button" className="btn-danger" onClick={() => rotate.mutate()} disabled={rotate.isPending}>Confirm rotate</button>
            <button type="button" className="btn-ghost" onClick={() => setConfirm(false)}>Cancel</button>
          </>
        ) : (
          <button type="button" className="btn-secondary" onClick={() => setConfirm(true)}>Rotate</button>
        )}
      </div>
      {confirm ? <p className="mt-2 text-xs text-amber-800 dark:text-amber-300">Rotating invalidates the old secret at once: receivers must switch to the new one.</p> : null}
      {reveal.isError || rotate.isError ? <div className="mt-3"><Notice tone="error">{((reveal.error ?? rotate.error) as Error).message}</Notice></div> : null}
    </section>
  );
}

function Upstream() {
  const qc = useQueryClient();
  const { data } = useQuery(upstreamQuery());
  const [baseUrl, setBaseUrl] = useState("");
  const [apiKey, setApiKey] = useState("");
  const save = useMutation({
    mutationFn: () => local<{ ok: true; remainingCredits: number }>("/api/settings/upstream", { method: "PUT", body: { baseUrl, apiKey } }),
    onSuccess: () => {
      setApiKey("");
      void qc.invalidateQueries();
    },
  });
  const reset = useMutation({
    mutationFn: () => local("/api/settings/upstream", { method: "DELETE" }),
    onSuccess: () => void qc.invalidateQueries(),
  });
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }
  return (
    <section className="card p-5" aria-labelledby="up-h">
      <h2 id="up-h" className="font-semibold">API upstream</h2>
      <p className="muted mt-1 text-sm">The dashboard runs operations on Quire&apos;s own engine, or on any remote service that speaks the same API. The key stays on this server, encrypted.</p>
      <p className="mt-3 text-sm" data-testid="upstream-mode">
        Now using: {data?.mode === "remote" ? <><strong>{data.baseUrl}</strong> <span className="muted">(key {data.keyHint})</span></> : <strong>Quire&apos;s own engine</strong>}
      </p>
      <form onSubmit={onSubmit} className="mt-4 grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="up-url" className="label">Base URL</label>
          <input id="up-url" className="input mt-1.5" type="url" required placeholder="https://api.example.com" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
        </div>
        <div>
          <label htmlFor="up-key" className="label">API key</label>
          <input id="up-key" className="input mt-1.5" type="password" required autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
        </div>
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={save.isPending}>{save.isPending ? "Testing…" : "Test and save"}</button>
          {data?.mode === "remote" ? <button type="button" className="btn-secondary" onClick={() => reset.mutate()}>Use Quire&apos;s engine</button> : null}
        </div>
      </form>
      <p className="help mt-2">Saving first calls <code>GET /v1/account/credit/balance</code> on the remote service with the key.</p>
      {save.isError ? <div className="mt-3"><Notice tone="error" title="Not saved">{(save.error as Error).message}</Notice></div> : null}
      {save.isSuccess ? <div className="mt-3"><Notice tone="success">Connected. The remote account has {save.data.remainingCredits} credits.</Notice></div> : null}
    </section>
  );
}
