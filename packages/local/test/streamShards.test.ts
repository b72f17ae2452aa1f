import type { _Record, DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import { createLogger } from "@rewards/core/aws";
import { describe, expect, it } from "vitest";
import { startStreamSource } from "../src";

const record = (seq: number): _Record => ({
  eventName: "INSERT",
  dynamodb: { SequenceNumber: String(seq), Keys: { pk: { S: `k${seq}` }, sk: { S: "IDEM" } } },
});

/**
 * A stream whose shard split: parent `p` (closed, two records) and its child `c`. The local
 * DynamoDB has one shard forever, so the split is scripted here.
 */
function splitStream() {
  const shards: Record<string, { records: _Record[]; closed: boolean }> = {
    p: { records: [record(1), record(2)], closed: true },
    c: { records: [record(3)], closed: false },
  };
  const client = {
    async send(command: { constructor: { name: string }; input: Record<string, string> }) {
      switch (command.constructor.name) {
        case "DescribeStreamCommand":
          // The child is listed first: order in the answer must not matter.
          return { StreamDescription: { Shards: [{ ShardId: "c", ParentShardId: "p" }, { ShardId: "p" }] } };
        case "GetShardIteratorCommand":
          return { ShardIterator: `${command.input.ShardId}:0` };
        default: {
          const [shard, at] = String(command.input.ShardIterator).split(":") as [string, string];
          const { records, closed } = shards[shard] as { records: _Record[]; closed: boolean };
          const from = Number(at);
          const got = records.slice(from, from + 1);
          const next = from + got.length;
          const end = next >= records.length;
          return {
            Records: got,
            ...(end && closed && got.length === 0 ? {} : { NextShardIterator: `${shard}:${next}` }),
          };
        }
      }
    },
  } as unknown as DynamoDBStreamsClient;
  return client;
}

describe("the stream source across a shard split", () => {
  it("finishes the parent shard, in order, before it starts the child", async () => {
    const seen: string[] = [];
    const source = await startStreamSource({
      streams: splitStream(),
      streamArn: "arn:aws:dynamodb:us-east-1:0:table/t/stream/x",
      logger: createLogger({ level: "silent" }),
      batchSize: 1,
      pollIntervalMs: 5,
      handler: async (event) => {
        // The parent's records take a while: a child started early would overtake them.
        await new Promise((resolve) => setTimeout(resolve, 30));
        seen.push(...event.Records.map((r) => String(r.dynamodb?.SequenceNumber)));
      },
    });
    const until = Date.now() + 10_000;
    while (seen.length < 3 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    await source.stop();
    expect(seen).toEqual(["1", "2", "3"]);
  });
});
