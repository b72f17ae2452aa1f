import type { BatchResultErrorEntry } from "@aws-sdk/client-sqs";
import { describeError } from "./describeError";
import { type RetryOptions, retry } from "./retry";

/** The part of a batch the service left undone, as `retryRemainder` sees it after each call. */
class Remainder<T> extends Error {
  override readonly name = "Remainder";
  constructor(readonly items: T[]) {
    super(`${items.length} of the batch not processed`);
  }
}

/**
 * Sends `items`, then only what the service left undone, again and again under one retry
 * policy: DynamoDB's unprocessed keys, SQS's entries failed on its side. `sendOnce` returns
 * the items to try again. Resolves to what is still undone when the policy runs out (empty:
 * all done) and, then, the last error.
 */
export async function retryRemainder<T>(
  items: readonly T[],
  sendOnce: (pending: T[]) => Promise<T[]>,
  options: Omit<RetryOptions, "shouldRetry"> & { shouldRetry?: RetryOptions["shouldRetry"] } = {},
): Promise<{ remainder: T[]; error?: unknown }> {
  let pending = [...items];
  try {
    await retry(
      async () => {
        const again = await sendOnce(pending);
        pending = again;
        if (again.length > 0) throw new Remainder(again);
      },
      {
        ...options,
        shouldRetry: (error) => error instanceof Remainder || (options.shouldRetry?.(error) ?? true),
      },
    );
    return { remainder: [] };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    return { remainder: pending, error: cause };
  }
}

export interface SqsBatchEntry {
  Id: string;
}

export interface SqsBatchResponse<S> {
  Successful?: S[];
  Failed?: BatchResultErrorEntry[];
}

export interface SqsBatchReport<T, S> {
  succeeded: Array<{ entry: T; result: S }>;
  /** Refused by SQS for a reason in the request itself (`SenderFault`): trying again cannot help. */
  refused: Array<{ entry: T; error: string }>;
  /** Still failing on SQS's side (or unanswered) when the retry policy ran out. */
  unsent: Array<{ entry: T; error: string }>;
}

/**
 * One SQS batch call (SendMessageBatch, DeleteMessageBatch, ChangeMessageVisibilityBatch),
 * retrying only the entries SQS failed on its side (`SenderFault: false`) and whole calls
 * that failed transiently. Entries are matched to results by their `Id`.
 */
export async function sendSqsBatch<T extends SqsBatchEntry, S extends { Id?: string | undefined }>(
  entries: readonly T[],
  send: (entries: T[]) => Promise<SqsBatchResponse<S>>,
  options: Omit<RetryOptions, "shouldRetry"> & { shouldRetry?: RetryOptions["shouldRetry"] } = {},
): Promise<SqsBatchReport<T, S>> {
  const report: SqsBatchReport<T, S> = { succeeded: [], refused: [], unsent: [] };
  const lastErrors = new Map<string, string>();
  const { remainder, error } = await retryRemainder(
    entries,
    async (pending) => {
      const byId = new Map(pending.map((entry) => [entry.Id, entry]));
      const response = await send(pending);
      // Stryker disable next-line ArrayDeclaration: an absent list and a list of unknown ids add nothing alike
      for (const result of response.Successful ?? []) {
        const entry = byId.get(String(result.Id));
        if (entry) report.succeeded.push({ entry, result });
      }
      const again: T[] = [];
      // Stryker disable next-line ArrayDeclaration: an absent list and a list of unknown ids add nothing alike
      for (const failed of response.Failed ?? []) {
        const entry = byId.get(String(failed.Id));
        if (!entry) continue;
        const reason = `${failed.Code}: ${failed.Message ?? "no message"}`;
        if (failed.SenderFault) report.refused.push({ entry, error: reason });
        else {
          lastErrors.set(entry.Id, reason);
          again.push(entry);
        }
      }
      return again;
    },
    options,
  );
  for (const entry of remainder) {
    report.unsent.push({
      entry,
      // What SQS said of the entry; else why the whole call failed (a remainder always has one or the other).
      error: lastErrors.get(entry.Id) ?? describeError(error),
    });
  }
  return report;
}
