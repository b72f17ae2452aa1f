import type { ParkCode } from "@rewards/core";
import type { AwsCall } from "@rewards/core/aws";

/** The ends of a message (`capped` only under a daily cap). Only `failed` is reported back to SQS. */
export const OUTCOMES = ["awarded", "duplicate", "parked", "failed", "capped"] as const;

export type Outcome = (typeof OUTCOMES)[number];

/** Why a message is `failed`: each is a different thing to look at in the logs. */
export type FailureCause =
  | "transient" // retries ran out on a transient error (or the deadline cut them short)
  | "configuration" // the deployment is wrong (table schema, missing table, access): not the message
  | "park_failed" // it belongs in the DLQ but the send failed, did not fit, or DLQ_URL is unset
  | "deadline" // not started: the invocation was about to time out
  | "fifo_blocked" // an earlier message of its FIFO group failed
  | "no_rules" // no version of the rules may be used (a cold start onto a bad CURRENT): docs/rules.md
  | "unexpected"; // a bug: an error nothing classified

export interface MessageResult {
  messageId: string;
  outcome: Outcome;
  intentKey?: string;
  /** DynamoDB transactions sent that held this message's award (0 when none was needed). */
  attempts: number;
  /** XP paid (awarded only): less than the rule's when the daily cap cut it. */
  xp?: number;
  parkCode?: ParkCode;
  /** A per-unit duplicate: the units the committed copy was paid for, which this copy's differ from. */
  paidUnits?: number;
  cause?: FailureCause;
  detail?: string;
  /** The SDK call that failed (a `failed` message's), as fields: service, operation, resource, endpoint. */
  call?: AwsCall;
}
