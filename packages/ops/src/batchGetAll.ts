import { BatchGetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { classifyError, retryRemainder } from "@rewards/core/aws";
import { OperationError } from "./operationError";

/** BatchGetItem's limit on keys per request. */
const KEYS_PER_BATCH = 100;

/**
 * The items the table holds under `keys` (none where there is no item), read consistently
 * (one read unit per item up to 4 KB), 100 keys per BatchGetItem. Keys DynamoDB leaves
 * unprocessed (its answer to load) are asked again, alone; a call that fails is tried again
 * only when the failure is transient: a missing table or denied access is said at once.
 * Throws when some keys could not be read (`what` names them: "profiles").
 */
export async function batchGetAll(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  keys: ReadonlyArray<Record<string, string>>,
  what: string,
): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_BATCH) {
    const { remainder, error } = await retryRemainder(
      keys.slice(start, start + KEYS_PER_BATCH),
      async (pending) => {
        const { Responses, UnprocessedKeys } = await dynamo.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
        );
        items.push(...(Responses?.[tableName] ?? []));
        return (UnprocessedKeys?.[tableName]?.Keys ?? []) as Array<Record<string, string>>;
      },
      { shouldRetry: (cause) => classifyError(cause) === "transient" },
    );
    // A call that failed is its own error; keys still unprocessed when the retries ran out
    // (retryRemainder's last "error" is then only its count of them) are said in words.
    if (remainder.length > 0)
      throw error instanceof Error && error.name !== "Remainder"
        ? error
        : new OperationError(
            `${remainder.length} ${what} could not be read (DynamoDB left them unprocessed)`,
          );
  }
  return items;
}
