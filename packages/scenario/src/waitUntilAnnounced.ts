import { setTimeout as delay } from "node:timers/promises";
import type { StreamSource } from "@rewards/local";

/**
 * Resolves true once the announcer has delivered everything written to the table before
 * `since` (every shard read to its end by a read begun after it), false after `timeoutMs`.
 */
export async function waitUntilAnnounced(
  source: StreamSource,
  since: number,
  timeoutMs: number,
): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!source.caughtUp(since)) {
    if (Date.now() >= until) return false;
    await delay(100);
  }
  return true;
}
