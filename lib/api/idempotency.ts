import "server-only";
import crypto from "node:crypto";
import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import { getConfig } from "@/lib/core/config";
import { QuireError } from "@/lib/core/errors";
import { getDbHandle } from "@/lib/db/client";
import type { FilePart } from "./http";

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** A stored file part with the SHA-256 of its bytes, taken while they streamed to storage. */
export interface HashedPart {
  field: string;
  name: string;
  sha256?: string;
}

/** Stores a multipart part through `store` while hashing its bytes (for the fingerprint). */
export async function hashingPart<T extends { field: string; name: string }>(
  part: FilePart,
  store: (p: FilePart) => Promise<T>,
): Promise<T & { sha256: string }> {
  const hash = crypto.createHash("sha256");
  async function* hashed() {
    for await (const chunk of part.stream) {
      hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
  }
  const stored = await store({ ...part, stream: Readable.from(hashed()) });
  return { ...stored, sha256: hash.digest("hex") };
}

/** The request as a hash: path, parameters in any order, and each file's field, name and bytes. */
export function requestFingerprint(
  path: string,
  fields: Record<string, unknown>,
  files: ReadonlyArray<HashedPart> = [],
): string {
  const parts = files.map((f) => ({ field: f.field, name: f.name, sha256: f.sha256 ?? null }));
  return crypto
    .createHash("sha256")
    .update(JSON.stringify(stable({ path, fields, files: parts })))
    .digest("hex");
}

/**
 * Idempotency-Key on job-creating calls (the IETF httpapi idempotency-key draft): the first
 * call with a key runs and its answer is kept (IDEMPOTENCY_KEY_HOURS); the same key with the
 * same request replays that answer (the same job), with another request → 422, while the first
 * is still running → 409. A call that failed before making a job keeps nothing, so it can be
 * retried with the same key.
 */
export async function withIdempotency(
  req: IncomingMessage,
  accountId: string,
  fingerprint: () => string,
  run: () => Promise<Answer>,
  /** Called when the answer is a replay (or a refusal): undo what reading the request did. */
  discard: () => Promise<void> = async () => {},
): Promise<Answer> {
  const raw = req.headers["idempotency-key"];
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (key === undefined) return run();
  if (!KEY.test(key))
    throw new QuireError(400, "Idempotency-Key: 1 to 255 visible ASCII characters (a UUID is a good choice)");
  const fp = fingerprint();
  const cfg = getConfig();
  const h = await getDbHandle();
  const staleMs = cfg.syncTimeoutMs + 60_000;
  for (let attempt = 0; attempt < 2; attempt++) {
    const claimed = await h.exec(
      `insert into idempotency_keys (account_id, key, fingerprint, state, expires_at)
       values ($1, $2, $3, 'pending', now() + make_interval(secs => $4::float8))
       on conflict (account_id, key) do nothing returning key`,
      [accountId, key, fp, cfg.idempotencyKeyHours * 3600],
    );
    if (claimed.rows.length) {
      let answer: Answer;
      try {
        answer = await run();
      } catch (e) {
        await h
          .exec(`delete from idempotency_keys where account_id = $1 and key = $2`, [accountId, key])
          .catch(() => {});
        throw e;
      }
      await h.exec(
        `update idempotency_keys set state = 'done', response_status = $3, response_body = $4::jsonb where account_id = $1 and key = $2`,
        [accountId, key, answer.status, JSON.stringify(answer.body)],
      );
      return answer;
    }
    const found = await h.exec(
      `select fingerprint, state, response_status, response_body, created_at, expires_at from idempotency_keys where account_id = $1 and key = $2`,
      [accountId, key],
    );
    const row = found.rows[0] as
      | {
          fingerprint: string;
          state: string;
          response_status: number;
          response_body: unknown;
          created_at: Date | string;
          expires_at: Date | string;
        }
      | undefined;
    if (!row) continue; // deleted meanwhile: claim again
    const expired = new Date(row.expires_at).getTime() < Date.now();
    // A pending claim older than any call may take belonged to a node that died mid-call.
    const abandoned = row.state === "pending" && new Date(row.created_at).getTime() < Date.now() - staleMs;
    if (expired || abandoned) {
      await h.exec(
        `delete from idempotency_keys where account_id = $1 and key = $2 and fingerprint = $3 and state = $4`,
        [accountId, key, row.fingerprint, row.state],
      );
      continue;
    }
    await discard();
    if (row.fingerprint !== fp) {
      throw new QuireError(
        422,
        "Idempotency-Key: this key was already used with a different request; use a new key for a new request.",
      );
    }
    if (row.state === "pending") {
      throw new QuireError(
        409,
        "Idempotency-Key: the first request with this key is still being processed; try again shortly.",
        {
          retryAfterSeconds: 1,
        },
      );
    }
    const body = typeof row.response_body === "string" ? JSON.parse(row.response_body) : row.response_body;
    return {
      status: row.response_status,
      body: body as Record<string, unknown>,
      headers: { "idempotent-replayed": "true" },
    };
  }
  throw new QuireError(
    409,
    "Idempotency-Key: the request with this key changed state while being read; try again.",
    { retryAfterSeconds: 1 },
  );
}

/** Drops expired keys. */
export async function sweepIdempotencyKeys() {
  const h = await getDbHandle();
  await h.exec(`delete from idempotency_keys where expires_at < now()`);
}
