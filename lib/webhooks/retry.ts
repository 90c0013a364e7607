import "server-only";

/** Delays before attempts 2, 3, ... of one callback: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h. */
export const WEBHOOK_RETRY_DELAYS_MS = [
  10_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000,
];

/** Suggested attempts in all (the first delivery plus one retry per delay above), about 16 h. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/**
 * How long to wait (ms) after the `attempt`-th failed delivery (1 = the first one failed), with
 * ±20 % jitter so receivers that come back are not hit by every sender at once. Past the table
 * it stays at the last step; the caller decides when to give up (WEBHOOK_MAX_ATTEMPTS).
 */
export function nextRetryDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(Math.max(1, Math.floor(attempt) || 1), WEBHOOK_RETRY_DELAYS_MS.length);
  return Math.round(WEBHOOK_RETRY_DELAYS_MS[step - 1] * (0.8 + 0.4 * random()));
}
