import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type CompiledRules, compileRules, decodeEvent, type RulesVersion } from "@rewards/core";
import { createLogger, NoGoodRulesError, type RulesSource } from "@rewards/core/aws";
import { eventBody, lambdaContext, rulesWith, sqsEvent, sqsRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { processBatch, type WorkerDeps } from "../src";
import { decodeBatch } from "../src/function/decodeBatch";
import { triage } from "../src/function/processMessage";

/**
 * The worker's part of the rules at run time (docs/rules.md#at-run-time), pure or over stand-ins:
 * campaigns on the event's time in `triage`, the one re-read of an unknown type in
 * `decodeBatch`, and a batch with no version to judge by. The same over the local stack:
 * tests/rulesWorker.test.ts.
 */
const HOUR = 3_600_000;
const NOW = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();

/** Version `n`: the built-in rules with `change`, compiled. */
const version = (n: number, change: Parameters<typeof rulesWith>[0] = () => {}): CompiledRules =>
  compileRules(rulesWith(change), undefined, n);

const QUIZ = { data: { quiz: { type: "string", maxLength: 64 } }, key: ["quiz"], xp: 0, memory: 30 };

describe("triage: campaigns on the award's event time", () => {
  // Double XP on articles from 3 hours ago to 1 hour ago; a free quiz type under it too.
  const doubled = version(1, (rules) => {
    rules.types["quiz.passed"] = QUIZ;
    rules.campaigns.push({
      id: "double",
      title: "Double",
      types: ["article.completed", "quiz.passed"],
      from: iso(NOW - 3 * HOUR),
      to: iso(NOW - HOUR),
      multiplier: 2,
    });
  });
  const award = (body: string, rules: CompiledRules = doubled) => {
    const record = sqsRecord(body);
    const triaged = triage({ record, decoded: decodeEvent(body, rules), rules }, NOW);
    if (triaged.kind !== "award") throw new Error(`not an award: ${JSON.stringify(triaged)}`);
    return triaged.award;
  };
  const article = (slug: string, at: number) =>
    eventBody("article.completed", { userId: "ann", articleSlug: slug }, { time: iso(at) });

  it("an event inside the campaign pays its XP, whenever the worker meets it: the amount the cap and the transaction see", () => {
    const during = award(article("a", NOW - 2 * HOUR));
    expect(during.amount).toBe(40);
    expect(during.campaign).toBe("double");
  });

  it("an event outside it pays the base, even while the worker's clock is inside it", () => {
    const before = award(article("b", NOW - 4 * HOUR));
    expect(before.amount).toBe(20);
    expect(before).not.toHaveProperty("campaign");
    // A campaign running now, the event from before it began.
    const running = version(2, (rules) => {
      rules.campaigns.push({
        id: "now",
        title: "Now",
        types: ["article.completed"],
        from: iso(NOW - HOUR),
        to: iso(NOW + HOUR),
        bonus: 5,
      });
    });
    const earlier = award(article("c", NOW - 2 * HOUR), running);
    expect(earlier.amount).toBe(20);
    expect(earlier).not.toHaveProperty("campaign");
    expect(award(article("d", NOW - 30 * 60_000), running)).toMatchObject({ amount: 25, campaign: "now" });
  });

  it("a campaign that pays no more than the base (a rule paying 0, doubled) is not recorded", () => {
    const quiz = award(eventBody("quiz.passed", { userId: "ann", quiz: "q" }, { time: iso(NOW - 2 * HOUR) }));
    expect(quiz.amount).toBe(0);
    expect(quiz).not.toHaveProperty("campaign");
  });
});

/** A rules source that answers `first` for the batch and `then` when read again. */
function source(first: CompiledRules, then: CompiledRules, rejected = 0) {
  const calls = { forBatch: 0, reread: 0 };
  const inForce = (compiled: CompiledRules) => ({
    version: { version: compiled.version } as RulesVersion,
    compiled,
  });
  let left = rejected;
  const rules: RulesSource = {
    async forBatch() {
      calls.forBatch++;
      return inForce(first);
    },
    async reread() {
      calls.reread++;
      return inForce(then);
    },
    lastReadAt: () => 0,
    takeRejected() {
      const taken = left;
      left = 0;
      return taken;
    },
  };
  return { rules, calls };
}

describe("decodeBatch: one version a batch, an unknown type read again once", () => {
  const v1 = version(1, (rules) => {
    (rules.types["article.completed"] as { xp: number }).xp = 25;
  });
  const v2 = version(2, (rules) => {
    (rules.types["article.completed"] as { xp: number }).xp = 30;
    rules.types["quiz.passed"] = { ...QUIZ, xp: 7 };
  });
  const article = sqsRecord(eventBody("article.completed", { userId: "ann", articleSlug: "a" }));
  const quiz = sqsRecord(eventBody("quiz.passed", { userId: "ann", quiz: "q1" }));
  const poll = sqsRecord(eventBody("poll.answered", { userId: "ann", poll: "p1" }));

  it("a type the batch's version does not pay is judged again under CURRENT read once; the rest keep the batch's version", async () => {
    const { rules, calls } = source(v1, v2);
    const items = await decodeBatch(rules, [article, quiz, poll]);
    expect(calls).toEqual({ forBatch: 1, reread: 1 });
    expect(items.map((item) => [item.decoded.ok && item.decoded.award.amount, item.rules?.version])).toEqual([
      [25, 1],
      [7, 2],
      [false, 2],
    ]);
    // Still unknown under the version read again: parked, naming that version.
    expect(items[2]?.decoded).toEqual({
      ok: false,
      park: {
        code: "unknown_type",
        reason: 'type: no reward rule for type "poll.answered" in rules version 2',
      },
    });
  });

  it("nothing unknown: CURRENT is not read again; the same version again: nothing judged twice", async () => {
    const known = source(v1, v2);
    expect((await decodeBatch(known.rules, [article])).map((item) => item.rules?.version)).toEqual([1]);
    expect(known.calls.reread).toBe(0);
    const same = source(v1, v1);
    const items = await decodeBatch(same.rules, [quiz]);
    expect(same.calls.reread).toBe(1);
    expect(items[0]?.decoded).toMatchObject({ ok: false, park: { code: "unknown_type" } });
  });
});

describe("a batch with no version of the rules to judge by", () => {
  function deps(rules: RulesSource) {
    const sent: unknown[] = [];
    const refuse = {
      async send(command: unknown) {
        sent.push(command);
        throw new Error("no call may be made without a version of the rules");
      },
    };
    const worker: WorkerDeps = {
      tableName: "rewards",
      stage: "test",
      dlqUrl: "http://localhost/000000000000/rewards-dlq",
      concurrency: 4,
      dynamo: refuse as unknown as DynamoDBDocumentClient,
      sqs: refuse as unknown as SQSClient,
      logger: createLogger({ level: "silent" }),
      clock: () => NOW,
      emitMetrics: () => {},
      rules,
    };
    return { worker, sent };
  }

  it("fails every record (redelivered), never judged under version 0 nor parked; the refused read is counted", async () => {
    let rejected = 1;
    const rules: RulesSource = {
      forBatch: async () => {
        throw new NoGoodRulesError("no version of the rules to judge by: CURRENT is not a pointer");
      },
      reread: async () => {
        throw new Error("not read again");
      },
      lastReadAt: () => 0,
      takeRejected: () => {
        const taken = rejected;
        rejected = 0;
        return taken;
      },
    };
    const { worker, sent } = deps(rules);
    const records = [
      sqsRecord(eventBody("article.completed", { userId: "ann", articleSlug: "a" })),
      sqsRecord(eventBody("signup.completed", { userId: "bob" })),
      sqsRecord("{"),
    ];
    const batch = await processBatch(worker, sqsEvent(records), lambdaContext());
    expect(batch.results.map((result) => [result.outcome, result.cause])).toEqual([
      ["failed", "no_rules"],
      ["failed", "no_rules"],
      ["failed", "no_rules"],
    ]);
    expect(batch.results[0]?.detail).toBe("no version of the rules to judge by: CURRENT is not a pointer");
    expect(batch.response.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual(
      records.map((record) => record.messageId),
    );
    expect(batch.counts).toMatchObject({ failed: 3, noRules: 3, rulesRejected: 1 });
    expect(sent).toEqual([]);
  });

  it("a refused re-read behind a good version is counted in the batch that takes it", async () => {
    const v1 = version(1);
    const { rules } = source(v1, v1, 2);
    const { worker } = deps(rules);
    const batch = await processBatch(worker, sqsEvent([sqsRecord("{")]), lambdaContext());
    expect(batch.counts.rulesRejected).toBe(2);
    const next = await processBatch(worker, sqsEvent([sqsRecord("{")]), lambdaContext());
    expect(next.counts.rulesRejected).toBeUndefined();
  });
});
