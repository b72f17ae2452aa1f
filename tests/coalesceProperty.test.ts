import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { profileKey, rules } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import {
  eventBody,
  lambdaContext,
  profileOf,
  recordAttempts,
  sqsEvent,
  sqsRecord,
  stackTest,
  throttled,
} from "@rewards/testing";
import { createWorkerDeps, type Outcome, processBatch } from "@rewards/worker";
import fc from "fast-check";
import { describe, expect } from "vitest";

/**
 * SPEC §5a and §3a as a property, through the handler against the local stack: over random
 * batches — users, repeats, in-batch copies, intents paid before, a poisoned profile,
 * injected throttling and lost answers, with and without a cap — every record gets exactly
 * the outcome the one-at-a-time worker gives it, and every user exactly its XP.
 */
const it = stackTest();
let run = 0;

type Kind = "article.completed" | "article.shared" | "signup.completed";
interface Spec {
  user: number;
  kind: Kind;
  slug: number;
}
const recordSpec = fc.record({
  user: fc.integer({ min: 0, max: 2 }),
  kind: fc.constantFrom<Kind>("article.completed", "article.completed", "article.shared", "signup.completed"),
  slug: fc.integer({ min: 0, max: 3 }),
});
const scenario = fc.record({
  before: fc.array(recordSpec, { maxLength: 4 }),
  batch: fc.array(recordSpec, { minLength: 1, maxLength: 12 }),
  poisoned: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  cap: fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }),
  faults: fc.array(fc.constantFrom("pass", "pass", "throttle", "drop"), { maxLength: 12 }),
});

const intentOf = (spec: Spec) =>
  spec.kind === "signup.completed" ? `${spec.user}#signup` : `${spec.user}#${spec.kind}#${spec.slug}`;

/** The one-at-a-time worker: each record in input order against what came before. */
function reference(
  records: Spec[],
  paid: Set<string>,
  totals: Map<number, number>,
  poisoned?: number,
  cap?: number,
) {
  return records.map((spec): Outcome => {
    const intent = intentOf(spec);
    // The guard's condition is met before the profile is refused: a paid intent stays a duplicate.
    if (paid.has(intent)) return "duplicate";
    if (spec.user === poisoned) return "parked";
    paid.add(intent);
    const xp = rules[spec.kind].xp;
    if (cap === undefined || !rules[spec.kind].dailyCapped) {
      totals.set(-1 - spec.user, (totals.get(-1 - spec.user) ?? 0) + xp);
      return "awarded";
    }
    const day = totals.get(spec.user) ?? 0;
    const pays = Math.max(0, Math.min(xp, cap - day));
    totals.set(spec.user, day + pays);
    totals.set(-1 - spec.user, (totals.get(-1 - spec.user) ?? 0) + pays);
    return pays > 0 ? "awarded" : "capped";
  });
}

describe("coalesced awards equal one-at-a-time awards", () => {
  it("over random batches, with faults, with and without a cap", { timeout: 240_000 }, async ({ env }) => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ before, batch, poisoned, cap, faults }) => {
        const tag = `prop${++run}`;
        const userId = (n: number) => `${tag}-u${n}`;
        const bodyOf = (spec: Spec) => {
          const data: Record<string, string> = { userId: userId(spec.user), articleSlug: `s${spec.slug}` };
          if (spec.kind === "article.shared") data.channel = "c";
          return eventBody(spec.kind, data);
        };
        const deps = {
          ...createWorkerDeps({
            ...env,
            LOG_LEVEL: "silent",
            ...(cap === undefined ? {} : { REWARDS_DAILY_XP_CAP: String(cap) }),
          }),
          emitMetrics: () => {},
          retryPolicy: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 5000 },
        };
        const reader = createDynamoClient({ AWS_REGION: "us-east-1", ...env });
        const paid = new Set<string>();
        const totals = new Map<number, number>();
        const process = (specs: Spec[]) =>
          processBatch(deps, sqsEvent(specs.map((spec) => sqsRecord(bodyOf(spec)))), lambdaContext());
        if (before.length > 0) {
          const first = await process(before);
          expect(first.results.map((r) => r.outcome)).toEqual(
            reference(before, paid, totals, undefined, cap),
          );
        }
        if (poisoned !== undefined) {
          await reader.send(
            new PutCommand({
              TableName: deps.tableName,
              Item: { ...profileKey(userId(poisoned)), xp: "lots", awards: 0 },
            }),
          );
        }
        // A fault is never followed by another, so the retries always get through.
        let lastFaulted = false;
        let transaction = 0;
        recordAttempts(deps.dynamo, (attempt) => {
          if (attempt.command !== "TransactWriteItemsCommand") return { kind: "pass" };
          const fault = lastFaulted ? "pass" : (faults[transaction++] ?? "pass");
          lastFaulted = fault !== "pass";
          if (fault === "throttle") return { kind: "fail", error: throttled };
          return { kind: fault === "drop" ? "drop" : "pass" };
        });
        const second = await process(batch);
        const expected = reference(batch, paid, totals, poisoned, cap);
        expect(second.results.map((r) => r.outcome)).toEqual(expected);
        for (const user of [0, 1, 2]) {
          if (user === poisoned) continue;
          const profile = await profileOf(reader, deps.tableName, userId(user));
          expect(profile?.xp ?? 0).toBe(totals.get(-1 - user) ?? 0);
        }
        reader.destroy();
      }),
      { numRuns: 30 },
    );
  });
});
