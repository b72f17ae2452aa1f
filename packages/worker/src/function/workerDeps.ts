import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Logger, RetryPolicy, RulesSource } from "@rewards/core/aws";

export interface WorkerDeps {
  tableName: string;
  /** Unset: messages that belong in the DLQ are `failed`, and the redrive policy moves them. */
  dlqUrl?: string | undefined;
  /** User groups processed at once within a batch (REWARDS_CONCURRENCY). */
  concurrency: number;
  /** XP one user may earn per UTC day (REWARDS_DAILY_XP_CAP); undefined: no cap. */
  dailyCap?: number | undefined;
  /** REWARDS_STAGE: the stage the batch's metrics are emitted for (their `stage` dimension). */
  stage: string;
  /**
   * The rules' versions in the table (docs/rules.md#at-run-time): a batch is judged under the
   * one it takes at its start. Unset (tests that build their own deps): version 0, the built-in
   * rules; the deployed function always has one.
   */
  rules?: RulesSource | undefined;
  dynamo: DynamoDBDocumentClient;
  sqs: SQSClient;
  logger: Logger;
  /**
   * Epoch ms, the one clock of an invocation: the batch's start and duration, the deadline
   * and its signals, the retries' timing, the guard's `:now` and `parkedAt` all read it, so
   * a test that pins it pins the whole invocation. Date.now by default.
   */
  clock?: () => number;
  retryPolicy?: RetryPolicy;
  /** No new message starts when the invocation has less than this left (default: 5 s, or a quarter of a shorter timeout). */
  safetyMarginMs?: number;
  /** Where the per-batch EMF line goes; stdout (CloudWatch Logs) by default. */
  emitMetrics?: (line: string) => void;
}

/** The invocation's clock (WorkerDeps.clock, else the system's). */
export const clockOf = (deps: Pick<WorkerDeps, "clock">): (() => number) => deps.clock ?? Date.now;
