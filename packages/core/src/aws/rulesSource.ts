import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import {
  builtinVersion,
  type CompiledRules,
  compileRules,
  longerMemory,
  RULES_PK,
  RULES_VERSION_SK_PREFIX,
  type RulesVersion,
  rulesPointerKey,
  rulesVersionKey,
  verifiedVersion,
} from "../domain";
import { describeError } from "./describeError";

/** A version a function judges by: verified, compiled. */
export interface RulesInForce {
  version: RulesVersion;
  compiled: CompiledRules;
}

/** Why a function has no version it may use: every record fails (redelivered), never version 0 once anything was published. */
export class NoGoodRulesError extends Error {
  override readonly name = "NoGoodRulesError";
}

export interface RulesSourceDeps {
  dynamo: Pick<DynamoDBDocumentClient, "send">;
  tableName: string;
  /** REWARDS_RULES_REFRESH_SECONDS: `CURRENT` is re-read at most this often. */
  refreshSeconds: number;
  /** Epoch ms. */
  clock: () => number;
  /** A version refused (digest, format, checks) or a read that failed: logged, counted; the last good version stays. */
  onRejected?: (why: string) => void;
}

export interface RulesSource {
  /**
   * The version a batch is judged under (docs/rules.md#at-run-time): the last one read. A copy
   * read more than twice the refresh period ago (a Lambda thawed after hours) is read again
   * first; one read more than the period ago is read again behind the batch, which does not
   * wait. Throws NoGoodRulesError when there is none to use.
   */
  forBatch(): Promise<RulesInForce>;
  /** `CURRENT` read again now (an event of a type the batch's version does not know: at most once a batch). */
  reread(): Promise<RulesInForce>;
}

/**
 * The rules a function reads from the table: `CURRENT` and, when its version is new, that `V#`
 * item (documents cached by version: they never change), each verified (`verifiedVersion`)
 * before use. Nothing published: version 0, the built-in rules. A version that fails
 * verification, or a read that fails, is never used: the last good version stays; with none
 * (a cold start onto a bad `CURRENT`), NoGoodRulesError.
 */
export function createRulesSource(deps: RulesSourceDeps): RulesSource {
  const periodMs = deps.refreshSeconds * 1000;
  const byVersion = new Map<number, RulesInForce>();
  let good: RulesInForce | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<RulesInForce> | undefined;

  const get = async (key: { pk: string; sk: string }) =>
    (await deps.dynamo.send(new GetCommand({ TableName: deps.tableName, Key: key, ConsistentRead: true })))
      .Item;

  async function readCurrent(): Promise<RulesInForce> {
    const pointer = await get(rulesPointerKey());
    if (pointer === undefined) {
      // Once anything was published, a missing CURRENT is a hand's doing, not version 0.
      if (good !== undefined && good.version.version > 0)
        throw new NoGoodRulesError(`CURRENT is gone; keeping version ${good.version.version}`);
      if (good === undefined && (await anyPublished()))
        throw new NoGoodRulesError("CURRENT is gone, and versions were published: never version 0 again");
      return inForce(builtinVersion());
    }
    const cached = byVersion.get(Number(pointer.version));
    const candidate =
      cached !== undefined && cached.version.digest === pointer.digest
        ? cached
        : await verifiedInForce(pointer);
    // Even a version read before (cached) may not follow the one in force (a CURRENT set back by hand).
    const regressed = good === undefined ? undefined : regression(good.version, candidate.version);
    if (regressed !== undefined) throw new NoGoodRulesError(regressed);
    return candidate;
  }

  /** The version `pointer` names, read and verified; a version that fails verification throws. */
  async function verifiedInForce(pointer: Record<string, unknown>): Promise<RulesInForce> {
    const version = typeof pointer.version === "number" ? pointer.version : Number.NaN;
    const stored =
      Number.isSafeInteger(version) && version > 0 ? await get(rulesVersionKey(version)) : undefined;
    const verified = verifiedVersion(pointer, stored);
    if (!verified.ok) throw new NoGoodRulesError(verified.why);
    return inForce(verified.version);
  }

  /** Whether any version was ever published (one `V#` item). */
  async function anyPublished(): Promise<boolean> {
    const page = await deps.dynamo.send(
      new QueryCommand({
        TableName: deps.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": RULES_PK, ":prefix": RULES_VERSION_SK_PREFIX },
        Limit: 1,
      }),
    );
    return (page.Items ?? []).length > 0;
  }

  function inForce(version: RulesVersion): RulesInForce {
    const known = byVersion.get(version.version);
    if (known !== undefined && known.version.digest === version.digest) return known;
    const compiled = {
      version,
      compiled: compileRules(version.document, version.longestMemory, version.version),
    };
    byVersion.set(version.version, compiled);
    return compiled;
  }

  /** One read at a time; a failure keeps the last good version (reported), or throws when there is none. */
  function read(): Promise<RulesInForce> {
    reading ??= (async () => {
      const started = deps.clock();
      try {
        good = await readCurrent();
        readAt = started;
        return good;
      } catch (error) {
        const why =
          error instanceof NoGoodRulesError
            ? error.message
            : `reading the rules failed: ${describeError(error)}`;
        deps.onRejected?.(why);
        // Read again no sooner than a period from now: a bad CURRENT is not read on every batch.
        readAt = started;
        if (good !== undefined) return good;
        throw new NoGoodRulesError(`no version of the rules to judge by: ${why}`);
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  }

  return {
    async forBatch() {
      const age = deps.clock() - readAt;
      if (good === undefined || age > 2 * periodMs) return read();
      if (age > periodMs) read().catch(() => {}); // behind the batch; a failure was reported
      return good;
    },
    reread: read,
  };
}

/**
 * Why `next` may not follow `last` in one function (a hand-edited `CURRENT`): versions only go
 * up (a rollback publishes a new one), and no type's guard life may shrink below what guards
 * were already written with. Undefined: it may.
 */
function regression(last: RulesVersion, next: RulesVersion): string | undefined {
  if (next.version < last.version)
    return `CURRENT names version ${next.version}, older than version ${last.version} already in force: versions only go up`;
  for (const [type, memory] of Object.entries(last.longestMemory)) {
    const now = next.longestMemory[type];
    if (now === undefined || longerMemory(memory, now))
      return `version ${next.version}'s longestMemory for ${type} (${now ?? "none"}) is shorter than version ${last.version}'s (${memory})`;
  }
  return undefined;
}
