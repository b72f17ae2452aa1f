import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { keptStamp, profileKey, quoteInput } from "@rewards/core";
import { awsClock } from "../awsClock";
import { OperationError } from "../operationError";
import { awardsProblem, type StoredProfile, wrongAwardsCount } from "./profileRepairAdvice";

export interface XpRepair {
  userId: string;
  /** The xp the profile held (null: no xp attribute, or no profile). */
  from: unknown;
  to: number | string;
  /** Only when the profile had no `awards` count and the repair wrote 0 there. */
  awards?: { from: null; to: 0 };
}

/** The profile item as stored, whatever it holds (undefined: none). */
export async function storedProfile(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
): Promise<StoredProfile | undefined> {
  return (
    await dynamo.send(new GetCommand({ TableName: tableName, Key: profileKey(userId), ConsistentRead: true }))
  ).Item;
}

/**
 * `--set-xp`: writes `to` as the profile's xp and now as its `updatedAt` (unless it is already
 * later: `keptStamp`, a reader's stamp never moves back), and 0 as its
 * `awards` where it has none, so the reader reads what it leaves. Only if the profile still
 * holds what was read, so a concurrent award is never overwritten. Writes nothing for a user
 * with no profile (there is nothing to repair: XP comes from awards), nor for a profile whose
 * `awards` or a count per type is wrong (no count written here could be known right).
 */
export async function repairProfileXp(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  to: number,
  /** Epoch ms, read after the profile: by default the machine's corrected to AWS's (`awsClock`). */
  clock: () => number = awsClock(dynamo),
): Promise<XpRepair> {
  const profile = await storedProfile(dynamo, tableName, userId);
  const now = new Date(clock());
  if (profile === undefined)
    throw new OperationError(
      `user ${quoteInput(userId)} has no profile, so there is no XP to repair: nothing written (a user without one reads as 0 XP; the first award writes it)`,
    );
  const wrong = wrongAwardsCount(profile);
  if (wrong !== undefined)
    throw new OperationError(
      `${awardsProblem(userId, wrong.found, wrong.attribute)}, which --set-xp cannot know: nothing written; set ${wrong.attribute} by hand first (docs/operations.md#repairing-a-profile)`,
    );
  const mendAwards = profile.awards === undefined;
  await conditionalXpWrite(dynamo, tableName, userId, profile.xp, to, keptStamp(profile.updatedAt, now), {
    repair: true,
    mendAwards,
    readStamp: profile.updatedAt,
  });
  return { userId, from: profile.xp ?? null, to, ...(mendAwards ? { awards: { from: null, to: 0 } } : {}) };
}

/**
 * `--corrupt-xp`, for rehearsals: writes `to` as the profile's xp (creating the profile if
 * there is none, with no `awards`), only if it still holds what was read.
 */
export async function corruptProfileXp(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  to: string,
  /** Epoch ms, read after the profile: by default the machine's corrected to AWS's (`awsClock`). */
  clock: () => number = awsClock(dynamo),
): Promise<XpRepair> {
  const profile = await storedProfile(dynamo, tableName, userId);
  const now = new Date(clock());
  const before = profile?.xp;
  await conditionalXpWrite(dynamo, tableName, userId, before, to, keptStamp(profile?.updatedAt, now), {
    repair: false,
    mendAwards: false,
    readStamp: profile?.updatedAt,
  });
  return { userId, from: before ?? null, to };
}

async function conditionalXpWrite(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  before: unknown,
  to: number | string,
  stamp: string,
  { repair, mendAwards, readStamp }: { repair: boolean; mendAwards: boolean; readStamp: unknown },
): Promise<void> {
  const held = [
    // A repair never creates a profile, even one deleted since it was read.
    ...(repair ? ["attribute_exists(pk)"] : []),
    before === undefined ? "attribute_not_exists(xp)" : "xp = :before",
    ...(mendAwards ? ["attribute_not_exists(awards)"] : []),
    // An award that paid 0 (capped) changes the stamp, not xp: the repair must not move it back.
    readStamp === undefined ? "attribute_not_exists(updatedAt)" : "updatedAt = :readStamp",
  ];
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: profileKey(userId),
        UpdateExpression: `SET xp = :xp, updatedAt = :now${mendAwards ? ", awards = :zero" : ""}`,
        ConditionExpression: held.join(" AND "),
        ExpressionAttributeValues: {
          ":xp": to,
          ":now": stamp,
          ...(before === undefined ? {} : { ":before": before }),
          ...(readStamp === undefined ? {} : { ":readStamp": readStamp }),
          ...(mendAwards ? { ":zero": 0 } : {}),
        },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException)
      throw new OperationError(
        `the profile changed while it was being repaired (its xp was ${JSON.stringify(before ?? null)}): nothing written; run again`,
      );
    throw error;
  }
}
