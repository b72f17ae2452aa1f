import { randomUUID } from "node:crypto";
import {
  campaignPay,
  checkRules,
  checkRulesChange,
  describeRulesProblems,
  intentKey,
  longestMemoryAfter,
  memoryOf,
  type RulesDocument,
} from "@rewards/core";
import { createDynamoBaseClient, createDynamoClient, createRulesSource } from "@rewards/core/aws";
import { createTable } from "@rewards/local";
import { publishRules } from "@rewards/ops";
import {
  eventBody,
  guardOf,
  lambdaContext,
  profileOf,
  rulesWith,
  sqsEvent,
  sqsRecord,
  stackTest,
} from "@rewards/testing";
import { createWorkerDeps, processBatch } from "@rewards/worker";
import fc from "fast-check";
import { describe, expect } from "vitest";

/**
 * Paid once, by the version that paid (docs/rules.md#at-run-time), as a property through the
 * worker with its real deps against the local stack: random versions — each built by edits that
 * keep keys, key kinds and memory legal, and each passing `checkRules` and `checkRulesChange` —
 * published between random deliveries of a random stream (copies of intents, redeliveries of one
 * SQS message, replays of earlier bodies), the worker's rules source on a test clock advanced
 * across refresh periods. No intent pays twice (one guard, one `awarded`; the profile's XP the
 * sum of the guards' amounts, its awards their count), and every guard's amount is what its
 * recorded `rulesVersion`, `campaign` and `units` give under that version's document, the
 * campaign judged on the guard's event time.
 */
const it = stackTest();
const REFRESH_SECONDS = 30;
/** Version 0, the built-in rules, as checked (every default filled in). */
const BUILTIN = rulesWith();

/** The types a stream draws from: two built-ins, and two a version may add. */
const TYPES = ["article.completed", "signup.completed", "podcast.listened", "quiz.passed"] as const;
type TypeName = (typeof TYPES)[number];
const ADDABLE: Record<string, (each: number) => Record<string, unknown>> = {
  "podcast.listened": (each) => ({
    data: {
      episode: { type: "string", maxLength: 64 },
      minutes: { type: "integer", minimum: 0, maximum: 600 },
    },
    key: ["episode"],
    xp: { per: "minutes", each, max: 60 },
    memory: 30,
  }),
  "quiz.passed": (xp) => ({
    data: { quiz: { type: "string", maxLength: 64 } },
    key: ["quiz"],
    xp,
    memory: 30,
  }),
};

type Edit =
  | { kind: "xp"; type: TypeName; xp: number }
  | { kind: "addType"; type: "podcast.listened" | "quiz.passed"; value: number }
  | {
      kind: "campaign";
      types: TypeName[];
      fromS: number;
      lengthS: number;
      pay: { multiplier: number } | { bonus: number };
    }
  | { kind: "achievement"; type: TypeName; reaches: number }
  | { kind: "retire"; pick: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant("xp" as const),
    type: fc.constantFrom(...TYPES),
    xp: fc.integer({ min: 0, max: 40 }),
  }),
  fc.record({
    kind: fc.constant("addType" as const),
    type: fc.constantFrom("podcast.listened" as const, "quiz.passed" as const),
    value: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({
    kind: fc.constant("campaign" as const),
    types: fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
    fromS: fc.integer({ min: 0, max: 90 }),
    lengthS: fc.integer({ min: 5, max: 240 }),
    pay: fc.oneof(
      fc.record({ multiplier: fc.integer({ min: 2, max: 10 }) }),
      fc.record({ bonus: fc.integer({ min: 1, max: 30 }) }),
    ),
  }),
  fc.record({
    kind: fc.constant("achievement" as const),
    type: fc.constantFrom(...TYPES),
    reaches: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({ kind: fc.constant("retire" as const), pick: fc.nat() }),
);

type Delivery =
  | { kind: "new"; user: number; type: TypeName; key: number; units: number; ageS: number }
  /** The same SQS message again (same id, same body). */
  | { kind: "redeliver"; pick: number }
  /** An earlier body in a new message (a DLQ replay, a producer's resend). */
  | { kind: "replay"; pick: number };

const delivery: fc.Arbitrary<Delivery> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("new" as const),
      user: fc.integer({ min: 0, max: 1 }),
      type: fc.constantFrom(...TYPES),
      key: fc.integer({ min: 0, max: 2 }),
      units: fc.integer({ min: 0, max: 90 }),
      ageS: fc.integer({ min: 0, max: 120 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("redeliver" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("replay" as const), pick: fc.nat() }) },
);

type Step =
  | { kind: "batch"; deliveries: Delivery[]; advanceS: number }
  | { kind: "publish"; edits: Edit[]; advanceS: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("batch" as const),
      deliveries: fc.array(delivery, { minLength: 1, maxLength: 6 }),
      advanceS: fc.integer({ min: 0, max: 70 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("publish" as const),
      edits: fc.array(edit, { minLength: 1, maxLength: 3 }),
      advanceS: fc.integer({ min: 0, max: 70 }),
    }),
  },
);

type Editable = {
  format: number;
  types: Record<string, Record<string, unknown>>;
  campaigns: Array<Record<string, unknown>>;
  achievements: Array<Record<string, unknown>>;
};

/** The next version's document: `edits` applied to `current`'s copy, each only where it stays legal. */
function nextDocument(current: RulesDocument, edits: Edit[], now: number, ids: { n: number }): unknown {
  const next = structuredClone(current) as unknown as Editable;
  for (const change of edits) {
    switch (change.kind) {
      case "xp": {
        const rule = next.types[change.type];
        if (rule !== undefined && typeof rule.xp === "number") rule.xp = change.xp;
        break;
      }
      case "addType":
        next.types[change.type] ??= ADDABLE[change.type]?.(
          change.type === "podcast.listened" ? change.value + 1 : change.value * 10,
        ) as Record<string, unknown>;
        break;
      case "campaign": {
        const types = change.types.filter((type) => next.types[type] !== undefined);
        if (types.length === 0) break;
        const from = now + change.fromS * 1000; // never before the publish
        next.campaigns.push({
          id: `c${ids.n++}`,
          title: "A campaign",
          types,
          from: new Date(from).toISOString(),
          to: new Date(from + change.lengthS * 1000).toISOString(),
          ...change.pay,
        });
        break;
      }
      case "achievement":
        if (next.types[change.type] !== undefined)
          next.achievements.push({
            id: `a${ids.n++}`,
            title: "An achievement",
            when: { count: change.type, reaches: change.reaches },
          });
        break;
      case "retire": {
        const own = next.achievements.filter((a) => String(a.id).startsWith("a") && a.retired !== true);
        const chosen = own[change.pick % Math.max(1, own.length)];
        if (chosen !== undefined) chosen.retired = true;
        break;
      }
    }
  }
  return next;
}

/** A delivery's data: the type's key field(s), and minutes for the per-unit type. */
function dataOf(type: TypeName, userId: string, key: number, units: number): Record<string, unknown> {
  switch (type) {
    case "article.completed":
      return { userId, articleSlug: `s${key}` };
    case "signup.completed":
      return { userId };
    case "podcast.listened":
      return { userId, episode: `e${key}`, minutes: units };
    case "quiz.passed":
      return { userId, quiz: `q${key}` };
  }
}
const keyPartsOf = (type: TypeName, userId: string, key: number): string[] =>
  type === "signup.completed"
    ? [userId, type]
    : [
        userId,
        type === "article.completed" ? `s${key}` : type === "podcast.listened" ? `e${key}` : `q${key}`,
        type,
      ];

describe("a site's rules, published between deliveries, pay each intent once and by the version that paid it", () => {
  it("over random versions and streams", { timeout: 120_000 }, async ({ env }) => {
    const base = createDynamoBaseClient(env);
    const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
    let published = 0;
    let delivered = 0;
    const paid = { underAVersion: 0, byACampaign: 0, perUnit: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 12 }), async (steps) => {
          const tableName = `rules-prop-${randomUUID().slice(0, 8)}`;
          await createTable(base, tableName);
          let now = Date.now();
          const deps = {
            ...createWorkerDeps({ ...env, TABLE_NAME: tableName, LOG_LEVEL: "silent" }),
            clock: () => now,
            emitMetrics: () => {},
          };
          deps.rules = createRulesSource({
            dynamo: deps.dynamo,
            tableName,
            refreshSeconds: REFRESH_SECONDS,
            clock: () => now,
          });
          const documents = new Map<number, RulesDocument>([[0, BUILTIN]]);
          let version = 0;
          let longest = memoryOf(BUILTIN);
          const ids = { n: 0 };
          const users = [`p${randomUUID().slice(0, 6)}-0`, `p${randomUUID().slice(0, 6)}-1`];
          const sent: Array<{
            body: string;
            messageId: string;
            intent: string;
            userId: string;
            units: number;
          }> = [];
          const awardedByIntent = new Map<string, number>();
          try {
            for (const s of steps) {
              if (s.kind === "publish") {
                const current = documents.get(version) as RulesDocument;
                const checked = checkRules(nextDocument(current, s.edits, now, ids));
                if (!checked.ok) throw new Error(describeRulesProblems(checked.problems));
                const change = checkRulesChange(checked.document, { current, longestMemory: longest, now });
                expect(change.problems).toEqual([]);
                const result = await publishRules(dynamo, tableName, checked.document, { now });
                if (result.kind === "published") {
                  version = result.version;
                  documents.set(version, checked.document);
                  longest = longestMemoryAfter(longest, checked.document);
                  published++;
                } else expect(result.kind).toBe("unchanged");
              } else {
                // One SQS message at most once a batch (the same id twice in one batch: see the test below).
                const inBatch = new Set<string>();
                const records = s.deliveries.flatMap((d) => {
                  if (d.kind === "new") {
                    const userId = users[d.user] as string;
                    const body = eventBody(d.type, dataOf(d.type, userId, d.key, d.units), {
                      time: new Date(now - d.ageS * 1000).toISOString(),
                    });
                    const entry = {
                      body,
                      messageId: randomUUID(),
                      intent: intentKey(keyPartsOf(d.type, userId, d.key)),
                      userId,
                      units: d.units,
                    };
                    sent.push(entry);
                    inBatch.add(entry.messageId);
                    return [entry];
                  }
                  const earlier = sent[d.pick % Math.max(1, sent.length)];
                  if (earlier === undefined) return [];
                  if (d.kind === "replay") return [{ ...earlier, messageId: randomUUID() }];
                  if (inBatch.has(earlier.messageId)) return [];
                  inBatch.add(earlier.messageId);
                  return [earlier];
                });
                if (records.length > 0) {
                  delivered += records.length;
                  const { results } = await processBatch(
                    deps,
                    sqsEvent(records.map((r) => sqsRecord(r.body, { messageId: r.messageId }))),
                    lambdaContext(),
                  );
                  results.forEach((result, i) => {
                    const intent = records[i]?.intent as string;
                    expect(["awarded", "duplicate", "parked", "failed"]).toContain(result.outcome);
                    if (result.outcome === "awarded")
                      awardedByIntent.set(intent, (awardedByIntent.get(intent) ?? 0) + 1);
                  });
                }
              }
              now += s.advanceS * 1000;
            }

            // Every intent sent: at most one award, and exactly one when its guard stands.
            const intents = new Map(sent.map((entry) => [entry.intent, entry]));
            const totals = new Map<string, { xp: number; awards: number }>();
            for (const [intent, entry] of intents) {
              const guard = await guardOf(dynamo, tableName, intent);
              expect(awardedByIntent.get(intent) ?? 0).toBe(guard === undefined ? 0 : 1);
              if (guard === undefined) continue;
              const paidBy = (guard.rulesVersion as number | undefined) ?? 0;
              const document = documents.get(paidBy);
              expect(document, `guard of ${intent} names version ${paidBy}`).toBeDefined();
              const type = guard.type as string;
              const rule = document?.types[type];
              expect(rule, `${type} in version ${paidBy}`).toBeDefined();
              if (document === undefined || rule === undefined) continue;
              let baseXp: number;
              if (typeof rule.xp === "number") {
                expect(guard.units).toBeUndefined();
                baseXp = rule.xp;
              } else {
                // The committing copy's units: one of the copies sent.
                const copies = sent.filter((s) => s.intent === intent).map((s) => s.units);
                expect(copies).toContain(guard.units);
                baseXp = Math.min(rule.xp.max, rule.xp.each * (guard.units as number));
              }
              const pay = campaignPay(
                document.campaigns,
                type,
                Date.parse(guard.eventTime as string),
                baseXp,
              );
              expect({ intent, amount: guard.amount, campaign: guard.campaign }).toEqual({
                intent,
                amount: pay.xp,
                campaign: pay.campaign,
              });
              if (paidBy > 0) paid.underAVersion++;
              if (pay.campaign !== undefined) paid.byACampaign++;
              if (guard.units !== undefined) paid.perUnit++;
              const total = totals.get(entry.userId) ?? { xp: 0, awards: 0 };
              totals.set(entry.userId, { xp: total.xp + (guard.amount as number), awards: total.awards + 1 });
            }
            for (const userId of users) {
              const profile = await profileOf(dynamo, tableName, userId);
              const want = totals.get(userId);
              if (want === undefined) expect(profile?.awards ?? 0).toBe(0);
              else expect({ xp: profile?.xp, awards: profile?.awards }).toEqual(want);
            }
          } finally {
            deps.dynamo.destroy();
            deps.sqs.destroy();
          }
        }),
        { numRuns: 40 },
      );
    } finally {
      base.destroy();
      dynamo.destroy();
    }
    // The runs did publish and deliver (a property that never published would prove nothing).
    expect(published).toBeGreaterThan(10);
    expect(delivered).toBeGreaterThan(100);
    expect(paid.underAVersion).toBeGreaterThan(5);
    expect(paid.byACampaign).toBeGreaterThan(0);
    expect(paid.perUnit).toBeGreaterThan(0);
  });

  /**
   * Found by the property above: a batch holding one SQS message twice (same id; SQS's
   * at-least-once delivery allows it) pays once, and each record reports its own outcome
   * (runBatch pairs results with their records, not their message ids).
   */
  it("one message twice in a batch: the record that paid is reported awarded", async ({ env }) => {
    const base = createDynamoBaseClient(env);
    const tableName = `rules-prop-${randomUUID().slice(0, 8)}`;
    await createTable(base, tableName);
    base.destroy();
    const deps = {
      ...createWorkerDeps({ ...env, TABLE_NAME: tableName, LOG_LEVEL: "silent" }),
      emitMetrics: () => {},
    };
    try {
      const body = eventBody("article.completed", { userId: `twice-${randomUUID()}`, articleSlug: "a" });
      const messageId = randomUUID();
      const { results } = await processBatch(
        deps,
        sqsEvent([sqsRecord(body, { messageId }), sqsRecord(body, { messageId })]),
        lambdaContext(),
      );
      expect(results.map((result) => result.outcome)).toEqual(["awarded", "duplicate"]);
    } finally {
      deps.dynamo.destroy();
      deps.sqs.destroy();
    }
  });
});
