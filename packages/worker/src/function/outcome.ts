import type { ParkCode } from "@rewards/core";

/** The four ends of a message. Only `failed` is reported back to SQS. */
export type Outcome = "awarded" | "duplicate" | "parked" | "failed";

export const OUTCOMES: readonly Outcome[] = ["awarded", "duplicate", "parked", "failed"];

/** Why a message is `failed`: each is a different thing to look at in the logs. */
export type FailureCause =
  | "transient" // retries ran out on a transient error (or the deadline cut them short)
  | "configuration" // the deployment is wrong (table schema, missing table, access): not the message
  | "park_failed" // it belongs in the DLQ but the send failed, did not fit, or DLQ_URL is unset
  | "deadline" // not started: the invocation was about to time out
  | "fifo_blocked" // an earlier message of its FIFO group failed
  | "unexpected"; // a bug: an error nothing classified

export interface MessageResult {
  messageId: string;
  outcome: Outcome;
  intentKey?: string;
  /** DynamoDB transactions sent for this message (0 when none was needed). */
  attempts: number;
  parkCode?: ParkCode;
  cause?: FailureCause;
  detail?: string;
}
