import type { Logger } from "@rewards/core/aws";
import type { Reader } from "@rewards/reader";

export interface ReadApiDeps {
  reader: Reader;
  logger: Logger;
  /** REWARDS_STAGE: the stage each request's metrics are emitted for (their `stage` dimension). */
  stage: string;
  /** Epoch ms, for each request's duration. Date.now by default. */
  clock?: () => number;
  /** Where each request's EMF line goes; stdout (CloudWatch Logs) by default. */
  emitMetrics?: (line: string) => void;
}
