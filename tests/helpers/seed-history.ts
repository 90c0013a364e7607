import { sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";

/**
 * Gives the first account a long history, as months of use would: N finished jobs (one every
 * minute back from an hour ago, three operations in turn, every 10th failed) and their ledger
 * rows (reserve + capture, or reserve + release for a failure) after a grant that pays for them,
 * so the balance stays the ledger's sum and what it was:   seed-history.ts <N>
 * Run with the server's environment while the server is stopped (PGlite is one process).
 */
const n = Number(process.argv[2] ?? 1000);
const db = await getDb();
const started = performance.now();
await db.transaction(async (tx) => {
  const r = (await tx.execute(sql`select id from accounts order by created_at limit 1`)) as unknown as { rows: { id: string }[] };
  const account = r.rows[0]!.id;
  await tx.execute(sql`
    insert into jobs (id, account_id, operation, path, status, is_async, via, source, request, payload, message, credits, page_count, created_at, started_at, finished_at, duration_ms)
    select 'seed-' || lpad(i::text, 7, '0'), ${account},
      (array['pdf-info','pdf-split','pdf-convert-to-csv'])[1 + i % 3],
      (array['/v1/pdf/info','/v1/pdf/split','/v1/pdf/convert/to/csv'])[1 + i % 3],
      case when i % 10 = 0 then 'failed' else 'success' end, false, 'api',
      'https://example.com/seed-' || i || '.pdf', '{}'::jsonb, '', case when i % 10 = 0 then 'url: seeded failure' end,
      case when i % 10 = 0 then 0 else 2 end, 1,
      now() - interval '1 hour' - (i || ' minutes')::interval,
      now() - interval '1 hour' - (i || ' minutes')::interval,
      now() - interval '1 hour' - (i || ' minutes')::interval + interval '1 second', 1000
    from generate_series(1, ${n}) as i`);
  // Oldest first, so ledger ids grow with time as they do in use; a grant before them pays for
  // them, so the balance the account had is the balance it keeps.
  const cost = (n - Math.floor(n / 10)) * 2;
  await tx.execute(sql`insert into credit_ledger (account_id, kind, amount, note, created_at)
    values (${account}, 'grant', ${cost}, 'seeded history', now() - interval '1 hour' - make_interval(mins => ${n + 1}::int))`);
  await tx.execute(sql`
    insert into credit_ledger (account_id, kind, amount, job_id, operation, created_at)
    select ${account}, k.kind, k.amount, 'seed-' || lpad(i::text, 7, '0'), (array['pdf-info','pdf-split','pdf-convert-to-csv'])[1 + i % 3],
      now() - interval '1 hour' - (i || ' minutes')::interval + k.delay
    from generate_series(${n}, 1, -1) as i,
      lateral (values ('reserve', -1, interval '0 s', 1),
                      (case when i % 10 = 0 then 'release' else 'capture' end, case when i % 10 = 0 then 1 else -1 end, interval '1 s', 2)) as k(kind, amount, delay, ord)
    order by i desc, k.ord`);
});
await closeDb();
process.stdout.write(`seeded ${n} jobs in ${Math.round(performance.now() - started)} ms\n`);
