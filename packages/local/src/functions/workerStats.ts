import { DeliveryCounts } from "../eventSource/deliveryCounts";
import { addEmfCounts } from "./emfTotals";

export type Outcome = "awarded" | "duplicate" | "parked" | "failed" | "capped";

/**
 * Running totals over a poller's batches, for summaries. Outcomes come from the function's
 * own metrics (its EMF line per batch, what CloudWatch reads on AWS); deliveries from the
 * poller.
 */
export class WorkerStats extends DeliveryCounts {
  /** `capped` appears once a batch reports it: only a worker with a daily cap can cap. */
  readonly outcomes: Record<Exclude<Outcome, "capped">, number> & { capped?: number } = {
    awarded: 0,
    duplicate: 0,
    parked: 0,
    failed: 0,
  };

  /** Reads a line the function wrote to stdout; true when it was a metrics line. */
  recordOutput(line: string): boolean {
    if (this.outcomes.capped === undefined && line.startsWith('{"_aws"') && line.includes('"capped":'))
      this.outcomes.capped = 0;
    return addEmfCounts(line, this.outcomes as Record<Outcome, number>);
  }
}
