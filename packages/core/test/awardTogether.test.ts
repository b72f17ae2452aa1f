import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { awardTogether, describeError } from "../src/aws";
import { paidOutcome } from "../src/aws/awardTogether";
import type { AwardRequest } from "../src/domain";

/**
 * awardTogether's reading of answers the local DynamoDB cannot be made to give on demand
 * (reasons on chosen items, conditions that keep failing, a reset after commit). The same
 * paths over HTTP: tests/coalesce.test.ts.
 */
type Answer = Error | "ok" | ((input: Sent) => Error | "ok");
interface Sent {
  TransactItems: Array<{
    Put?: { Item: Record<string, unknown> };
    Update?: {
      Key: Record<string, unknown>;
      UpdateExpression?: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues?: Record<string, unknown>;
    };
  }>;
  ClientRequestToken: string;
}
function clientAnswering(...answers: Answer[]) {
  const sent: Sent[] = [];
  const client = {
    send: async (command: { input: Sent }) => {
      sent.push(command.input);
      const answer = answers[sent.length - 1] ?? "ok";
      const resolved = typeof answer === "function" ? answer(command.input) : answer;
      if (resolved !== "ok") throw resolved;
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, sent };
}

const NOW = Date.parse("2026-12-01T12:00:00.000Z");
const NOW_ISO = new Date(NOW).toISOString();
const award = (slug: string, extra: Partial<AwardRequest> = {}): AwardRequest => ({
  intentKey: `u#${slug}#article.completed`,
  userId: "u",
  type: "article.completed",
  amount: 20,
  eventId: `evt-${slug}`,
  data: { articleSlug: slug },
  guardTtlSeconds: 90 * 86_400,
  messageId: `m-${slug}`,
  earnedOn: "2026-12-01",
  ...extra,
});
const named = (name: string, extra: object = {}) =>
  Object.assign(new Error(`${name} happened`), { name, ...extra });
const cancelled = (...reasons: Array<Record<string, unknown>>) =>
  named("TransactionCanceledException", { CancellationReasons: reasons });
const none = { Code: "None" };
const ccf = (item?: Record<string, unknown>) => ({
  Code: "ConditionalCheckFailed",
  ...(item ? { Item: item } : {}),
});
const deps = (client: DynamoDBDocumentClient, extra: object = {}) => ({
  client,
  tableName: "t",
  clock: () => NOW,
  retry: { sleep: async () => {}, random: () => 0 },
  ...extra,
});
const pks = (input: Sent | undefined) =>
  input?.TransactItems.map((item) => String(item.Put?.Item.pk ?? item.Update?.Key.sk));
/** The profile update of a transaction sent: what it adds (XP, awards, the counts per type). */
const profileAdds = (input: Sent | undefined) => {
  const update = input?.TransactItems.find((item) => item.Update?.Key.sk === "PROFILE")?.Update;
  return {
    expression: update?.UpdateExpression,
    names: update?.ExpressionAttributeNames,
    values: update?.ExpressionAttributeValues,
  };
};

describe("awardTogether", () => {
  it("nothing to award sends nothing", async () => {
    const { client, sent } = clientAnswering();
    expect(await awardTogether(deps(client), [])).toEqual([]);
    expect(sent).toHaveLength(0);
  });

  it("one transaction for all: awarded, each with its XP; attempts counted per record", async () => {
    const { client, sent } = clientAnswering(named("ThrottlingException"), "ok");
    expect(await awardTogether(deps(client), [award("a"), award("b")])).toEqual([
      { outcome: "awarded", xp: 20, attempts: 2 },
      { outcome: "awarded", xp: 20, attempts: 2 },
    ]);
    expect(sent).toHaveLength(2);
    // A transient retry is byte-identical: same token, same items.
    expect(sent[1]).toEqual(sent[0]);
  });

  it("guards already there are duplicates; the rest go again at once with a new token", async () => {
    const { client, sent } = clientAnswering(
      cancelled(none, ccf({ messageId: { S: "other" } }), none, none),
      "ok",
    );
    expect(await awardTogether(deps(client), [award("a"), award("b"), award("c")])).toEqual([
      { outcome: "awarded", xp: 20, attempts: 2 },
      { outcome: "duplicate", attempts: 1 },
      { outcome: "awarded", xp: 20, attempts: 2 },
    ]);
    expect(pks(sent[1])).toEqual(["IDEM#u#a#article.completed", "IDEM#u#c#article.completed", "PROFILE"]);
    expect(sent[1]?.ClientRequestToken).not.toBe(sent[0]?.ClientRequestToken);
    // The transaction that goes again counts only its own awards: the duplicate is not counted.
    expect(profileAdds(sent[1])).toEqual({
      expression: "ADD xp :xp, awards :awards, #count0 :count0 SET updatedAt = :now",
      names: { "#count0": "count:article.completed" },
      values: { ":xp": 40, ":awards": 2, ":now": NOW_ISO, ":count0": 2 },
    });
  });

  it("copies of an intent: the first is written once; a copy of a failure fails, of a rejection is rejected", async () => {
    const paid = clientAnswering("ok");
    expect(await awardTogether(deps(paid.client), [award("a"), award("a"), award("b")])).toEqual([
      { outcome: "awarded", xp: 20, attempts: 1 },
      { outcome: "duplicate", attempts: 0, note: "a copy of an intent paid earlier in this batch" },
      { outcome: "awarded", xp: 20, attempts: 1 },
    ]);
    expect(pks(paid.sent[0])).toHaveLength(3);
    // A copy in the batch is counted once, toward its type as toward the awards.
    expect(profileAdds(paid.sent[0]).values).toEqual({
      ":xp": 40,
      ":awards": 2,
      ":now": NOW_ISO,
      ":count0": 2,
    });

    const down = clientAnswering(named("ResourceNotFoundException"));
    const [first, copy] = await awardTogether(deps(down.client), [award("a"), award("a")]);
    expect(first).toMatchObject({
      outcome: "failed",
      kind: "configuration",
      attempts: 1,
      mayHaveCommitted: false,
    });
    expect(copy).toMatchObject({ outcome: "failed", kind: "configuration", attempts: 0 });

    const refused = clientAnswering(cancelled(none, { Code: "ValidationError", Message: "bad xp" }));
    const [lead, again] = await awardTogether(deps(refused.client), [award("a"), award("a")]);
    expect(lead).toMatchObject({ outcome: "rejected", attempts: 1 });
    expect(again).toMatchObject({ outcome: "rejected", attempts: 0 });
  });

  it("a refused item's reason names it; the others go again", async () => {
    const { client, sent } = clientAnswering(
      cancelled({ Code: "ValidationError", Message: "guard too big" }, none, none),
      "ok",
    );
    const [a, b] = await awardTogether(deps(client), [award("a"), award("b")]);
    expect(a).toMatchObject({ outcome: "rejected", attempts: 1 });
    expect(a?.outcome === "rejected" && a.refused).toEqual([
      { item: { kind: "guard" }, said: "guard too big" },
    ]);
    expect(a?.outcome === "rejected" && describeError(a.cause)).toBe(
      "TransactionCanceledException [ValidationError, None, None]: TransactionCanceledException happened",
    );
    expect(b).toEqual({ outcome: "awarded", xp: 20, attempts: 2 });
    expect(pks(sent[1])).toEqual(["IDEM#u#b#article.completed", "PROFILE"]);
  });

  it("a transient failure that outlasts the retries fails every record, saying whether it may have committed", async () => {
    const reset = () => named("Error", { code: "ECONNRESET" });
    const { client } = clientAnswering(reset(), reset(), reset(), reset());
    const outcomes = await awardTogether(deps(client), [award("a"), award("b")]);
    expect(outcomes).toEqual([
      expect.objectContaining({ outcome: "failed", kind: "transient", attempts: 4, mayHaveCommitted: true }),
      expect.objectContaining({ outcome: "failed", kind: "transient", attempts: 4, mayHaveCommitted: true }),
    ]);
    const conflict = clientAnswering(
      ...Array.from({ length: 4 }, () => cancelled(ccf(), { Code: "TransactionConflict" })),
    );
    // A conflict makes the whole cancellation transient, even beside a failed condition.
    expect((await awardTogether(deps(conflict.client), [award("a")]))[0]).toMatchObject({
      outcome: "failed",
      kind: "transient",
      attempts: 4,
      mayHaveCommitted: false,
    });
  });

  it("a cancellation that names no failed item is retried whole, with its token (not read item by item)", async () => {
    const { client, sent } = clientAnswering(cancelled(none, none), "ok");
    expect(await awardTogether(deps(client), [award("a")])).toEqual([
      { outcome: "awarded", xp: 20, attempts: 2 },
    ]);
    expect(sent[1]).toEqual(sent[0]);
  });

  it("a reset then success is awarded, noting the token made the retry safe", async () => {
    const { client } = clientAnswering(named("Error", { code: "ECONNRESET" }), "ok");
    expect(await awardTogether(deps(client), [award("a")])).toEqual([
      {
        outcome: "awarded",
        xp: 20,
        attempts: 2,
        note: "an earlier attempt's answer was lost; its token made the retry safe",
      },
    ]);
  });

  it("the lost-answer rule per guard: this record's message and this attempt's instant are its own award", async () => {
    const own = (slug: string) => ccf({ messageId: { S: `m-${slug}` }, awardedAt: { S: NOW_ISO } });
    const earlier = ccf({ messageId: { S: "m-b" }, awardedAt: { S: "2026-11-30T00:00:00.000Z" } });
    const { client } = clientAnswering(cancelled(own("a"), earlier, none));
    expect(await awardTogether(deps(client), [award("a"), award("b")])).toEqual([
      {
        outcome: "awarded",
        xp: 20,
        attempts: 1,
        note: "an earlier attempt committed but its answer was lost; the guard it wrote is this attempt's",
      },
      {
        outcome: "duplicate",
        attempts: 1,
        note: "already paid by an earlier delivery of this same message (at 2026-11-30T00:00:00.000Z) whose result was lost",
      },
    ]);
  });

  it("a guard without a message id is never this record's: a plain duplicate", async () => {
    const { client } = clientAnswering(cancelled(ccf({ awardedAt: { S: NOW_ISO } }), none));
    expect(await awardTogether(deps(client), [award("a", { messageId: undefined })])).toEqual([
      { outcome: "duplicate", attempts: 1 },
    ]);
  });

  it("at the cap: the day's total comes back, and the transaction goes again with what fits", async () => {
    const { client, sent } = clientAnswering(cancelled(none, none, none, ccf({ xp: { N: "35" } })), "ok");
    expect(await awardTogether(deps(client, { dailyCap: 50 }), [award("a"), award("b")])).toEqual([
      { outcome: "awarded", xp: 15, attempts: 2 },
      { outcome: "capped", attempts: 2 },
    ]);
    expect(sent[1]?.TransactItems[0]?.Put?.Item).toMatchObject({ amount: 15, requested: 20 });
    expect(sent[1]?.TransactItems[1]?.Put?.Item).toMatchObject({ amount: 0, requested: 20 });
  });

  it("a day's condition failing without its total fails the records: nothing to go on", async () => {
    const { client, sent } = clientAnswering(cancelled(none, none, ccf()));
    const [outcome] = await awardTogether(deps(client, { dailyCap: 50 }), [award("a")]);
    expect(outcome).toMatchObject({
      outcome: "failed",
      kind: "transient",
      attempts: 1,
      mayHaveCommitted: false,
    });
    expect(outcome?.outcome === "failed" && String(outcome.cause)).toMatch(
      /the daily cap's condition failed for 2026-12-01 and the cancellation did not return the day's total/,
    );
    expect(sent).toHaveLength(1);
  });

  it("a day unread beside a duplicate: the duplicate is settled, the rest go again", async () => {
    const { client, sent } = clientAnswering(cancelled(ccf(), none, none, ccf()), "ok");
    expect(await awardTogether(deps(client, { dailyCap: 50 }), [award("a"), award("b")])).toEqual([
      { outcome: "duplicate", attempts: 1 },
      { outcome: "awarded", xp: 20, attempts: 2 },
    ]);
    expect(sent).toHaveLength(2);
  });

  it("conditions that keep changing stop after eight transactions: the rest is failed", async () => {
    let total = 0;
    const racing = () => {
      total += 1;
      return cancelled(none, none, ccf({ xp: { N: String(total) } }));
    };
    const { client, sent } = clientAnswering(...Array.from({ length: 20 }, () => racing));
    const [outcome] = await awardTogether(deps(client, { dailyCap: 50 }), [award("a")]);
    expect(sent).toHaveLength(8);
    expect(outcome).toMatchObject({ outcome: "failed", kind: "transient", attempts: 8 });
    expect(outcome?.outcome === "failed" && String(outcome.cause)).toMatch(
      /cancelled 8 times in a row by conditions that kept changing/,
    );
  });

  it("nothing is sent once the clock reads the deadline", async () => {
    const { client, sent } = clientAnswering(cancelled(ccf(), none, none), "ok");
    // The first transaction starts in time; the clock passes the deadline before the second.
    const late = { ...deps(client), clock: () => (sent.length === 0 ? NOW : NOW + 10_000) };
    const outcomes = await awardTogether(late, [award("a"), award("b")], NOW + 5_000);
    expect(sent).toHaveLength(1);
    expect(outcomes[0]).toEqual({ outcome: "duplicate", attempts: 1 });
    expect(outcomes[1]).toMatchObject({
      outcome: "failed",
      kind: "transient",
      attempts: 1,
      mayHaveCommitted: false,
    });
    expect(outcomes[1]?.outcome === "failed" && String(outcomes[1].cause)).toMatch(
      /the invocation's deadline came before its transaction could be sent/,
    );
  });

  it("more than 99 awards: several transactions in order, the day's total carried from one to the next", async () => {
    const { client, sent } = clientAnswering();
    const awards = Array.from({ length: 100 }, (_, i) => award(`s${i}`, { amount: 1 }));
    const outcomes = await awardTogether(deps(client, { dailyCap: 99 }), awards);
    expect(sent.map((input) => input.TransactItems.length)).toEqual([100, 4]);
    expect(outcomes.slice(0, 98).every((o) => o.outcome === "awarded")).toBe(true);
    expect(outcomes.slice(98).map((o) => o.outcome)).toEqual(["awarded", "capped"]);
  });

  it("a stamp the profile refused: the awards go again at once, stamped after the profile's instant, and the next run after that", async () => {
    const ahead = "2026-12-01T12:00:05.000Z";
    // 99 guards, then the profile (item 99) refusing the stamp.
    const { client, sent } = clientAnswering(
      cancelled(...Array.from({ length: 99 }, () => none), ccf({ updatedAt: { S: ahead } })),
      "ok",
      "ok",
    );
    const awards = Array.from({ length: 100 }, (_, i) => award(`s${i}`));
    const outcomes = await awardTogether(deps(client), awards);
    expect(outcomes.every((o) => o.outcome === "awarded")).toBe(true);
    const stamps = sent.map((input) => profileAdds(input).values?.[":now"]);
    expect(stamps).toEqual([NOW_ISO, "2026-12-01T12:00:05.001Z", "2026-12-01T12:00:05.002Z"]);
    // The guards carry the stamp of the transaction that wrote them.
    expect(sent[1]?.TransactItems[0]?.Put?.Item.awardedAt).toBe("2026-12-01T12:00:05.001Z");
    expect(sent[2]?.TransactItems[0]?.Put?.Item.awardedAt).toBe("2026-12-01T12:00:05.002Z");
  });

  it("a stamp refused with no item returned: after the refused one; a profile that is no instant rejects the awards", async () => {
    const { client, sent } = clientAnswering(cancelled(none, ccf()), "ok");
    expect((await awardTogether(deps(client), [award("a")])).map((o) => o.outcome)).toEqual(["awarded"]);
    expect(profileAdds(sent[1]).values?.[":now"]).toBe("2026-12-01T12:00:00.001Z");
    const refused = clientAnswering(cancelled(none, ccf({ updatedAt: { N: "1" } })));
    expect(await awardTogether(deps(refused.client), [award("a")])).toMatchObject([
      {
        outcome: "rejected",
        refused: [{ item: { kind: "profile" }, said: "its updatedAt is not an instant (1)" }],
      },
    ]);
    expect(refused.sent).toHaveLength(1);
  });

  it("a profile stamped more than 5 minutes past the clock: the awards are rejected naming it, never stamped into the future", async () => {
    const ahead = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
    const { client, sent } = clientAnswering(
      cancelled(none, ccf({ updatedAt: { S: ahead(4) } })),
      cancelled(none, ccf({ updatedAt: { S: ahead(6) } })),
    );
    expect(await awardTogether(deps(client), [award("a")])).toMatchObject([
      {
        outcome: "rejected",
        refused: [
          {
            item: { kind: "profile" },
            said: `its updatedAt ${ahead(6)} is more than 5 minutes after the clock (${NOW_ISO})`,
          },
        ],
      },
    ]);
    expect(sent.map((input) => profileAdds(input).values?.[":now"])).toEqual([
      NOW_ISO,
      new Date(NOW + 4 * 60_000 + 1).toISOString(),
    ]);
  });
});

describe("per-unit copies and rules that pay 0 (docs/rules.md#at-run-time)", () => {
  /** A per-unit award of `units` minutes (1 XP each): one intent, whatever the units. */
  const minutes = (units: number, messageId = `m-${units}`) =>
    award("e1", {
      type: "podcast.listened",
      intentKey: "u#e1#podcast.listened",
      amount: units,
      units,
      messageId,
    });

  it("copies in one batch: the committing copy decides; a later one with other units says what was paid, one with the same units does not", async () => {
    const { client } = clientAnswering("ok");
    expect(await awardTogether(deps(client), [minutes(40), minutes(45), minutes(40, "m-again")])).toEqual([
      { outcome: "awarded", xp: 40, attempts: 1 },
      {
        outcome: "duplicate",
        attempts: 0,
        note: "a copy of an intent paid earlier in this batch",
        paidUnits: 40,
      },
      { outcome: "duplicate", attempts: 0, note: "a copy of an intent paid earlier in this batch" },
    ]);
  });

  it("a guard already there: its units, not its XP (a campaign doubled it), against the copy's", async () => {
    const guard = ccf({ messageId: { S: "other" }, units: { N: "40" }, amount: { N: "80" } });
    const other = clientAnswering(cancelled(guard, none));
    expect(await awardTogether(deps(other.client), [minutes(45)])).toEqual([
      { outcome: "duplicate", attempts: 1, paidUnits: 40 },
    ]);
    const same = clientAnswering(cancelled(guard, none));
    expect(await awardTogether(deps(same.client), [minutes(40)])).toEqual([
      { outcome: "duplicate", attempts: 1 },
    ]);
  });

  it("a rule that pays 0 is awarded 0 XP; capped is the cap's alone", async () => {
    const { client } = clientAnswering("ok");
    expect(await awardTogether(deps(client), [award("q", { amount: 0 })])).toEqual([
      { outcome: "awarded", xp: 0, attempts: 1 },
    ]);
    expect(paidOutcome(0, { amount: 0 }, 2, {})).toEqual({ outcome: "awarded", xp: 0, attempts: 2 });
    expect(paidOutcome(0, { amount: 20 }, 1, { note: "n" })).toEqual({
      outcome: "capped",
      attempts: 1,
      note: "n",
    });
    expect(paidOutcome(5, { amount: 20 }, 1, {})).toEqual({ outcome: "awarded", xp: 5, attempts: 1 });
  });
});
