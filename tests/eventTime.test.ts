import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { drain, eventBody, lambdaContext, profileOf, sqsEvent, sqsRecord, stackTest } from "@rewards/testing";
import { createWorkerDeps, processBatch, type WorkerDeps } from "@rewards/worker";
import fc from "fast-check";
import { describe, expect } from "vitest";

const it = stackTest();
const DAY = 86_400_000;
const NOW = Date.now();
let seq = 0;
const newUser = (label: string) => `${label}-${++seq}-${NOW}`;
const iso = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => iso(ms).slice(0, 10);

function depsAt(env: Record<string, string>, clock: () => number): WorkerDeps {
  return { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {}, clock };
}

/** A record as SQS would hand it over: sent at `sentAt`, carrying `attributes`. */
const record = (body: string, sentAt = NOW, firstSentAt?: string) => {
  const made = sqsRecord(body, {
    ...(firstSentAt
      ? { messageAttributes: { "rewards.firstSentAt": { dataType: "String", stringValue: firstSentAt } } }
      : {}),
  });
  made.attributes.SentTimestamp = String(sentAt);
  return made;
};

describe("event time: what the worker can no longer judge is refused, never paid", () => {
  it("streak days, future times, missing times and old signups, each as the rules say", async ({
    env,
    queues,
  }) => {
    const deps = depsAt(env, () => NOW);
    const user = newUser("time");
    const cases = [
      [
        "a streak.day for 100 days ago",
        eventBody("streak.day", { userId: user, day: dayOf(NOW - 100 * DAY) }),
        NOW,
      ],
      [
        "a streak.day for 88 days ago",
        eventBody("streak.day", { userId: user, day: dayOf(NOW - 88 * DAY) }),
        NOW,
      ],
      [
        "an event one hour ahead",
        eventBody("article.completed", { userId: user, articleSlug: "a" }, { time: iso(NOW + 3_600_000) }),
        NOW,
      ],
      [
        "an event one minute ahead",
        eventBody("article.completed", { userId: user, articleSlug: "b" }, { time: iso(NOW + 60_000) }),
        NOW,
      ],
      [
        "no time, first sent 100 days ago",
        eventBody("article.completed", { userId: user, articleSlug: "c" }, { time: undefined }),
        NOW - 100 * DAY,
      ],
      [
        "no time, first sent now",
        eventBody("article.completed", { userId: user, articleSlug: "d" }, { time: undefined }),
        NOW,
      ],
      [
        "a signup from five years ago",
        eventBody("signup.completed", { userId: user }, { time: iso(NOW - 5 * 365 * DAY) }),
        NOW,
      ],
    ] as const;
    const records = cases.map(([, body, sentAt]) => record(body, sentAt));
    const { results } = await processBatch(deps, sqsEvent(records), lambdaContext());
    expect(
      Object.fromEntries(cases.map(([label], i) => [label, [results[i]?.outcome, results[i]?.parkCode]])),
    ).toEqual({
      "a streak.day for 100 days ago": ["parked", "stale"],
      "a streak.day for 88 days ago": ["awarded", undefined],
      "an event one hour ahead": ["parked", "invalid_event"],
      "an event one minute ahead": ["awarded", undefined],
      "no time, first sent 100 days ago": ["parked", "stale"],
      "no time, first sent now": ["awarded", undefined],
      "a signup from five years ago": ["awarded", undefined],
    });
    expect(results[0]?.detail).toBe(
      `data.day ${dayOf(NOW - 100 * DAY)} is too old: streak.day is remembered 90 days, so nothing before ${iso(NOW - 89 * DAY)} (89 days ago) can be judged and paid`,
    );
    expect(results[2]?.detail).toBe(
      `time ${iso(NOW + 3_600_000)} is more than 5 minutes after the worker's clock (${iso(NOW)})`,
    );
    expect(results[4]?.detail).toMatch(
      /^the event has no time; SentTimestamp .* is too old: article\.completed is remembered 90 days/,
    );
    const profile = await profileOf(deps.dynamo, deps.tableName, user);
    expect(profile).toMatchObject({ xp: 10 + 20 + 20 + 100, awards: 4 });

    // Every parked message carries when its event first entered the queue.
    const parked = await drain(createSqsClient({ ...env, AWS_REGION: "us-east-1" }), queues.dlqUrl);
    expect(parked.map((m) => m.MessageAttributes?.["rewards.firstSentAt"]?.StringValue).sort()).toEqual(
      [iso(NOW - 100 * DAY), iso(NOW), iso(NOW)].sort(),
    );
  });

  it("a replayed copy of an old event carries its first SentTimestamp, so it is stale, not new", async ({
    env,
  }) => {
    const deps = depsAt(env, () => NOW);
    const user = newUser("replayed");
    const body = eventBody("article.completed", { userId: user, articleSlug: "a" }, { time: undefined });
    // Replayed today (a fresh SentTimestamp), first sent 100 days ago.
    const { results } = await processBatch(
      deps,
      sqsEvent([record(body, NOW, iso(NOW - 100 * DAY))]),
      lambdaContext(),
    );
    expect(results[0]).toMatchObject({ outcome: "parked", parkCode: "stale" });
    expect(results[0]?.detail).toMatch(/^the event has no time; rewards\.firstSentAt /);
    expect(await profileOf(deps.dynamo, deps.tableName, user)).toBeUndefined();
  });

  it("no schedule of deliveries and replays of one emission pays its intent twice: guard lifetime and staleness interlock", async ({
    env,
  }) => {
    const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
    const base = depsAt(env, () => NOW);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("article.completed", "streak.day", "signup.completed"),
        // The event's time relative to its first delivery, or no time (judged by when it was first sent).
        fc.option(fc.integer({ min: -120 * DAY, max: 10 * 60_000 }), { nil: undefined }),
        fc.integer({ min: -120, max: 2 }),
        // Deliveries and replays, up to 400 days after the first.
        fc.array(fc.integer({ min: 0, max: 400 * DAY }), { minLength: 1, maxLength: 6 }),
        async (type, timeOffset, dayOffset, deliveries) => {
          const user = newUser("schedule");
          const data =
            type === "streak.day"
              ? { userId: user, day: dayOf(NOW + dayOffset * DAY) }
              : type === "signup.completed"
                ? { userId: user }
                : { userId: user, articleSlug: "once" };
          const body = eventBody(type, data, {
            time: timeOffset === undefined ? undefined : iso(NOW + timeOffset),
          });
          for (const at of [0, ...deliveries].sort((a, b) => a - b)) {
            // The first delivery's SentTimestamp; later ones are replays carrying it along.
            const delivered = at === 0 ? record(body, NOW) : record(body, NOW + at, iso(NOW));
            await processBatch(
              { ...base, dynamo, clock: () => NOW + at },
              sqsEvent([delivered]),
              lambdaContext(),
            );
          }
          const profile = await profileOf(dynamo, base.tableName, user);
          expect(profile?.awards ?? 0).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 60, seed: 2026 },
    );
  }, 120_000);
});
