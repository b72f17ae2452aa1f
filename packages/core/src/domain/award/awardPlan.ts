import type { TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { LONGEST_CAPPED_MEMORY_SECONDS } from "../rules/rules";
import { countAttribute, dayTotalKey, guardKey, profileKey } from "../table/tableLayout";
import type { Award } from "./award";
import { countsTowardCap, paidUnderCap } from "./dailyCap";

/** One award as the worker asks for it: what the rules decided, and where it came from. */
export interface AwardRequest extends Award {
  /** The SQS message id, stored on the guard (and how a lost answer is recognised). */
  messageId?: string | undefined;
  /** The UTC day (`YYYY-MM-DD`) of the event's time: the day it counts toward under a daily cap. */
  earnedOn?: string | undefined;
  /**
   * The event's time (docs/events.md#event-time; ISO): the instant `earnedOn` is the UTC day
   * of. Stored on the guard for the history.
   */
  eventTime?: string | undefined;
}

export interface AwardPlanContext {
  tableName: string;
  /** One instant for the transaction: every guard's `awardedAt`, the condition's `:now`. */
  now: Date;
  /** XP one user may earn per UTC day (REWARDS_DAILY_XP_CAP); undefined: no cap. */
  dailyCap?: number | undefined;
  /** What the worker believes each day's total already is (0 when it has not been told). */
  dayTotals?: ReadonlyMap<string, number> | undefined;
}

/** What item i of a transaction is: reasons of a cancellation come back in the same order. */
export type PlannedItem =
  | { kind: "guard"; award: number }
  | { kind: "profile" }
  | { kind: "day"; day: string; paid: number };

export interface AwardTransaction {
  /** The TransactWriteItems request, without its ClientRequestToken. */
  input: TransactWriteCommandInput;
  items: PlannedItem[];
  /** XP each award pays if the transaction commits, in the order given. */
  paid: number[];
}

/** DynamoDB's limit on the items of one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

const GUARD_CONDITION = "attribute_not_exists(pk) OR expiresAt < :now";
/**
 * A reader's commits carry increasing instants (docs/reading.md#when-exactly): a transaction
 * stamped at or before the profile's last change (another worker's clock ran ahead, or its
 * transaction was stamped later and committed first) is cancelled and sent again stamped after
 * it. So no award can commit stamped before one the history's writer has already read, and the
 * timeline the guards record is the order the profile changed in. Revocations hold to it too.
 */
export const PROFILE_STAMP_CONDITION = "attribute_not_exists(updatedAt) OR updatedAt < :now";
/** The profile's update, less its values `:xp`, `:awards` and `:now` (profileUpdate). */
export interface ProfileUpdate {
  UpdateExpression: string;
  /** `#count<i>` → `countAttribute(type)`; absent when no type is counted (DynamoDB refuses an empty map). */
  ExpressionAttributeNames?: Record<string, string>;
  /** `:count<i>` → the number of awards of that type. */
  countValues: Record<string, number>;
}

/**
 * One user's profile, once per transaction (docs/awards.md#one-transaction-per-user): ADD the
 * sum of its awards' XP (`:xp`) and their number (`:awards`), and, per event type in
 * `counts` (in its order), that type's number of awards to its count attribute
 * (`countAttribute`, a name with `:` and `.` in it, so through `#count<i>`); SET updatedAt.
 * Pure.
 */
export function profileUpdate(counts: ReadonlyMap<string, number>): ProfileUpdate {
  const types = [...counts.keys()];
  const adds = types.map((_, i) => `, #count${i} :count${i}`).join("");
  return {
    UpdateExpression: `ADD xp :xp, awards :awards${adds} SET updatedAt = :now`,
    ...(types.length === 0
      ? {}
      : {
          ExpressionAttributeNames: Object.fromEntries(
            types.map((type, i) => [`#count${i}`, countAttribute(type)]),
          ),
        }),
    countValues: Object.fromEntries(types.map((type, i) => [`:count${i}`, counts.get(type) as number])),
  };
}

/** How many of `awards` are of each event type, in the order the types first appear. Pure. */
export function countsByType(awards: readonly Pick<AwardRequest, "type">[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { type } of awards) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

const DAY_UPDATE = "ADD xp :xp SET expiresAt = :expiresAt";
/** The cap, in the same transaction: the day's total plus what is paid stays at most the cap. */
const DAY_CONDITION = "attribute_not_exists(xp) OR xp <= :room";

const DAY_SECONDS = 86_400;
const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The day an award counts toward under `dailyCap`, or undefined when the cap does not apply to it. */
export function cappedDay(award: AwardRequest, now: Date, dailyCap: number | undefined): string | undefined {
  if (dailyCap === undefined || !(award.capped ?? countsTowardCap(award.type))) return undefined;
  return award.earnedOn ?? now.toISOString().slice(0, 10);
}

/**
 * What each award pays, in the order given: its rule's XP, cut to what is left of its day's
 * cap after the day's known total and the awards before it (possibly 0). Pure.
 */
export function payable(
  awards: readonly AwardRequest[],
  context: Pick<AwardPlanContext, "now" | "dailyCap" | "dayTotals">,
): number[] {
  const totals = new Map(context.dayTotals);
  return awards.map((award) => {
    const day = cappedDay(award, context.now, context.dailyCap);
    if (day === undefined || context.dailyCap === undefined) return award.amount;
    const before = totals.get(day) ?? 0;
    const paid = paidUnderCap(award.amount, before, context.dailyCap);
    totals.set(day, before + paid);
    return paid;
  });
}

/** When a day's total may be forgotten: the end of the day plus the longest memory of a capped rule. */
export function dayTotalExpiresAt(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000 + DAY_SECONDS + LONGEST_CAPPED_MEMORY_SECONDS;
}

function guardItem(
  award: AwardRequest,
  paid: number,
  context: AwardPlanContext,
  seq: number | undefined,
): Record<string, unknown> {
  const guard: Record<string, unknown> = {
    ...guardKey(award.intentKey),
    userId: award.userId,
    type: award.type,
    amount: paid,
    eventId: award.eventId,
    awardedAt: context.now.toISOString(),
    data: award.data,
    // The profile update below adds every award to its type's count.
    counted: true,
  };
  if (seq !== undefined) guard.seq = seq;
  // Under a published version, what the award implies, for every reader of the guard (docs/rules.md).
  if (award.rulesVersion !== undefined) {
    guard.rulesVersion = award.rulesVersion;
    guard.capped = award.capped ?? countsTowardCap(award.type);
    if (award.units !== undefined) guard.units = award.units;
    if (award.campaign !== undefined) guard.campaign = award.campaign;
    if (award.keepsDay !== undefined) guard.keepsDay = award.keepsDay;
  }
  if (award.eventTime !== undefined) guard.eventTime = award.eventTime;
  if (paid < award.amount) guard.requested = award.amount;
  if (award.messageId !== undefined) guard.messageId = award.messageId;
  if (award.guardTtlSeconds !== undefined)
    guard.expiresAt = epochSeconds(context.now) + award.guardTtlSeconds;
  return guard;
}

/**
 * The one transaction of one user's awards (docs/awards.md):
 * guard i is item i, each a conditional put in the order given (an expired guard still in
 * the table counts as absent, so the outcome never depends on when the TTL sweeper runs);
 * then ONE profile update with their sum, their count and their count per event type (0-XP
 * awards included); then, under a daily cap, one update per day that pays XP, conditional on
 * the cap. Every guard and condition asks for ALL_OLD, so a cancellation says who paid an
 * intent and what a day's total is, with no read.
 *
 * The awards must be of one user and of distinct intents (one item twice is a
 * ValidationException): `awardTogether` makes sure of both.
 */
export function planAwardTransaction(
  awards: readonly AwardRequest[],
  context: AwardPlanContext,
): AwardTransaction {
  const [first] = awards;
  if (!first) throw new RangeError("a transaction needs at least one award");
  const nowIso = context.now.toISOString();
  const nowEpoch = epochSeconds(context.now);
  const paid = payable(awards, context);
  const guards = awards.map((award, index) => ({
    Put: {
      TableName: context.tableName,
      // Awards of one transaction share one awardedAt: their place orders them on the timeline.
      Item: guardItem(award, paid[index] as number, context, awards.length > 1 ? index : undefined),
      ConditionExpression: GUARD_CONDITION,
      ExpressionAttributeValues: { ":now": nowEpoch },
      ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
    },
  }));
  // Every award counts toward its type, a 0-XP (capped) one too.
  const { countValues, ...update } = profileUpdate(countsByType(awards));
  const profile = {
    Update: {
      TableName: context.tableName,
      Key: profileKey(first.userId),
      ...update,
      ConditionExpression: PROFILE_STAMP_CONDITION,
      ExpressionAttributeValues: {
        ":xp": paid.reduce((sum, xp) => sum + xp, 0),
        ":awards": awards.length,
        ":now": nowIso,
        ...countValues,
      },
      ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
    },
  };
  const byDay = new Map<string, number>();
  awards.forEach((award, index) => {
    const day = cappedDay(award, context.now, context.dailyCap);
    if (day !== undefined) byDay.set(day, (byDay.get(day) ?? 0) + (paid[index] as number));
  });
  // A day that pays nothing changes nothing: leaving it out also keeps a lowered cap from
  // failing the condition of a day already past it.
  const days = [...byDay].filter(([, xp]) => xp > 0);
  const dayItems = days.map(([day, xp]) => ({
    Update: {
      TableName: context.tableName,
      Key: dayTotalKey(first.userId, day),
      UpdateExpression: DAY_UPDATE,
      ConditionExpression: DAY_CONDITION,
      ExpressionAttributeValues: {
        ":xp": xp,
        ":expiresAt": dayTotalExpiresAt(day),
        ":room": (context.dailyCap as number) - xp,
      },
      ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
    },
  }));
  return {
    input: { TransactItems: [...guards, profile, ...dayItems] },
    items: [
      ...awards.map((_, award) => ({ kind: "guard" as const, award })),
      { kind: "profile" as const },
      ...days.map(([day, xp]) => ({ kind: "day" as const, day, paid: xp })),
    ],
    paid,
  };
}

/** The most items a transaction of `awards` can need: a guard each, the profile, a day each. */
function itemsNeeded(awards: readonly AwardRequest[], now: Date, dailyCap: number | undefined): number {
  const days = new Set(awards.flatMap((award) => cappedDay(award, now, dailyCap) ?? []));
  return awards.length + 1 + days.size;
}

/**
 * Splits one user's awards, in order, into runs that each fit one transaction
 * (MAX_TRANSACTION_ITEMS, counting the profile and the day totals). Pure.
 */
export function transactionsOf<T extends AwardRequest>(
  awards: readonly T[],
  now: Date,
  dailyCap: number | undefined,
): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  for (const award of awards) {
    if (run.length > 0 && itemsNeeded([...run, award], now, dailyCap) > MAX_TRANSACTION_ITEMS) {
      runs.push(run);
      run = [];
    }
    run.push(award);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** DynamoDB's reason for one item of a cancelled transaction (an entry of its CancellationReasons). */
export interface CancellationReason {
  Code?: string | undefined;
  Message?: string | undefined;
  Item?: Record<string, unknown> | undefined;
}

/** An item of an award's transaction that DynamoDB can refuse. */
export type RefusedItem = { kind: "guard" } | { kind: "profile" } | { kind: "day"; day: string };

/** One refused item, with what DynamoDB said of it. */
export interface Refusal {
  item: RefusedItem;
  said: string;
}

/** What a cancellation says of one award of the transaction. */
export type AwardVerdict =
  /** Its guard was already there: paid before (by another delivery, or by this very record whose answer was lost). */
  | { kind: "paid_before"; guard: Record<string, unknown> | undefined }
  /** An item it needs was refused for good (its guard, the profile, its day total). */
  | { kind: "refused"; items: Refusal[] }
  /** Nothing was wrong with it: it goes again, in a new transaction. */
  | { kind: "again" };

export interface CancellationReading {
  /** One per award of the transaction, in its order. */
  awards: AwardVerdict[];
  /** Days whose total the cap's condition refused, with the total the cancellation returned. */
  dayTotals: Map<string, number>;
  /** A day's condition failed without its total (an endpoint that ignores ALL_OLD): nothing can be learned. */
  unreadDays: string[];
  /**
   * The profile's stamp condition failed (PROFILE_STAMP_CONDITION): the awards that go again
   * must be stamped after `updatedAt`, the profile's last change (absent when the endpoint
   * returned no item).
   */
  stampedBefore?: { updatedAt?: string | undefined } | undefined;
}

/** An instant as the table stores it (`toISOString`): what a stamp condition can compare. */
const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Whether `value` is an instant as the table stores it, and a real one (2026-12-99 is not). */
export function isStoredInstant(value: unknown): value is string {
  return typeof value === "string" && STORED_INSTANT.test(value) && Number.isFinite(Date.parse(value));
}

/**
 * How far past the clock a stamp may go to follow the profile's last change: the 5 minutes an
 * event's time may be ahead (docs/events.md#event-time). A profile stamped further ahead (a
 * repair from a machine whose clock ran ahead) would carry every later award, and the guards'
 * expiry judged at their stamp, into the future: its awards are refused instead, naming it.
 */
export const MAX_STAMP_AHEAD_MS = 5 * 60_000;

/**
 * Why a profile's `updatedAt` can never be stamped after (`undefined`: it can): not an instant,
 * or more than MAX_STAMP_AHEAD_MS past `clock`. Pure.
 */
export function stampProblem(updatedAt: unknown, clock: number): string | undefined {
  if (updatedAt === undefined) return undefined;
  if (!isStoredInstant(updatedAt)) return `its updatedAt is not an instant (${JSON.stringify(updatedAt)})`;
  if (Date.parse(updatedAt) > clock + MAX_STAMP_AHEAD_MS)
    return `its updatedAt ${updatedAt} is more than 5 minutes after the clock (${new Date(clock).toISOString()})`;
  return undefined;
}

const FAILED_CONDITION = "ConditionalCheckFailed";
const REFUSED = new Set(["ValidationError", "ItemCollectionSizeLimitExceeded"]);

/**
 * Reads an item-level cancellation of `transaction` item by item (reasons come in request
 * order): a guard's failed condition means that intent was paid before; a refused item
 * refuses the awards that need it (the profile: all of them; a day total: that day's); a
 * day's failed condition returns its total (ALL_OLD), so the awards that fit can go again.
 * Pure; `unmarshall` turns the returned items into plain values.
 */
export function readCancellation(
  transaction: AwardTransaction,
  reasons: readonly CancellationReason[],
  awards: readonly AwardRequest[],
  context: Pick<AwardPlanContext, "now" | "dailyCap">,
  unmarshall: (item: Record<string, unknown>) => Record<string, unknown>,
): CancellationReading {
  const verdicts: AwardVerdict[] = awards.map(() => ({ kind: "again" }));
  const refuse = (index: number, item: RefusedItem, said: string) => {
    const current = verdicts[index] as AwardVerdict;
    if (current.kind === "paid_before") return;
    verdicts[index] = {
      kind: "refused",
      items: [...(current.kind === "refused" ? current.items : []), { item, said }],
    };
  };
  const refuseDay = (day: string, said: string) => {
    awards.forEach((award, at) => {
      if (cappedDay(award, context.now, context.dailyCap) === day) refuse(at, { kind: "day", day }, said);
    });
  };
  const dayTotals = new Map<string, number>();
  const unreadDays: string[] = [];
  let stampedBefore: CancellationReading["stampedBefore"];
  transaction.items.forEach((planned, index) => {
    const reason = reasons[index];
    const code = String(reason?.Code);
    const said = reason?.Message ?? code;
    if (planned.kind === "guard") {
      if (code === FAILED_CONDITION) {
        verdicts[planned.award] = {
          kind: "paid_before",
          guard: reason?.Item ? unmarshall(reason.Item) : undefined,
        };
      } else if (REFUSED.has(code)) refuse(planned.award, { kind: "guard" }, said);
    } else if (planned.kind === "profile") {
      if (REFUSED.has(code)) for (const award of awards.keys()) refuse(award, { kind: "profile" }, said);
      else if (code === FAILED_CONDITION) {
        const updatedAt = reason?.Item ? unmarshall(reason.Item).updatedAt : undefined;
        const problem = stampProblem(updatedAt, context.now.getTime());
        // Not an instant the condition can pass, or one no stamp may follow: refused for good.
        if (problem !== undefined)
          for (const award of awards.keys()) refuse(award, { kind: "profile" }, problem);
        else stampedBefore = { updatedAt: updatedAt as string | undefined };
      }
    } else if (code === FAILED_CONDITION && !reason?.Item) {
      unreadDays.push(planned.day);
    } else if (code === FAILED_CONDITION) {
      const total = unmarshall(reason?.Item as Record<string, unknown>).xp;
      // A total that is not a number fails the cap's comparison every time: refused, as ADD would be.
      if (typeof total === "number") dayTotals.set(planned.day, total);
      else refuseDay(planned.day, `its xp is not a number (${JSON.stringify(total)})`);
    } else if (REFUSED.has(code)) {
      refuseDay(planned.day, said);
    }
  });
  return { awards: verdicts, dayTotals, unreadDays, ...(stampedBefore ? { stampedBefore } : {}) };
}

/**
 * The `updatedAt` a write off the reader's timeline (an operator's repair) leaves: the profile's
 * own when it is an instant after `now` (a reader's stamp never moves back: PROFILE_STAMP_CONDITION
 * orders their commits by it), else `now` — which also mends one that is no instant, or one more
 * than MAX_STAMP_AHEAD_MS ahead. Pure.
 */
export function keptStamp(updatedAt: unknown, now: Date): string {
  const nowIso = now.toISOString();
  return isStoredInstant(updatedAt) &&
    updatedAt > nowIso &&
    stampProblem(updatedAt, now.getTime()) === undefined
    ? updatedAt
    : nowIso;
}

/**
 * The instant to stamp a transaction with after `previous` was refused as stamped before the
 * profile's last change: the clock, but after both — or undefined when that is more than
 * MAX_STAMP_AHEAD_MS past the clock. Pure.
 */
export function restamped(
  previous: Date,
  clock: number,
  profileUpdatedAt: string | undefined,
): Date | undefined {
  const floor = Math.max(
    previous.getTime(),
    profileUpdatedAt === undefined ? 0 : Date.parse(profileUpdatedAt),
  );
  const next = Math.max(clock, floor + 1);
  return Number.isFinite(next) && next - clock <= MAX_STAMP_AHEAD_MS ? new Date(next) : undefined;
}
