import "server-only";
import type { z } from "zod";
import { QuireError } from "@/lib/core/errors";
import { getConfig } from "@/lib/core/config";
import { dataText, deleteData, getData, listData, parseDataKey, putData, type StoredData } from "@/lib/datastore/store";
import type { RouteHandler } from "../define-route";
import { limitedBody } from "../http";
import type * as s from "../schemas";

/**
 * `/v1/data/store` (GET, POST, DELETE) and `/v1/data/store/webhook` (POST): small JSON values an
 * account keeps under keys of its choice, typically a job's answer delivered by a callback, to be
 * read back later. Free of charge; scoped to the account (docs/files.md, "The data store").
 */

type KeyHandler<R extends z.ZodType, I extends z.ZodObject | undefined = undefined> = RouteHandler<"api-key", I, R>;

const entry = (d: Omit<StoredData, "body">) => ({
  jobId: d.key,
  size: d.size,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

/** GET with `jobid`: the value stored under it (404 if none); without: the account's keys. */
export const getEntry: KeyHandler<typeof s.dataGetResponse, typeof s.dataKeyInput> = async ({ caller, input }) => {
  const p = await input();
  if (p.jobid === undefined || p.jobid === "") {
    const items = (await listData(caller.accountId)).map(entry);
    return { items, error: false, status: 200, remainingCredits: caller.balance };
  }
  const d = await getData(caller.accountId, parseDataKey(p.jobid));
  return { ...entry(d), body: d.body, error: false, status: 200, remainingCredits: caller.balance };
};

/** POST `{jobid, body}`: stores `body` (replacing what the key held). */
export const putEntry: KeyHandler<typeof s.dataStoreResponse, typeof s.dataPutInput> = async ({ caller, input }) => {
  const p = await input();
  const key = parseDataKey(p.jobid);
  const d = await putData(caller.accountId, key, dataText(p.body));
  return { ...entry(d), error: false, status: 200, remainingCredits: caller.balance };
};

export const deleteEntry: KeyHandler<typeof s.dataDeleteResponse, typeof s.dataKeyInput> = async ({ caller, input }) => {
  const key = parseDataKey((await input()).jobid);
  await deleteData(caller.accountId, key);
  return { jobId: key, deleted: true, error: false, status: 200, remainingCredits: caller.balance };
};

/**
 * POST `?jobid=KEY` with any JSON body (as a callback sends it): the whole body is stored under
 * the key. Not JSON: 400. Larger than DATA_STORE_MAX_BYTES: 413.
 */
export const webhook: KeyHandler<typeof s.dataStoreResponse> = async ({ caller, url, req }) => {
  const raw = [...url.searchParams].find(([k]) => k.toLowerCase() === "jobid")?.[1];
  const key = parseDataKey(raw);
  const max = getConfig().dataStoreMaxBytes;
  const chunks: Buffer[] = [];
  for await (const c of limitedBody(req, max, "body")) chunks.push(c);
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (!text) throw new QuireError(400, "body: send the data to store as JSON (the callback's body).");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new QuireError(400, "body: not JSON; the webhook stores a JSON body (Content-Type: application/json).");
  }
  const d = await putData(caller.accountId, key, dataText(value));
  return { ...entry(d), error: false, status: 200, remainingCredits: caller.balance };
};
