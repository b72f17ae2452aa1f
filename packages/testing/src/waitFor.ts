import { setTimeout as delay } from "node:timers/promises";

/** Polls `condition` until it holds (true) or `timeoutMs` passes (false): wait on conditions, not sleeps. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 10_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() >= until) return false;
    await delay(intervalMs);
  }
}
