import type { AwardRequest } from "../domain/award/awardPlan";
import { type AwardDeps, type AwardOutcome, awardTogether } from "./awardTogether";
import type { ErrorClass } from "./classifyError";
import { type Deadline, NO_DEADLINE } from "./deadline";
import { describeError } from "./describeError";

export type { AwardDeps } from "./awardTogether";

export interface AwardResult {
  outcome: "awarded" | "duplicate" | "capped";
  /** Transactions sent (our attempts; the SDK's own resends are below this count). */
  attempts: number;
  /** Why the outcome is not the plain one, e.g. an earlier attempt committed but its answer was lost. */
  note?: string;
}

/** The award could not be written; `kind` says whether trying again later can help. */
export class AwardError extends Error {
  override readonly name = "AwardError";
  constructor(
    readonly kind: Exclude<ErrorClass, "duplicate">,
    readonly attempts: number,
    override readonly cause: unknown,
    /** Set when an attempt's fate is unknown (aborted, reset): it may have committed. */
    readonly mayHaveCommitted: boolean,
  ) {
    super(`${kind} after ${attempts} attempt(s): ${describeError(cause)}`);
  }
}

/**
 * Pays `award` at most once: the guard put and the profile update in one transaction — the
 * one-award case of `awardTogether`, for callers with a single award. A failure is thrown as
 * an AwardError (`permanent` for a refused item).
 */
export async function awardOnce(
  deps: AwardDeps,
  award: AwardRequest,
  deadline: Deadline = NO_DEADLINE,
): Promise<AwardResult> {
  // Not in order: never `held`.
  const [result] = (await awardTogether(deps, [award], deadline)) as [
    Exclude<AwardOutcome, { outcome: "held" }>,
  ];
  if (result.outcome === "rejected") throw new AwardError("permanent", result.attempts, result.cause, false);
  if (result.outcome === "failed")
    throw new AwardError(result.kind, result.attempts, result.cause, result.mayHaveCommitted);
  const { outcome, attempts } = result;
  return "note" in result && result.note !== undefined
    ? { outcome, attempts, note: result.note }
    : { outcome, attempts };
}
