import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { awardTogether } from "../src/aws/awardTogether";
import type { AwardRequest } from "../src/domain";

// Review finding (nit: a metric and a result line): a type whose xp became per-unit in a later
// version (allowed: only key, kinds, day and memory are frozen) has guards without `units`. The
// first copy of a batch meets such a guard: a duplicate, rightly without paidUnits. A second copy
// of the same intent in the batch is then compared with the FIRST COPY's units, as if the guard
// had recorded them: it reports paidUnits 40 (never paid for) and counts `unitsDiffer`.
const NOW = Date.parse("2026-12-01T12:00:00.000Z");
const minutes = (units: number, messageId: string): AwardRequest => ({
  intentKey: "u#e1#podcast.listened",
  userId: "u",
  type: "podcast.listened",
  amount: units,
  units,
  eventId: `evt-${messageId}`,
  data: { episode: "e1", minutes: units },
  guardTtlSeconds: 90 * 86_400,
  messageId,
  earnedOn: "2026-12-01",
});

describe("review: per-unit copies after a guard without units", () => {
  it("a later copy is not said to differ from units the guard never recorded", async () => {
    // The guard a version with fixed XP wrote: no units.
    const cancellation = Object.assign(new Error("TransactionCanceledException happened"), {
      name: "TransactionCanceledException",
      CancellationReasons: [
        { Code: "ConditionalCheckFailed", Item: { messageId: { S: "other" }, amount: { N: "10" } } },
        { Code: "None" },
      ],
    });
    let calls = 0;
    const client = {
      send: async () => {
        calls++;
        if (calls === 1) throw cancellation;
        return {};
      },
    } as unknown as DynamoDBDocumentClient;
    const outcomes = await awardTogether(
      { client, tableName: "t", clock: () => NOW, retry: { sleep: async () => {}, random: () => 0 } },
      [minutes(40, "m-a"), minutes(45, "m-b")],
    );
    expect(outcomes[0]).toMatchObject({ outcome: "duplicate" });
    expect(outcomes[0]).not.toHaveProperty("paidUnits");
    expect(outcomes[1]).toMatchObject({ outcome: "duplicate" });
    expect(outcomes[1]).not.toHaveProperty("paidUnits");
  });
});
