import { randomUUID } from "node:crypto";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { Award } from "./award";
import {
  cancellationReasons,
  classifyError,
  describeError,
  type ErrorClass,
  isUnknownOutcome,
} from "./classifyError";
import { type Deadline, NO_DEADLINE, signalFor } from "./deadline";
import { planGuardTransaction } from "./guardTransaction";
import { RetriesExhaustedError, type RetryOptions, retry } from "./retry";

export interface AwardDeps {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Epoch ms: the guard's `:now`, the retries' timing and the deadline's signal all read it. */
  clock: () => number;
  /** The in-process retry policy and, for tests, its sleep and randomness. */
  retry?: Omit<RetryOptions, "shouldRetry" | "deadline" | "clock"> | undefined;
}

export interface AwardRequest extends Award {
  /** The SQS message id, stored on the guard. */
  messageId?: string | undefined;
}

export interface AwardResult {
  outcome: "awarded" | "duplicate";
  /** Transactions sent (our attempts; the SDK's own resends are below this count). */
  attempts: number;
  /** Why the outcome is not the plain one, e.g. an earlier attempt committed but its answer was lost. */
  note?: string;
}

/** The award could not be written; `kind` says whether trying again later can help. */
export class AwardError extends Error {
  override readonly name = "AwardError";
  constructor(
    readonly kind: Exclude<ErrorClass, "duplicate">,
    readonly attempts: number,
    override readonly cause: unknown,
    /** Set when an attempt's fate is unknown (aborted, reset): it may have committed. */
    readonly mayHaveCommitted: boolean,
  ) {
    super(`${kind} after ${attempts} attempt(s): ${describeError(cause)}`);
  }
}

/**
 * The existing guard that made item 0 fail (returned because the put asks for ALL_OLD);
 * undefined where an endpoint does not return it. Called for duplicates only, whose
 * reasons always hold item 0.
 */
function existingGuard(error: unknown): { messageId?: unknown; awardedAt?: unknown } | undefined {
  // Stryker disable next-line OptionalChaining: only a duplicate gets here, and a duplicate's reasons hold item 0
  const item = cancellationReasons(error)?.[0]?.Item;
  if (!item) return undefined;
  // lib-dynamodb does not unmarshall cancellation reasons: values arrive as { S: "…" }.
  return unmarshall(item as Record<string, AttributeValue>);
}

/**
 * Pays `award` at most once: the guard put and the profile update in one transaction.
 *
 * One random ClientRequestToken and one `now` serve every in-process retry, so a retry is
 * byte-identical: if an earlier attempt committed but its answer was lost, AWS answers the
 * retry with success (awarded), not the guard's ConditionalCheckFailed. Where an endpoint
 * does not honour the token, the guard the put finds (ALL_OLD) tells the same story: this
 * message's id and this attempt's `awardedAt` mean the award is ours.
 *
 * `deadline` bounds every attempt in flight, so a black-holed endpoint cannot hold the
 * batch past it (the SDK's own timeouts alone could, its retries included).
 */
export async function awardOnce(
  deps: AwardDeps,
  award: AwardRequest,
  deadline: Deadline = NO_DEADLINE,
): Promise<AwardResult> {
  const now = new Date(deps.clock());
  const input = {
    ...planGuardTransaction(award, { tableName: deps.tableName, now, messageId: award.messageId }),
    ClientRequestToken: randomUUID(),
  };
  let attempts = 0;
  let unknownFate = false;
  try {
    await retry(
      async (attempt) => {
        attempts = attempt;
        try {
          await deps.client.send(new TransactWriteCommand(input), {
            abortSignal: signalFor(deadline, deps.clock()),
          });
        } catch (error) {
          if (isUnknownOutcome(error)) unknownFate = true;
          throw error;
        }
      },
      {
        ...deps.retry,
        shouldRetry: (error) => classifyError(error) === "transient",
        deadline,
        clock: deps.clock,
      },
    );
    return unknownFate
      ? {
          outcome: "awarded",
          attempts,
          note: "an earlier attempt's answer was lost; its token made the retry safe",
        }
      : { outcome: "awarded", attempts };
  } catch (error) {
    const cause = error instanceof RetriesExhaustedError ? error.cause : error;
    const kind = classifyError(cause);
    if (kind === "duplicate") return duplicateResult(cause, award, now, attempts);
    throw new AwardError(kind, attempts, cause, unknownFate);
  }
}

function duplicateResult(error: unknown, award: AwardRequest, now: Date, attempts: number): AwardResult {
  const guard = existingGuard(error);
  if (award.messageId === undefined || guard?.messageId !== award.messageId) {
    return { outcome: "duplicate", attempts };
  }
  if (guard.awardedAt === now.toISOString()) {
    return {
      outcome: "awarded",
      attempts,
      note: "an earlier attempt committed but its answer was lost; the guard it wrote is this attempt's",
    };
  }
  return {
    outcome: "duplicate",
    attempts,
    note: `already paid by an earlier delivery of this same message (at ${String(guard.awardedAt)}) whose result was lost`,
  };
}
