import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import {
  RULES_PK,
  RULES_VERSION_SK_PREFIX,
  type RulesVersion,
  rulesPointerKey,
  rulesVersionKey,
  verifiedVersion,
} from "../domain";

/** What `CURRENT` says (docs/rules.md#versions), its version read and verified. */
export type CurrentRead =
  /** No `CURRENT`: version 0, unless versions were published (then a hand removed it). */
  | { kind: "none"; lastPublished: number | undefined }
  | { kind: "verified"; version: RulesVersion }
  /** `CURRENT` or its item fails verification (hand-edited, or a format this code cannot read). */
  | { kind: "invalid"; pointedVersion: number | undefined; why: string };

/**
 * `CURRENT` and the `V#` item it names, read consistently, the version verified
 * (`verifiedVersion`) — the one read every user of the rules shares: the functions' rules
 * source and the operators' commands. `known` answers a version already verified with this
 * digest (a cache: documents never change), so its item is not read again.
 */
export async function readCurrentVersion(
  dynamo: Pick<DynamoDBDocumentClient, "send">,
  tableName: string,
  known?: (version: number, digest: unknown) => RulesVersion | undefined,
): Promise<CurrentRead> {
  const get = async (key: { pk: string; sk: string }) =>
    (await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  const pointer = await get(rulesPointerKey());
  if (pointer === undefined) return { kind: "none", lastPublished: await lastPublished(dynamo, tableName) };
  const pointed =
    typeof pointer.version === "number" && Number.isSafeInteger(pointer.version) && pointer.version > 0
      ? pointer.version
      : undefined;
  const cached = pointed === undefined ? undefined : known?.(pointed, pointer.digest);
  if (cached !== undefined) return { kind: "verified", version: cached };
  const stored = pointed === undefined ? undefined : await get(rulesVersionKey(pointed));
  const verified = verifiedVersion(pointer, stored);
  return verified.ok
    ? { kind: "verified", version: verified.version }
    : { kind: "invalid", pointedVersion: pointed, why: verified.why };
}

/** The latest version ever published (one `V#` item, the last), or undefined for none. */
async function lastPublished(
  dynamo: Pick<DynamoDBDocumentClient, "send">,
  tableName: string,
): Promise<number | undefined> {
  const page = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": RULES_PK, ":prefix": RULES_VERSION_SK_PREFIX },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const version = page.Items?.[0]?.version;
  return typeof version === "number" ? version : undefined;
}
