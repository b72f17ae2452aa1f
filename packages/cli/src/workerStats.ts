import { DeliveryCounts } from "@rewards/local";

export type Outcome = "awarded" | "duplicate" | "parked" | "failed";
const OUTCOMES: readonly Outcome[] = ["awarded", "duplicate", "parked", "failed"];

/**
 * Running totals over a poller's batches, for summaries. Outcomes come from the function's
 * own metrics (its EMF line per batch, what CloudWatch reads on AWS); deliveries from the
 * poller.
 */
export class WorkerStats extends DeliveryCounts {
  readonly outcomes: Record<Outcome, number> = { awarded: 0, duplicate: 0, parked: 0, failed: 0 };

  /** Reads a line the function wrote to stdout; true when it was a metrics line. */
  recordOutput(line: string): boolean {
    if (!line.startsWith('{"_aws"')) return false;
    try {
      const metrics = JSON.parse(line) as Partial<Record<Outcome, unknown>>;
      for (const outcome of OUTCOMES) {
        const count = metrics[outcome];
        if (typeof count === "number") this.outcomes[outcome] += count;
      }
      return true;
    } catch {
      return false;
    }
  }
}
