import { randomUUID } from "node:crypto";
import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import {
  type Attempted,
  guardKey,
  guardStanding,
  planRevocation,
  type RevokeResult,
  restamped,
  resultOf,
  stampProblem,
} from "@rewards/core";
import {
  classifyError,
  describeError,
  isItemLevelCancellation,
  RetriesExhaustedError,
  type RetryPolicy,
  refusedStamp,
  retry,
} from "@rewards/core/aws";
import { awsClock } from "../awsClock";

export interface RevokeDeps {
  dynamo: DynamoDBDocumentClient;
  tableName: string;
  reason: string;
  /** Only read and judge: what `--yes` would do. */
  dryRun: boolean;
  /** Epoch ms. By default the machine's clock corrected by the SDK's offset to AWS's (`systemClockOffset`). */
  clock?: () => number;
  policy?: RetryPolicy;
}

/** A guard that changes under us every time is someone else's fight: give up after this many reads. */
const MAX_JUDGEMENTS = 5;

const NETWORK = /\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT)\b/;

/**
 * Errors the whole run stops on, named by the CLI's `describeFailure` (a missing table,
 * denied access, an endpoint nothing answers on): every other line would fail the same way.
 */
function isFatal(error: unknown): boolean {
  return classifyError(error) === "configuration" || NETWORK.test(describeError(error));
}

/**
 * Revokes one intent's award (docs/revoking.md): a consistent read, the verdict, and — unless a dry run —
 * the one transaction. A cancelled transaction (the guard changed since it was read) is
 * judged again by reading again; transient errors are retried with the same
 * ClientRequestToken and byte-identical parameters, so a commit whose answer was lost
 * is recognised. Throws only what stops the whole run (see isFatal).
 */
export async function revokeIntent(line: number, intentKey: string, deps: RevokeDeps): Promise<RevokeResult> {
  const clock = deps.clock ?? awsClock(deps.dynamo);
  const transient = (error: unknown) => classifyError(error) === "transient";
  let attempted: Attempted | undefined;
  // After the profile refused a stamp (PROFILE_STAMP_CONDITION): the next one goes after it.
  let stampFloor: Date | undefined;
  try {
    for (let judgement = 1; judgement <= MAX_JUDGEMENTS; judgement++) {
      const { Item } = await retry(
        () =>
          deps.dynamo.send(
            new GetCommand({ TableName: deps.tableName, Key: guardKey(intentKey), ConsistentRead: true }),
          ),
        { shouldRetry: transient, policy: deps.policy },
      );
      const judged = guardStanding(Item, clock(), attempted);
      if (judged.verdict !== "revocable" || deps.dryRun) return resultOf(line, intentKey, judged);
      const now = stampFloor && stampFloor.getTime() > clock() ? stampFloor : new Date(clock());
      // One id per attempt: its token (a retry of it is the same request) and its mark on the guard.
      attempted = { revocationId: randomUUID() };
      const input = {
        ...planRevocation(judged.guard, {
          tableName: deps.tableName,
          now,
          reason: deps.reason,
          revocationId: attempted.revocationId,
        }),
        ClientRequestToken: attempted.revocationId,
      };
      try {
        await retry(() => deps.dynamo.send(new TransactWriteCommand(input)), {
          // A failed condition is an answer: the line is judged again (below), never resent as it was.
          shouldRetry: (error) => transient(error) && !isItemLevelCancellation(error),
          policy: deps.policy,
        });
        return {
          line,
          verdict: "revoked",
          intentKey,
          userId: judged.guard.userId,
          xp: judged.guard.amount,
          revokedAt: now.toISOString(),
          revokedReason: deps.reason,
        };
      } catch (error) {
        // The guard's condition failed: revoked, expired or re-paid since the read. Read again.
        if (classifyError(error) === "duplicate") continue;
        // The profile changed at or after this stamp: judged again, stamped after that change.
        // (The profile is item 1: planRevocation.)
        const refused = refusedStamp(error, 1);
        if (refused) {
          const problem = stampProblem(refused.updatedAt, clock());
          const next =
            problem === undefined
              ? restamped(now, clock(), refused.updatedAt as string | undefined)
              : undefined;
          if (next === undefined)
            return {
              line,
              verdict: "failed",
              intentKey,
              reason: `the profile of user ${JSON.stringify(judged.guard.userId)} was refused: ${problem ?? "its updatedAt is too far ahead"}; repair it with \`rewards user ${judged.guard.userId} --set-xp <n> --yes\`, then run again`,
            };
          stampFloor = next;
          continue;
        }
        throw error;
      }
    }
    return {
      line,
      verdict: "failed",
      intentKey,
      reason: `the guard changed under every one of ${MAX_JUDGEMENTS} attempts; run again`,
    };
  } catch (error) {
    const cause = error instanceof RetriesExhaustedError ? error.cause : error;
    if (isFatal(cause)) throw cause;
    const tries = error instanceof RetriesExhaustedError ? ` (after ${error.attempts} attempts)` : "";
    return { line, verdict: "failed", intentKey, reason: `${describeError(cause)}${tries}` };
  }
}
