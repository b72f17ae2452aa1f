import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { batchGetAll } from "../batchGetAll";

export interface ItemKey {
  pk: string;
  sk: string;
}

/** A key as one text, for a Map. */
export const keyText = (key: ItemKey): string => `${key.pk}\n${key.sk}`;

/**
 * The history items the table holds under `keys` (absent where there is none), read
 * consistently (batchGetAll), keyed by `keyText`.
 */
export async function storedHistoryItems(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly ItemKey[],
): Promise<Map<string, Record<string, unknown>>> {
  const items = await batchGetAll(
    dynamo,
    tableName,
    keys.map(({ pk, sk }) => ({ pk, sk })),
    "history items",
  );
  return new Map(items.map((item) => [keyText({ pk: String(item.pk), sk: String(item.sk) }), item]));
}
