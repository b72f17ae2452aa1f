import { type DynamoDBDocumentClient, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import {
  achievementTimesAfter,
  checkRulesChange,
  longestMemoryAfter,
  type RulesDocument,
  type RulesProblem,
  type RulesVersion,
  rulesDigest,
  rulesPointerKey,
  rulesVersionKey,
} from "@rewards/core";
import { cancellationReasons } from "@rewards/core/aws";
import { awsClock } from "../awsClock";
import { currentRulesOrFail, readCurrentRules } from "./rulesVersions";

export interface PublishOptions {
  note?: string | undefined;
  /** The version in force as the caller just read it (a rollback did): not read again. */
  current?: RulesVersion | undefined;
  /** Refuse unless `CURRENT` names this version (the publisher's explicit read). */
  expectVersion?: number | undefined;
  dryRun?: boolean | undefined;
  /**
   * Epoch ms: the publish (`publishedAt`, and the instant campaigns are judged at). By default
   * AWS's clock (`awsClock`), read after `CURRENT`: a skewed machine never lets a campaign reach back.
   */
  now?: number | undefined;
}

/** What publishing did, or would have done. */
export type PublishResult =
  | { kind: "published"; version: number; digest: string; publishedAt: string; warnings: RulesProblem[] }
  | { kind: "would_publish"; version: number; digest: string; warnings: RulesProblem[] }
  /** The document is the version in force's: nothing to publish. */
  | { kind: "unchanged"; version: number }
  /** A check refused it against the version in force: nothing published. */
  | { kind: "refused"; against: number; problems: RulesProblem[]; warnings: RulesProblem[] }
  /** `CURRENT` is not (or no longer) the version read: nothing published, never retried. */
  | { kind: "race_lost"; expected: number; current: number | undefined };

/**
 * Publishes `document` as the next version (docs/rules.md#versions): checked against the version
 * in force (`checkRulesChange`, with the longest memory each type has ever had), then ONE
 * transaction — the `V#` item (`attribute_not_exists`) and `CURRENT` on the condition that it
 * still names the version read. A lost race is reported, never retried: the publisher diffs
 * again. `document` must already pass its own checks (`checkRules`).
 */
export async function publishRules(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  document: RulesDocument,
  options: PublishOptions,
): Promise<PublishResult> {
  const current = options.current ?? (await currentRulesOrFail(dynamo, tableName));
  const now = options.now ?? awsClock(dynamo)();
  if (options.expectVersion !== undefined && options.expectVersion !== current.version)
    return { kind: "race_lost", expected: options.expectVersion, current: current.version };
  const change = checkRulesChange(document, {
    current: current.document,
    longestMemory: current.longestMemory,
    now,
  });
  if (change.problems.length > 0)
    return {
      kind: "refused",
      against: current.version,
      problems: change.problems,
      warnings: change.warnings,
    };
  const digest = rulesDigest(document);
  if (digest === current.digest) return { kind: "unchanged", version: current.version };
  const version = current.version + 1;
  if (options.dryRun) return { kind: "would_publish", version, digest, warnings: change.warnings };
  return commit(dynamo, tableName, current, document, {
    ...options,
    now,
    version,
    digest,
    warnings: change.warnings,
  });
}

async function commit(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  current: RulesVersion,
  document: RulesDocument,
  options: PublishOptions & { now: number; version: number; digest: string; warnings: RulesProblem[] },
): Promise<PublishResult> {
  const publishedAt = new Date(options.now).toISOString();
  const { version, digest } = options;
  try {
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: {
                ...rulesVersionKey(version),
                version,
                document,
                digest,
                publishedAt,
                ...(options.note === undefined ? {} : { note: options.note }),
                longestMemory: longestMemoryAfter(current.longestMemory, document),
                achievementTimes: achievementTimesAfter(current, document, publishedAt),
              },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { ...rulesPointerKey(), version, digest, publishedAt },
              ...(current.version === 0
                ? { ConditionExpression: "attribute_not_exists(pk)" }
                : {
                    ConditionExpression: "version = :read",
                    ExpressionAttributeValues: { ":read": current.version },
                  }),
            },
          },
        ],
      }),
    );
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons?.some((reason) => reason.Code === "ConditionalCheckFailed")) {
      const now = await readCurrentRules(dynamo, tableName);
      return {
        kind: "race_lost",
        expected: current.version,
        current: now.kind === "invalid" ? now.pointedVersion : now.version.version,
      };
    }
    throw error;
  }
  return { kind: "published", version, digest, publishedAt, warnings: options.warnings };
}
