import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { openPayload, sealPayload } from "@/lib/jobs/execute-job";

/**
 * Rewrites params of a stored job, as a contract change or a damaged row would leave them:
 *   tamper-job.ts <jobId> '<JSON object merged into the params>'
 * Run with the server's environment while the server is stopped (PGlite is one process).
 */
const [jobId, patch] = process.argv.slice(2);
const db = await getDb();
const [row] = await db.select().from(jobs).where(eq(jobs.id, jobId));
if (!row) throw new Error(`no job ${jobId}`);
const payload = openPayload(row.payload);
payload.params = { ...payload.params, ...JSON.parse(patch) };
await db.update(jobs).set({ payload: sealPayload(payload) }).where(eq(jobs.id, jobId));
await closeDb();
process.stdout.write("tampered\n");
