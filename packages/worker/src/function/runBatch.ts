import { callField, invocationDeadline, NoGoodRulesError, remainingMsOf } from "@rewards/core/aws";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import pLimit from "p-limit";
import { decodeBatch } from "./decodeBatch";
import { type MessageResult, OUTCOMES, type Outcome } from "./outcome";
import { type Group, planGroups, type WorkItem } from "./planGroups";
import { planSegments } from "./planSegments";
import { awardTriaged, parkTriaged, triage } from "./processMessage";
import { clockOf, type WorkerDeps } from "./workerDeps";

export interface BatchResult {
  /** One per record, in input order. */
  results: MessageResult[];
  /** Per outcome; `capped` only under a daily cap (without one it cannot happen). */
  counts: OutcomeCounts;
  /** The clock's reading when the batch started, and how long it ran. */
  startedAt: number;
  durationMs: number;
}

/**
 * A group's records: triaged, then parked one by one or awarded together (one transaction per
 * user, planSegments). FIFO: after a failure the rest of the group is `failed` too, in order.
 */
async function runGroup(
  deps: WorkerDeps,
  group: Group,
  deadline: number,
): Promise<Array<[SQSRecord, MessageResult]>> {
  const clock = clockOf(deps);
  const now = clock();
  const segments = planSegments(
    group.items.map((item) => triage(item, now)),
    group.stopOnFailure,
  );
  // Stryker disable next-line ArrayDeclaration: results are looked up by their record (inInputOrder), so a stray entry is never read
  const results: Array<[SQSRecord, MessageResult]> = [];
  let blocked = false;
  for (const segment of segments) {
    const items = segment.kind === "park" ? [segment.record.item] : segment.records.map((each) => each.item);
    const notStarted = blocked ? "fifo_blocked" : clock() >= deadline ? "deadline" : undefined;
    if (notStarted) {
      for (const item of items)
        results.push([
          item.record,
          { messageId: item.record.messageId, outcome: "failed", attempts: 0, cause: notStarted },
        ]);
      continue;
    }
    const done =
      segment.kind === "park"
        ? [await parkTriaged(deps, segment.record, deadline)]
        : await awardTriaged(deps, segment.records, deadline, group.stopOnFailure);
    // Paired with their records: SQS may hand one message over twice in a batch (one message id).
    done.forEach((result, at) => {
      results.push([(items[at] as WorkItem).record, result]);
    });
    blocked = group.stopOnFailure && done.some((result) => result.outcome === "failed");
  }
  return results;
}

/**
 * Groups finish in any order; results go back in the order the records came, each its own
 * record's (by the record, not its message id: one message delivered twice in a batch has one id).
 */
function inInputOrder(
  records: readonly SQSRecord[],
  results: ReadonlyArray<[SQSRecord, MessageResult]>,
): MessageResult[] {
  const byRecord = new Map(results);
  return records.map((record) => byRecord.get(record) as MessageResult);
}

/**
 * Per outcome, and what the rules did when it was not nothing (docs/rules.md#at-run-time):
 * `rulesRejected`, reads of `CURRENT` refused or failed; `noRules`, records failed for want of
 * a version; `unitsDiffer`, per-unit copies with other units than the paid one.
 */
export type OutcomeCounts = Record<Exclude<Outcome, "capped">, number> & {
  capped?: number;
  rulesRejected?: number;
  noRules?: number;
  unitsDiffer?: number;
};

function countOutcomes(
  results: readonly MessageResult[],
  capped: boolean,
  rulesRejected: number,
): OutcomeCounts {
  const names = OUTCOMES.filter((outcome) => capped || outcome !== "capped");
  const counts: OutcomeCounts = Object.fromEntries(names.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const result of results) (counts as Record<Outcome, number>)[result.outcome]++;
  const noRules = results.filter((result) => result.cause === "no_rules").length;
  const unitsDiffer = results.filter((result) => result.paidUnits !== undefined).length;
  if (rulesRejected > 0) counts.rulesRejected = rulesRejected;
  if (noRules > 0) counts.noRules = noRules;
  if (unitsDiffer > 0) counts.unitsDiffer = unitsDiffer;
  return counts;
}

/**
 * Runs a batch: decode, plan groups, run them with bounded concurrency under one deadline
 * (the invocation's end less a safety margin, in whole ms) that bounds every AWS call. It
 * never throws: if something unforeseen breaks the batch itself, every message is `failed`
 * (redelivered), never dropped.
 */
export async function runBatch(
  deps: WorkerDeps,
  event: SQSEvent,
  context?: Partial<Context>,
): Promise<BatchResult> {
  const clock = clockOf(deps);
  const startedAt = clock();
  const records = event.Records ?? [];
  const deadline = invocationDeadline(startedAt, remainingMsOf(context), deps.safetyMarginMs);
  let results: MessageResult[];
  try {
    const limit = pLimit(deps.concurrency);
    const items = await decodeBatch(deps.rules, records);
    const grouped = await Promise.all(
      planGroups(items).map((group) => limit(() => runGroup(deps, group, deadline))),
    );
    results = inInputOrder(records, grouped.flat());
  } catch (error) {
    if (error instanceof NoGoodRulesError) {
      // Never judged under version 0 by default: redelivered until a good version is in force.
      deps.logger.error(
        { err: error },
        "no version of the rules to judge by; every message will be redelivered",
      );
      results = records.map((record) => ({
        messageId: record.messageId,
        outcome: "failed",
        attempts: 0,
        cause: "no_rules",
        detail: error.message,
        // The read that failed, when one did (a missing table, access refused): its call, as fields.
        ...callField(error.cause instanceof NoGoodRulesError ? undefined : error.cause),
      }));
      return finished(deps, results, startedAt);
    }
    deps.logger.error(
      { err: error, ...callField(error) },
      "batch failed unexpectedly; every message will be redelivered",
    );
    results = records.map((record) => ({
      messageId: record.messageId,
      outcome: "failed",
      attempts: 0,
      cause: "unexpected",
    }));
  }
  return finished(deps, results, startedAt);
}

function finished(deps: WorkerDeps, results: MessageResult[], startedAt: number): BatchResult {
  return {
    results,
    counts: countOutcomes(results, deps.dailyCap !== undefined, deps.rules?.takeRejected() ?? 0),
    startedAt,
    durationMs: clockOf(deps)() - startedAt,
  };
}
