import { DeliveryCounts, type Poller, type PollerOptions, startPoller } from "@rewards/local";
import { type Outcome, processBatch, type WorkerDeps } from "@rewards/worker";

/** Outcomes and deliveries over a poller's batches. */
export class PollerCounts extends DeliveryCounts {
  readonly outcomes: Record<Outcome, number> = { awarded: 0, duplicate: 0, parked: 0, failed: 0, capped: 0 };
}

/**
 * A poller running the real batch code with `deps` in this process (so a test can inject
 * clients and clocks), counting every outcome and delivery.
 */
export async function startCountingPoller(
  deps: WorkerDeps,
  options: Omit<PollerOptions, "handler" | "onBatch">,
): Promise<{ poller: Poller; stats: PollerCounts }> {
  const stats = new PollerCounts();
  const poller = await startPoller({
    ...options,
    handler: async (event, context) => {
      const result = await processBatch(deps, event, context);
      for (const outcome of Object.keys(stats.outcomes) as Outcome[]) {
        stats.outcomes[outcome] += result.counts[outcome] ?? 0;
      }
      return result.response;
    },
    onBatch: (summary) => stats.recordBatch(summary),
  });
  return { poller, stats };
}
