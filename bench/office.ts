/** `npm run bench:office`: only the docx → PDF rows of `npm run bench` (bench/office-bench.ts). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startQuire } from "../tests/helpers/quire-server";
import { benchDocxToPdf } from "./office-bench";

async function timeIt(fn: () => Promise<unknown> | unknown, runs = 5) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

async function main() {
  const q = await startQuire({ env: { LOG_LEVEL: "error", WORKERS: "2", RATE_LIMIT_PER_SECOND: "0" } });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-office-"));
  try {
    for (const row of await benchDocxToPdf(q, tmp, timeIt)) console.log(row.join("  |  "));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    await q.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
