import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  builtinVersion,
  type CompiledRules,
  compileVersion,
  longerMemory,
  type RulesVersion,
} from "../domain";
import { readCurrentVersion } from "./currentRules";
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
  /** Reads refused or failed since the last call (a function's `rulesRejected` metric; an alarm watches it). */
  takeRejected(): number;
  /**
   * When (epoch ms, the source's clock) the version in force was last read: a version published
   * after it may not be known yet (the history's writer reads again before deciding an award
   * committed since).
   */
  lastReadAt(): number;
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
  let rejected = 0;

  async function readCurrent(): Promise<RulesInForce> {
    const current = await readCurrentVersion(deps.dynamo, deps.tableName, (version, digest) => {
      const cached = byVersion.get(version);
      return cached !== undefined && cached.version.digest === digest ? cached.version : undefined;
    });
    if (current.kind === "invalid") throw new NoGoodRulesError(current.why);
    if (current.kind === "none") {
      // Once anything was published, a missing CURRENT is a hand's doing, not version 0.
      if (good !== undefined && good.version.version > 0)
        throw new NoGoodRulesError(`CURRENT is gone; keeping version ${good.version.version}`);
      if (current.lastPublished !== undefined)
        throw new NoGoodRulesError("CURRENT is gone, and versions were published: never version 0 again");
      return inForce(builtinVersion());
    }
    // Even a version read before (cached) may not follow the one in force (a CURRENT set back by hand).
    const regressed = good === undefined ? undefined : regression(good.version, current.version);
    if (regressed !== undefined) throw new NoGoodRulesError(regressed);
    return inForce(current.version);
  }

  function inForce(version: RulesVersion): RulesInForce {
    const known = byVersion.get(version.version);
    if (known !== undefined && known.version.digest === version.digest) return known;
    const compiled = { version, compiled: compileVersion(version) };
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
        rejected++;
        deps.onRejected?.(why);
        // Read again no sooner than a period from now: a bad CURRENT is not read on every batch.
        readAt = started;
        if (good !== undefined) return good;
        throw new NoGoodRulesError(`no version of the rules to judge by: ${why}`, { cause: error });
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
    lastReadAt: () => readAt,
    takeRejected() {
      const taken = rejected;
      rejected = 0;
      return taken;
    },
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
