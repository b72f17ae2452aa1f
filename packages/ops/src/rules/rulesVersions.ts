import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import {
  builtinVersion,
  RULES_PK,
  RULES_VERSION_SK_PREFIX,
  type RulesVersion,
  rulesVersionKey,
  verifiedVersion,
} from "@rewards/core";
import { readCurrentVersion } from "@rewards/core/aws";
import { OperationError } from "../operationError";

/** The version in force, as the table says it (docs/rules.md#versions). */
export type CurrentRules =
  /** Nothing published: version 0, the built-in rules. */
  | { kind: "builtin"; version: RulesVersion }
  | { kind: "published"; version: RulesVersion }
  /** `CURRENT` or its item fails verification (hand-edited, or a format this code cannot read): never used. */
  | { kind: "invalid"; pointedVersion: number | undefined; why: string };

/** `CURRENT` and the version it names, read consistently and verified (`readCurrentVersion`). */
export async function readCurrentRules(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
): Promise<CurrentRules> {
  const current = await readCurrentVersion(dynamo, tableName);
  if (current.kind === "verified") return { kind: "published", version: current.version };
  if (current.kind === "invalid") return current;
  // Versions published and CURRENT gone: a hand's doing, never version 0 again.
  return current.lastPublished === undefined
    ? { kind: "builtin", version: builtinVersion() }
    : {
        kind: "invalid",
        pointedVersion: undefined,
        why: `CURRENT is gone, and versions up to ${current.lastPublished} were published`,
      };
}

/** The version in force, or an OperationError saying why `CURRENT` cannot be used. */
export async function currentRulesOrFail(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
): Promise<RulesVersion> {
  const current = await readCurrentRules(dynamo, tableName);
  if (current.kind === "invalid")
    throw new OperationError(
      `the rules in force cannot be used: ${current.why} (docs/rules.md#a-version-that-fails-verification)`,
    );
  return current.version;
}

/** Version `version` (0: the built-in rules), verified against the digest published with it. */
export async function readRulesVersion(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  version: number,
): Promise<RulesVersion> {
  if (version === 0) return builtinVersion();
  const stored = (
    await dynamo.send(
      new GetCommand({ TableName: tableName, Key: rulesVersionKey(version), ConsistentRead: true }),
    )
  ).Item;
  if (stored === undefined) throw new OperationError(`no version ${version} was published`);
  // The item verified against its own digest, as if CURRENT named it.
  const verified = verifiedVersion(
    { version, digest: stored.digest, publishedAt: stored.publishedAt },
    stored,
  );
  if (!verified.ok) throw new OperationError(verified.why);
  return verified.version;
}

/** One published version as `rules history` lists it. */
export interface PublishedVersion {
  version: number;
  publishedAt: string;
  digest: string;
  note?: string;
}

/** Every published version, oldest first (one partition: a Query, paged). */
export async function listRulesVersions(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
): Promise<PublishedVersion[]> {
  const versions: PublishedVersion[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": RULES_PK, ":prefix": RULES_VERSION_SK_PREFIX },
        ProjectionExpression: "version, publishedAt, digest, note",
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const stored of page.Items ?? [])
      versions.push({
        version: Number(stored.version),
        publishedAt: String(stored.publishedAt),
        digest: String(stored.digest),
        ...(typeof stored.note === "string" ? { note: stored.note } : {}),
      });
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return versions;
}
