import type { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import type { Logger, RetryPolicy } from "@rewards/core/aws";

export interface AnnouncerDeps {
  /** The rewards bus (BUS_NAME): a name or an ARN. */
  busName: string;
  /** REWARDS_STAGE: the stage the batch's metrics are emitted for (their `stage` dimension). */
  stage: string;
  eventBridge: EventBridgeClient;
  logger: Logger;
  /** Epoch ms, the one clock of an invocation (its deadline, retries and metrics). Date.now by default. */
  clock?: () => number;
  retryPolicy?: RetryPolicy;
  /** Publishing stops this long before the invocation's end (default: 5 s, or a quarter of a shorter timeout). */
  safetyMarginMs?: number;
  /** Where the per-batch EMF line goes; stdout (CloudWatch Logs) by default. */
  emitMetrics?: (line: string) => void;
}
