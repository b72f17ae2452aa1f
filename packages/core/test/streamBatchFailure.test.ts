import { freshModule } from "@rewards/testing";
import { beforeEach, describe, expect, it } from "vitest";
import type * as Failure from "../src/domain/announce/streamBatchFailure";

// Loaded afresh in each test (@rewards/testing freshModule): its schema is module-level constants.
let streamBatchFailureSchema: typeof Failure.streamBatchFailureSchema;
beforeEach(async () => {
  ({ streamBatchFailureSchema } = await freshModule(
    () => import("../src/domain/announce/streamBatchFailure"),
  ));
});

/** The on-failure record of AWS's documentation for a DynamoDB stream mapping. */
const lambdasRecord = {
  requestContext: {
    requestId: "316aa6d0-8154-xmpl-9af7-85d5f4a6bc81",
    functionArn: "arn:aws:lambda:us-east-2:123456789012:function:myfunction",
    condition: "RetryAttemptsExhausted",
    approximateInvokeCount: 1,
  },
  responseContext: { statusCode: 200, executedVersion: "$LATEST", functionError: "Unhandled" },
  version: "1.0",
  timestamp: "2019-11-14T00:13:49.717Z",
  DDBStreamBatchInfo: {
    shardId: "shardId-00000001573689847184-864758bb",
    startSequenceNumber: "800000000003126276362",
    endSequenceNumber: "800000000003126276370",
    approximateArrivalOfFirstRecord: "2019-11-14T00:13:19Z",
    approximateArrivalOfLastRecord: "2019-11-14T00:13:19Z",
    batchSize: 1,
    streamArn: "arn:aws:dynamodb:us-east-2:123456789012:table/mytable/stream/2019-11-14T00:04:06.388",
  },
};

const withBatchInfo = (change: Record<string, unknown>) => ({
  ...lambdasRecord,
  DDBStreamBatchInfo: { ...lambdasRecord.DDBStreamBatchInfo, ...change },
});

describe("streamBatchFailureSchema", () => {
  it("reads Lambda's on-failure record whole, whatever the condition", () => {
    expect(streamBatchFailureSchema.parse(lambdasRecord)).toEqual(lambdasRecord);
    const tooOld = { ...lambdasRecord.requestContext, condition: "RecordAgeExceeded" };
    expect(
      streamBatchFailureSchema.parse({ ...lambdasRecord, requestContext: tooOld }).requestContext,
    ).toEqual(tooOld);
  });

  it("refuses a record that does not say where in the stream the batch was", () => {
    const { DDBStreamBatchInfo: _info, ...noPlace } = lambdasRecord;
    const { requestContext: _context, ...noContext } = lambdasRecord;
    for (const bad of [
      noPlace,
      noContext,
      withBatchInfo({ shardId: "" }),
      withBatchInfo({ streamArn: "" }),
      withBatchInfo({ startSequenceNumber: "x800" }),
      withBatchInfo({ startSequenceNumber: "800x" }),
      withBatchInfo({ endSequenceNumber: "x800" }),
      withBatchInfo({ endSequenceNumber: "800x" }),
      withBatchInfo({ batchSize: 1.5 }),
    ]) {
      expect(streamBatchFailureSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
