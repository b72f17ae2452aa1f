import { type AttributeValue, type DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { marshall, unmarshall } from "@aws-sdk/util-dynamodb";
import {
  builtinVersion,
  type RulesVersion,
  rulesPointerKey,
  rulesVersionKey,
  verifiedVersion,
} from "@rewards/core";

/** No version of the rules may be shown: `CURRENT` fails verification and none was read before (docs/reading.md#the-rules). */
export class RulesUnavailableError extends Error {
  override readonly name = "RulesUnavailableError";
}

/**
 * The rules in force as a reader knows them (docs/reading.md#the-rules): `CURRENT` re-read at
 * most every `refreshSeconds`, inside a call that needs it — in the profile's own BatchGetItem
 * when due (`pointerKey`) — and a `V#` item read only when its version is new. A version that
 * fails verification is never used: the last good one stays; with none, RulesUnavailableError.
 * No `CURRENT`: version 0, the built-in rules (or, once a version was read, that one: a removed
 * `CURRENT` is a hand's doing).
 */
export function createRulesCache(options: {
  client: () => DynamoDBClient;
  tableName: string;
  refreshSeconds: number;
  answerOf: <T>(call: Promise<T>) => Promise<T>;
}) {
  let last: RulesVersion | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  const get = async (key: { pk: string; sk: string }) =>
    (
      await options.answerOf(
        options
          .client()
          .send(
            new GetItemCommand({ TableName: options.tableName, Key: marshall(key), ConsistentRead: true }),
          ),
      )
    ).Item;

  async function settle(pointer: Record<string, unknown> | undefined, now: number): Promise<RulesVersion> {
    readAt = now;
    if (pointer === undefined) {
      last ??= builtinVersion();
      return last;
    }
    if (last !== undefined && last.version === pointer.version && last.digest === pointer.digest) return last;
    const version = typeof pointer.version === "number" ? pointer.version : 0;
    const item = version > 0 ? await get(rulesVersionKey(version)) : undefined;
    const verified = verifiedVersion(pointer, item === undefined ? undefined : unmarshall(item));
    if (verified.ok && (last === undefined || verified.version.version >= last.version)) {
      last = verified.version;
      return last;
    }
    if (last !== undefined) return last;
    throw new RulesUnavailableError(
      `the rules in force cannot be read: ${verified.ok ? "CURRENT went back" : verified.why}`,
    );
  }

  return {
    /** Whether a call should read `CURRENT` now. */
    due: (now: number) => last === undefined || now - readAt > options.refreshSeconds * 1000,
    pointerKey: marshall(rulesPointerKey()) as Record<string, AttributeValue>,
    /** The version a pointer read in the caller's BatchGetItem names (undefined: no `CURRENT`). */
    settle,
    /** The rules in force, `CURRENT` read first when due. */
    async current(now: number): Promise<RulesVersion> {
      if (last !== undefined && now - readAt <= options.refreshSeconds * 1000) return last;
      const pointer = await get(rulesPointerKey());
      return settle(pointer === undefined ? undefined : unmarshall(pointer), now);
    },
    /** The last version read, if any. */
    last: () => last,
  };
}
