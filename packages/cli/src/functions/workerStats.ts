import { DeliveryCounts } from "@rewards/local";
import { addEmfCounts } from "./emfTotals";

export type Outcome = "awarded" | "duplicate" | "parked" | "failed" | "capped";

/**
 * Running totals over a poller's batches, for summaries. Outcomes come from the function's
 * own metrics (its EMF line per batch, what CloudWatch reads on AWS); deliveries from the
 * poller.
 */
export class WorkerStats extends DeliveryCounts {
  readonly outcomes: Record<Outcome, number> = { awarded: 0, duplicate: 0, parked: 0, failed: 0, capped: 0 };

  /** Reads a line the function wrote to stdout; true when it was a metrics line. */
  recordOutput(line: string): boolean {
    return addEmfCounts(line, this.outcomes);
  }
}
