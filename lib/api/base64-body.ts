import "server-only";
import { Readable, pipeline } from "node:stream";
import parser from "stream-json/parser.js";
import { QuireError } from "@/lib/core/errors";

type Token = { name: string; value?: unknown };

const SMALL_MAX = 64 * 1024;

/**
 * Reads a JSON body `{ "file": "<base64 or data: URI>", "name": ..., ... }` as it arrives: the
 * `file` string is decoded while it streams and handed to `store` as bytes, so the web process
 * never holds the text or the file whole; the other top-level fields (small values) are returned.
 * Not JSON → 400; bad base64 → 400 (the caller caps the body's size); on any failure what was
 * stored is handed to `discard`.
 */
export async function readBase64Json<T>(
  body: AsyncIterable<Buffer>,
  store: (bytes: AsyncIterable<Buffer>, contentType: string) => Promise<T>,
  discard: (stored: T) => Promise<void>,
): Promise<{ fields: Record<string, unknown>; stored?: T }> {
  const tokens = parser.asStream({ packKeys: true, streamKeys: false, packStrings: false, streamStrings: true, packNumbers: true, streamNumbers: false });
  // A failing body (413) or bad JSON destroys the token stream with the error; reading it throws.
  pipeline(Readable.from(body), tokens, () => {});
  const it = tokens[Symbol.asyncIterator]() as AsyncIterator<Token>;
  const next = async (): Promise<Token> => {
    let r: IteratorResult<Token>;
    try {
      r = await it.next();
    } catch (e) {
      if (e instanceof QuireError) throw e;
      throw new QuireError(400, "the request body is not valid JSON");
    }
    if (r.done) throw new QuireError(400, "the request body is not valid JSON");
    return r.value;
  };
  const fields: Record<string, unknown> = {};
  let stored: T | undefined;
  try {
    const first = await next();
    if (first.name !== "startObject") throw new QuireError(400, "the request body must be a JSON object");
    for (;;) {
      const t = await next();
      if (t.name === "endObject") break;
      const key = String(t.value);
      const start = await next();
      if (key.toLowerCase() === "file" && start.name === "startString" && stored === undefined) {
        const text = stringChunks(next);
        const head = await readPrefix(text);
        if (head.empty) continue; // "" is as good as absent: the caller answers that `file` is missing
        stored = await store(decodeBase64(head.rest, text), head.contentType);
      } else {
        fields[key] = await readSmallValue(start, next);
      }
    }
    // Anything after the object is an error the parser reports at the end of the stream.
    for (let r = await it.next(); !r.done; r = await it.next()) {
      /* drain */
    }
    return { fields, stored };
  } catch (e) {
    tokens.destroy();
    // The rest of the body was bad: what was stored from it goes too.
    if (stored !== undefined) await discard(stored).catch(() => {});
    if (e instanceof QuireError) throw e;
    throw new QuireError(400, "the request body is not valid JSON");
  }
}

/** The chunks of the string being read, up to its end. */
async function* stringChunks(next: () => Promise<Token>): AsyncGenerator<string> {
  for (;;) {
    const t = await next();
    if (t.name === "endString") return;
    if (t.name === "stringChunk") yield String(t.value);
  }
}

/** Reads a `data:<type>;base64,` prefix if there is one; what was read past it comes back in `rest`. */
async function readPrefix(text: AsyncGenerator<string>): Promise<{ contentType: string; rest: string; empty: boolean }> {
  let seen = "";
  while (seen.length < 5 || (seen.startsWith("data:") && !seen.includes(","))) {
    if (seen.length > 1024) throw new QuireError(400, "file: not valid base64");
    const r = await text.next();
    if (r.done) break;
    seen += r.value;
  }
  if (seen === "") return { contentType: "", rest: "", empty: true };
  if (!seen.startsWith("data:")) return { contentType: "application/octet-stream", rest: seen, empty: false };
  const comma = seen.indexOf(",");
  const m = comma < 0 ? null : /^data:([^;,]*)(;base64)?$/s.exec(seen.slice(0, comma));
  if (!m) throw new QuireError(400, "file: not valid base64");
  return { contentType: m[1] || "application/octet-stream", rest: seen.slice(comma + 1), empty: false };
}

const B64 = /^[A-Za-z0-9+/_-]*$/;

/** Decodes base64 (standard or URL-safe, whitespace ignored, `=` padding only at the end) chunk by chunk. */
export async function* decodeBase64(first: string, more: AsyncIterable<string> | Iterable<string>): AsyncGenerator<Buffer> {
  let carry = "";
  let padding = 0;
  const take = (chunk: string): Buffer | null => {
    let text = chunk.replace(/\s+/g, "");
    if (!text) return null;
    if (padding) {
      if (!/^=*$/.test(text) || padding + text.length > 2) throw new QuireError(400, "file: not valid base64");
      padding += text.length;
      return null;
    }
    const eq = text.indexOf("=");
    if (eq >= 0) {
      const pad = text.slice(eq);
      if (!/^=*$/.test(pad) || pad.length > 2) throw new QuireError(400, "file: not valid base64");
      padding = pad.length;
      text = text.slice(0, eq);
    }
    if (!B64.test(text)) throw new QuireError(400, "file: not valid base64");
    carry += text;
    const whole = padding ? carry.length : carry.length - (carry.length % 4);
    const out = whole ? Buffer.from(carry.slice(0, whole), "base64") : null;
    carry = carry.slice(whole);
    return out;
  };
  const a = take(first);
  if (a?.length) yield a;
  for await (const chunk of more) {
    const b = take(chunk);
    if (b?.length) yield b;
  }
  if (carry) {
    const tail = Buffer.from(carry, "base64");
    if (tail.length) yield tail;
  }
}

/** A small top-level value (name, ...): strings up to 64 KiB; nested objects and arrays are skipped. */
async function readSmallValue(start: Token, next: () => Promise<Token>): Promise<unknown> {
  switch (start.name) {
    case "startString": {
      let s = "";
      for await (const chunk of stringChunks(next)) {
        s += chunk;
        if (s.length > SMALL_MAX) throw new QuireError(413, "a field of the request body is too long");
      }
      return s;
    }
    case "numberValue":
      return Number(start.value);
    case "trueValue":
      return true;
    case "falseValue":
      return false;
    case "nullValue":
      return null;
    case "startObject":
    case "startArray": {
      let depth = 1;
      while (depth > 0) {
        const t = await next();
        if (t.name === "startObject" || t.name === "startArray") depth++;
        else if (t.name === "endObject" || t.name === "endArray") depth--;
      }
      return undefined;
    }
    default:
      throw new QuireError(400, "the request body is not valid JSON");
  }
}
