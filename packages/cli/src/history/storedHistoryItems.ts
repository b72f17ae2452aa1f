import { BatchGetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { classifyError, retryRemainder } from "@rewards/core/aws";
import { CliError } from "../cliError";

export interface ItemKey {
  pk: string;
  sk: string;
}

/** BatchGetItem's limit on keys per request. */
const KEYS_PER_BATCH = 100;

/** A key as one text, for a Map. */
export const keyText = (key: ItemKey): string => `${key.pk}\n${key.sk}`;

/**
 * The items the table holds under `keys` (absent where there is none), read consistently
 * (one read unit per item up to 4 KB), 100 keys per BatchGetItem; keys DynamoDB leaves
 * unprocessed are asked again. Keyed by `keyText`.
 */
export async function storedHistoryItems(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly ItemKey[],
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  for (let start = 0; start < keys.length; start += KEYS_PER_BATCH) {
    const { remainder, error } = await retryRemainder(
      keys.slice(start, start + KEYS_PER_BATCH).map(({ pk, sk }) => ({ pk, sk })),
      async (pending) => {
        const { Responses, UnprocessedKeys } = await dynamo.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
        );
        for (const item of Responses?.[tableName] ?? [])
          found.set(keyText({ pk: String(item.pk), sk: String(item.sk) }), item);
        return (UnprocessedKeys?.[tableName]?.Keys ?? []) as ItemKey[];
      },
      // A missing table or denied access is said at once, not retried.
      { shouldRetry: (cause) => classifyError(cause) === "transient" },
    );
    if (remainder.length > 0) {
      if (error !== undefined) throw error;
      throw new CliError(
        `${remainder.length} history items could not be read (DynamoDB left them unprocessed)`,
      );
    }
  }
  return found;
}
