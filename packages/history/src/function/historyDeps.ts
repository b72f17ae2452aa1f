import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Logger, RulesSource } from "@rewards/core/aws";

export interface HistoryDeps {
  tableName: string;
  /** REWARDS_STAGE: the stage the batch's metrics are emitted for (their `stage` dimension). */
  stage: string;
  /** REWARDS_HISTORY_DAYS: how long a history item is kept; 0 keeps it forever. */
  historyDays: number;
  /** REWARDS_BOARD_SHARDS: the board index's shards a week's entries spread over (default 32). */
  boardShards?: number;
  /** REWARDS_BOARD_WEEKS: weeks a week's items are kept after it ends (default 8). */
  boardWeeks?: number;
  /**
   * The rules' versions in the table (docs/rules.md#at-run-time): the achievements a batch decides
   * are those of the version it takes at its start. Unset (tests that build their own deps):
   * version 0's; the deployed function always has one.
   */
  rules?: RulesSource | undefined;
  dynamo: Pick<DynamoDBDocumentClient, "send">;
  logger: Logger;
  /** PutItem calls in flight at once, each for a different item key (default: resources.history.concurrency). */
  concurrency?: number;
  /** Epoch ms, for the batch's duration and metrics. Date.now by default. */
  clock?: () => number;
  /** Where the per-batch EMF line goes; stdout (CloudWatch Logs) by default. */
  emitMetrics?: (line: string) => void;
}
