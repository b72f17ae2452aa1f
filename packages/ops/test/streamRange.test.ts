import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import { describe, expect, it } from "vitest";
import { readStreamRange, streamRegion } from "../src/streamFailures/streamRange";

const streamArn = "arn:aws:dynamodb:eu-west-1:123456789012:table/rewards/stream/2026-12-01T00:00:00.000";
const batch = {
  streamArn,
  shardId: "shardId-1",
  startSequenceNumber: "100",
  endSequenceNumber: "200",
  batchSize: 2,
  approximateArrivalOfFirstRecord: "2026-12-01T00:00:00Z",
  approximateArrivalOfLastRecord: "2026-12-01T00:00:01Z",
};

/** A streams client in `region` whose every call fails with an error named `name`. */
function failingStreams(region: string, name: string): DynamoDBStreamsClient {
  return {
    config: { region: async () => region },
    async send() {
      throw Object.assign(new Error(`${name} happened`), { name });
    },
  } as unknown as DynamoDBStreamsClient;
}

describe("readStreamRange: what counts as a stream gone", () => {
  it("the stream's own region not finding it, or records trimmed: gone", async () => {
    expect(await readStreamRange(failingStreams("eu-west-1", "ResourceNotFoundException"), batch)).toEqual({
      ok: false,
      reason: "ResourceNotFoundException: ResourceNotFoundException happened",
    });
    expect(
      await readStreamRange(failingStreams("us-east-1", "TrimmedDataAccessException"), batch),
    ).toMatchObject({
      ok: false,
    });
  });

  it("not found by a client of another region: a wrong setting, thrown, never taken for gone", async () => {
    await expect(
      readStreamRange(failingStreams("us-east-1", "ResourceNotFoundException"), batch),
    ).rejects.toThrow(
      `the stream ${streamArn} is in eu-west-1, but the client asks us-east-1 (check AWS_REGION): ResourceNotFoundException: ResourceNotFoundException happened`,
    );
  });

  it("streamRegion reads an ARN's region", () => {
    expect(streamRegion(streamArn)).toBe("eu-west-1");
    expect(streamRegion("not-an-arn")).toBeUndefined();
  });
});
