import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { consistentItems, UnprocessedKeysError } from "@rewards/core/aws";
import { OperationError } from "./operationError";

/**
 * The items the table holds under `keys` (none where there is no item), read consistently
 * (one read unit per item up to 4 KB), 100 keys per BatchGetItem (core's `consistentItems`).
 * Keys DynamoDB leaves unprocessed (its answer to load) are asked again, alone; a call that
 * fails is tried again only when the failure is transient: a missing table or denied access is
 * said at once. Throws an OperationError when some keys could not be read (`what` names them:
 * "profiles").
 */
export async function batchGetAll(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  keys: ReadonlyArray<Record<string, string>>,
  what: string,
): Promise<Array<Record<string, unknown>>> {
  try {
    return await consistentItems(
      { dynamo, tableName },
      keys as ReadonlyArray<{ pk: string; sk: string }>,
      what,
    );
  } catch (error) {
    if (error instanceof UnprocessedKeysError) throw new OperationError(error.message);
    throw error;
  }
}
