import { randomUUID } from "node:crypto";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import {
  type AwardPlanContext,
  type AwardRequest,
  type AwardVerdict,
  planAwardTransaction,
  type Refusal,
  readCancellation,
  restamped,
  stampProblem,
  transactionsOf,
} from "../domain/award/awardPlan";
import { againInOrder } from "../domain/award/inOrder";
import {
  cancellationReasons,
  classifyError,
  isItemLevelCancellation,
  isUnknownOutcome,
} from "./classifyError";
import { type Deadline, NO_DEADLINE, signalFor } from "./deadline";
import { RetriesExhaustedError, type RetryOptions, retry } from "./retry";

export interface AwardDeps {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Epoch ms: the guards' `:now`, the retries' timing and the deadline's signal all read it. */
  clock: () => number;
  /** The in-process retry policy and, for tests, its sleep and randomness. */
  retry?: Omit<RetryOptions, "shouldRetry" | "deadline" | "clock"> | undefined;
  /** XP one user may earn per UTC day (REWARDS_DAILY_XP_CAP); undefined: no cap. */
  dailyCap?: number | undefined;
}

/** The end of one award. `attempts`: transactions sent that held it (our tries, not the SDK's resends). */
export type AwardOutcome =
  | { outcome: "awarded"; xp: number; attempts: number; note?: string }
  /** The daily cap left 0 XP: the guard is written (the intent is spent), nothing paid. */
  | { outcome: "capped"; attempts: number; note?: string }
  | {
      outcome: "duplicate";
      attempts: number;
      note?: string;
      /** A per-unit copy whose units differ from those the committed copy was paid for (its guard's). */
      paidUnits?: number;
      /** Internal (never returned): the units the guard met records, which later copies are compared with. */
      guardUnits?: number;
    }
  /** Items it needs were refused for good: the message is parked as `rejected`. */
  | { outcome: "rejected"; attempts: number; refused: Refusal[]; cause: unknown }
  /**
   * In order only: not written, because an earlier award of the run was rejected (its park may
   * fail) or failed. The caller sends it again once the earlier records are settled, or fails it.
   */
  | { outcome: "held"; attempts: number }
  | {
      outcome: "failed";
      kind: "transient" | "configuration";
      attempts: number;
      cause: unknown;
      /** An attempt's fate is unknown (aborted, reset): it may have committed. */
      mayHaveCommitted: boolean;
    };

/**
 * Conditions that keep failing (other writers racing for the same day, guards appearing
 * between two tries) could otherwise loop: past this many transactions for one run of
 * awards, what is left is `failed` and redelivered.
 */
const MAX_TRANSACTIONS_PER_RUN = 8;

const LOST_ANSWER_OWN =
  "an earlier attempt committed but its answer was lost; the guard it wrote is this attempt's";
const LOST_ANSWER_TOKEN = "an earlier attempt's answer was lost; its token made the retry safe";

/**
 * Pays several awards of ONE user at most once each (docs/awards.md, "One transaction per
 * user"): one TransactWriteItems of their guards, one profile update and, under a daily cap,
 * the day totals. Answers one outcome per award, in the order given.
 *
 * - Copies of one intent: only the first is written; a later copy is `duplicate` when the
 *   first wrote its guard, else it shares the first's outcome.
 * - A transient failure is retried whole and byte-identical (one token, one `now`), within
 *   the deadline, so a retry of a commit whose answer was lost answers success.
 * - An item-level cancellation is read item by item: guards already there are `duplicate`
 *   (or this record's own award, when the guard holds its message id and this `awardedAt`:
 *   the lost-answer rule); refused items reject the awards that need them; a day at its cap
 *   returns its total; the rest go again at once as a new transaction (a new token).
 */
export async function awardTogether(
  deps: AwardDeps,
  awards: readonly AwardRequest[],
  deadline: Deadline = NO_DEADLINE,
  options: AwardOptions = {},
): Promise<AwardOutcome[]> {
  const now = new Date(options.now ?? deps.clock());
  const inOrder = options.inOrder === true;
  const context = { tableName: deps.tableName, now, dailyCap: deps.dailyCap, inOrder };
  const outcomes = new Map<number, AwardOutcome>();
  const firstOf = new Map<string, number>();
  const leads: Array<{ index: number; award: AwardRequest }> = [];
  awards.forEach((award, index) => {
    if (firstOf.has(award.intentKey)) return;
    firstOf.set(award.intentKey, index);
    leads.push({ index, award });
  });
  // One context for every run: a run restamped after the profile's last change (settleRun)
  // leaves the next run stamped after it too.
  const runContext = { ...context, dayTotals: new Map<string, number>() };
  let stopped = false;
  for (const run of transactionsOf(
    leads.map((lead) => ({ ...lead.award, lead })),
    now,
    deps.dailyCap,
  )) {
    // In order, a later transaction waits for whatever an earlier one left unsettled.
    const settled: AwardOutcome[] = stopped
      ? run.map((): AwardOutcome => ({ outcome: "held", attempts: 0 }))
      : await settleRun(deps, run, runContext, deadline);
    run.forEach((item, at) => {
      outcomes.set(item.lead.index, settled[at] as AwardOutcome);
    });
    stopped = inOrder && settled.some((outcome) => UNSETTLED.has(outcome.outcome));
  }
  return awards.map((award, index) => {
    const first = firstOf.get(award.intentKey) as number;
    const outcome = outcomes.get(first) as AwardOutcome;
    return first === index
      ? withoutGuardUnits(outcome)
      : withoutGuardUnits(copyOutcome(outcome, awards[first] as AwardRequest, award));
  });
}

export interface AwardOptions {
  /**
   * FIFO (docs/awards.md#one-transaction-per-user): no award is written after an earlier
   * one of the list that may still end `failed` — a rejected one (its park can fail) or a
   * failed one. Those later awards answer `held`, unwritten.
   */
  inOrder?: boolean | undefined;
  /** The guards' `:now` (epoch ms) when the caller sends a run's held awards: one `awardedAt` for them all. */
  now?: number | undefined;
}

/** Outcomes that may still end `failed` (a rejected award's park can fail): in order, nothing after them is written. */
const UNSETTLED = new Set<AwardOutcome["outcome"]>(["rejected", "failed", "held"]);

/** An outcome as the caller sees it: the guard's units are for copyOutcome alone. */
function withoutGuardUnits(outcome: AwardOutcome): AwardOutcome {
  if (outcome.outcome !== "duplicate" || outcome.guardUnits === undefined) return outcome;
  const { guardUnits: _, ...rest } = outcome;
  return rest;
}

/** A later copy of an intent in the same batch: never paid itself. */
function copyOutcome(first: AwardOutcome, paid: AwardRequest, copy: AwardRequest): AwardOutcome {
  if (first.outcome === "awarded" || first.outcome === "capped")
    return {
      outcome: "duplicate",
      attempts: 0,
      note: "a copy of an intent paid earlier in this batch",
      ...otherUnits(paid.units === undefined ? undefined : { units: paid.units }, copy),
    };
  // The first copy met a guard already there: a copy is compared with what that guard paid for
  // (nothing, when it records no units: a type paid per unit only since).
  if (first.outcome === "duplicate") {
    const { paidUnits: _, ...rest } = first;
    const guard = first.guardUnits === undefined ? undefined : { units: first.guardUnits };
    return { ...rest, attempts: 0, ...otherUnits(guard, copy) };
  }
  return { ...first, attempts: 0 };
}

/**
 * What another byte-identical try may change: a cancellation that is not an item-level
 * answer (a conflict, throttling — even beside a failed condition), or a transient error.
 */
function isRetried(error: unknown): boolean {
  if (cancellationReasons(error)) return !isItemLevelCancellation(error);
  return classifyError(error) === "transient";
}

type Sent =
  | { ok: true; attempts: number; unknownFate: boolean }
  | { ok: false; attempts: number; unknownFate: boolean; error: unknown };

/** One transaction, retried byte-identical on transient failures within the deadline. */
async function send(
  deps: AwardDeps,
  input: ReturnType<typeof planAwardTransaction>["input"],
  deadline: Deadline,
): Promise<Sent> {
  const request = { ...input, ClientRequestToken: randomUUID() };
  let attempts = 0;
  let unknownFate = false;
  try {
    await retry(
      async (attempt) => {
        attempts = attempt;
        try {
          await deps.client.send(new TransactWriteCommand(request), {
            abortSignal: signalFor(deadline, deps.clock()),
          });
        } catch (error) {
          if (isUnknownOutcome(error)) unknownFate = true;
          throw error;
        }
      },
      {
        ...deps.retry,
        shouldRetry: isRetried,
        deadline,
        clock: deps.clock,
      },
    );
    return { ok: true, attempts, unknownFate };
  } catch (error) {
    return {
      ok: false,
      attempts,
      unknownFate,
      error: error instanceof RetriesExhaustedError ? error.cause : error,
    };
  }
}

const plain = (item: Record<string, unknown>) => unmarshall(item as Record<string, AttributeValue>);

/** One run of distinct intents that fits a transaction, to one outcome each. */
async function settleRun(
  deps: AwardDeps,
  run: readonly AwardRequest[],
  context: AwardPlanContext & { dayTotals: Map<string, number>; inOrder: boolean },
  deadline: Deadline,
): Promise<AwardOutcome[]> {
  const outcomes: Array<AwardOutcome | undefined> = run.map(() => undefined);
  const attempts = run.map(() => 0);
  let pending = run.map((_, index) => index);
  for (let transactions = 0; pending.length > 0; transactions++) {
    const nowIso = context.now.toISOString();
    const awards = pending.map((index) => run[index] as AwardRequest);
    if (transactions === MAX_TRANSACTIONS_PER_RUN || deps.clock() >= deadline) {
      const why =
        transactions === MAX_TRANSACTIONS_PER_RUN
          ? `cancelled ${transactions} times in a row by conditions that kept changing`
          : "the invocation's deadline came before its transaction could be sent";
      for (const index of pending)
        outcomes[index] = failed(attempts[index] as number, "transient", new Error(why), false);
      break;
    }
    const transaction = planAwardTransaction(awards, context);
    const sent = await send(deps, transaction.input, deadline);
    for (const index of pending) attempts[index] = (attempts[index] as number) + sent.attempts;
    if (sent.ok) {
      pending.forEach((index, at) => {
        const xp = transaction.paid[at] as number;
        const note = sent.unknownFate ? { note: LOST_ANSWER_TOKEN } : {};
        outcomes[index] = paidOutcome(xp, awards[at] as AwardRequest, attempts[index] as number, note);
      });
      for (const item of transaction.items)
        if (item.kind === "day")
          context.dayTotals.set(item.day, (context.dayTotals.get(item.day) ?? 0) + item.paid);
      // The profile now holds this instant: the user's next transaction is stamped after it.
      context.now = new Date(context.now.getTime() + 1);
      break;
    }
    if (!isItemLevelCancellation(sent.error)) {
      const kind = classifyError(sent.error) === "configuration" ? "configuration" : "transient";
      for (const index of pending)
        outcomes[index] = failed(attempts[index] as number, kind, sent.error, sent.unknownFate);
      break;
    }
    // Stryker disable next-line ArrayDeclaration: an item-level cancellation always has its reasons
    const reasons = cancellationReasons(sent.error) ?? [];
    const reading = readCancellation(transaction, reasons, awards, context, plain);
    for (const [day, total] of reading.dayTotals) context.dayTotals.set(day, total);
    pending.forEach((index, at) => {
      const verdict = reading.awards[at] as AwardVerdict;
      const award = run[index] as AwardRequest;
      const tries = attempts[index] as number;
      if (verdict.kind === "paid_before")
        outcomes[index] = paidBefore(verdict.guard, award, nowIso, tries, transaction.paid[at] as number);
      else if (verdict.kind === "refused")
        outcomes[index] = {
          outcome: "rejected",
          attempts: tries,
          refused: verdict.items,
          cause: sent.error,
        };
    });
    const next = againInOrder(reading.awards, context.inOrder);
    for (const at of next.held) {
      const index = pending[at] as number;
      outcomes[index] = { outcome: "held", attempts: attempts[index] as number };
    }
    const again = next.again.map((at) => pending[at] as number);
    // Stamped at or before the profile's last change: what goes again is stamped after it —
    // unless that is further past the clock than a stamp may go (a profile stamped ahead).
    if (reading.stampedBefore) {
      const clock = deps.clock();
      const next = restamped(context.now, clock, reading.stampedBefore.updatedAt);
      if (next === undefined) {
        const said = stampProblem(reading.stampedBefore.updatedAt, clock) ?? "its updatedAt is too far ahead";
        for (const index of again)
          outcomes[index] = {
            outcome: "rejected",
            attempts: attempts[index] as number,
            refused: [{ item: { kind: "profile" }, said }],
            cause: sent.error,
          };
        break;
      }
      context.now = next;
    }
    if (reading.unreadDays.length > 0 && again.length === pending.length) {
      // The cap's condition failed and the endpoint did not say the day's total: nothing to go on.
      const why = new Error(
        `the daily cap's condition failed for ${reading.unreadDays.join(", ")} and the cancellation did not return the day's total (ALL_OLD)`,
      );
      for (const index of again) outcomes[index] = failed(attempts[index] as number, "transient", why, false);
      break;
    }
    pending = again;
  }
  return outcomes as AwardOutcome[];
}

function failed(
  attempts: number,
  kind: "transient" | "configuration",
  cause: unknown,
  mayHaveCommitted: boolean,
): AwardOutcome {
  return { outcome: "failed", kind, attempts, cause, mayHaveCommitted };
}

/**
 * What paying `xp` for `award` is: `capped` only when the daily cap cut it (less than the rule
 * gave); a rule that pays 0 is `awarded` 0 XP, and announced (docs/rules.md). Pure.
 */
export function paidOutcome(
  xp: number,
  award: Pick<AwardRequest, "amount">,
  attempts: number,
  note: { note?: string },
): AwardOutcome {
  return xp > 0 || award.amount === 0
    ? { outcome: "awarded", xp, attempts, ...note }
    : { outcome: "capped", attempts, ...note };
}

/** A per-unit copy paid for other units than the guard records (counted, never paid). */
function otherUnits(guard: Record<string, unknown> | undefined, award: AwardRequest): { paidUnits?: number } {
  const units = guard?.units;
  return award.units !== undefined && typeof units === "number" && units !== award.units
    ? { paidUnits: units }
    : {};
}

/**
 * A guard already there: another delivery's award, unless it holds this record's message id
 * and this attempt's `awardedAt` — then an earlier attempt of ours committed and its answer
 * was lost (where an endpoint does not honour the token), and the award is ours, at what
 * that guard paid (its `amount`, what the cap let it pay).
 */
function paidBefore(
  guard: Record<string, unknown> | undefined,
  award: AwardRequest,
  nowIso: string,
  attempts: number,
  /** What the transaction just cancelled planned to pay: only for a guard that does not say. */
  planned: number,
): AwardOutcome {
  if (award.messageId === undefined || guard?.messageId !== award.messageId) {
    return {
      outcome: "duplicate",
      attempts,
      ...otherUnits(guard, award),
      ...(typeof guard?.units === "number" ? { guardUnits: guard.units } : {}),
    };
  }
  if (guard.awardedAt === nowIso) {
    // Not `planned`: the same message at the same instant (a pinned clock, a second delivery in
    // the same millisecond) plans afresh, without the day's total the guard's writer knew.
    const paid = typeof guard.amount === "number" ? guard.amount : planned;
    return paidOutcome(paid, award, attempts, { note: LOST_ANSWER_OWN });
  }
  return {
    outcome: "duplicate",
    attempts,
    note: `already paid by an earlier delivery of this same message (at ${String(guard.awardedAt)}) whose result was lost`,
  };
}
