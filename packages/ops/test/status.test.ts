import {
  type CloudWatchClient,
  DescribeAlarmsCommand,
  GetMetricDataCommand,
} from "@aws-sdk/client-cloudwatch";
import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import {
  ChangeMessageVisibilityBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { toolConfigFrom } from "@rewards/core/deploy";
import { describe, expect, it } from "vitest";
import { oldestMessageAge } from "../src/queues/queueCounts";
import { isBehind, lagOfEntries, lagOfIteratorAge, type StreamEntry } from "../src/status/consumerLag";
import { readStatus, type StatusSources, statusSourcesFor } from "../src/status/readStatus";
import { stageAlarmsOf } from "../src/status/stageAlarms";
import { statusPairs, verdictText } from "../src/status/statusInWords";
import { type StatusParts, statusVerdictOf } from "../src/status/statusVerdict";
import { historyLagLine, historyLagOf } from "../src/user/historyLag";

const NOW = Date.parse("2026-12-05T12:00:00Z");
const entry = (shardId: string, sequenceNumber: string, agoSeconds: number, handed = true): StreamEntry => ({
  shardId,
  sequenceNumber,
  createdAtMs: NOW - agoSeconds * 1000,
  handed,
});

describe("lagOfEntries: what a local consumer is behind on", () => {
  it("counts the records after each shard's checkpoint that its filter passes, dated by the oldest", () => {
    const entries = [
      entry("s1", "100", 90),
      entry("s1", "200", 60),
      entry("s1", "300", 50, false), // a profile's record: never handed, so never behind on it
      entry("s1", "400", 30),
      entry("s2", "150", 70),
    ];
    // s1 done through 200; s2 never checkpointed: all of it is behind.
    expect(lagOfEntries(entries, { s1: "200" }, NOW)).toEqual({ recordsBehind: 2, oldestAgeSeconds: 70 });
    // Sequence numbers compare as numbers, not text ("1000" is after "999").
    expect(lagOfEntries([entry("s1", "1000", 5)], { s1: "999" }, NOW)).toEqual({
      recordsBehind: 1,
      oldestAgeSeconds: 5,
    });
    // No checkpoint at all (the consumer has done nothing): everything it would be handed.
    expect(lagOfEntries(entries, {}, NOW)).toEqual({ recordsBehind: 4, oldestAgeSeconds: 90 });
  });

  it("caught up is 0 records and 0 s, filtered-out records after the checkpoint included", () => {
    expect(lagOfEntries([entry("s1", "100", 9), entry("s1", "101", 8, false)], { s1: "100" }, NOW)).toEqual({
      recordsBehind: 0,
      oldestAgeSeconds: 0,
    });
  });

  it("ages in whole seconds; a record without a creation time counts but dates nothing", () => {
    expect(
      lagOfEntries([{ ...entry("s1", "1", 0), createdAtMs: NOW - 1999 }], {}, NOW).oldestAgeSeconds,
    ).toBe(1);
    expect(lagOfEntries([{ ...entry("s1", "1", 0), createdAtMs: undefined }], {}, NOW)).toEqual({
      recordsBehind: 1,
      oldestAgeSeconds: 0,
    });
  });
});

describe("lagOfIteratorAge and isBehind", () => {
  it("IteratorAge (ms) in whole seconds, no record count; no datapoint is an unknown age, said so", () => {
    expect(lagOfIteratorAge({ kind: "value", value: 301_999 })).toEqual({
      source: "cloudwatch",
      recordsBehind: null,
      oldestAgeSeconds: 301,
    });
    expect(lagOfIteratorAge({ kind: "noData" })).toMatchObject({
      oldestAgeSeconds: null,
      recordsBehind: null,
    });
    expect(() =>
      lagOfIteratorAge({ kind: "failed", reason: "AccessDenied: no", errorName: "AccessDenied" }),
    ).toThrow("CloudWatch: AccessDenied: no");
  });

  it("behind past the alarm's threshold (over 300 s, as AnnouncerBehind and HistoryBehind), never on an unknown age", () => {
    const lag = (oldestAgeSeconds: number | null) =>
      ({ source: "checkpoint", recordsBehind: 1, oldestAgeSeconds }) as const;
    expect(isBehind(lag(300), "history")).toBe(false);
    expect(isBehind(lag(301), "history")).toBe(true);
    expect(isBehind(lag(301), "announcer")).toBe(true);
    expect(isBehind(lag(null), "announcer")).toBe(false);
  });
});

const EMPTY_DLQ = {
  kind: "read",
  visible: 0,
  inFlight: 0,
  delayed: 0,
  messages: 0,
  read: 0,
  byReason: {},
} as const;

const READ_ALL: StatusParts = {
  queue: { kind: "read", visible: 0, inFlight: 0, delayed: 0 },
  oldestMessage: { kind: "notHere", reason: "needs CloudWatch, which the local stack does not have" },
  dlq: EMPTY_DLQ,
  consumers: {
    announcer: { kind: "read", source: "checkpoint", recordsBehind: 0, oldestAgeSeconds: 0 },
    history: { kind: "read", source: "checkpoint", recordsBehind: 4, oldestAgeSeconds: 12 },
  },
  givenUp: { announcer: { kind: "read", batches: 0 }, history: { kind: "read", batches: 0 } },
  alarms: { kind: "notHere", reason: "no CloudWatch on the local stack" },
  rules: { kind: "read", version: 0, publishedAt: null, digest: "d".repeat(64) },
};

describe("statusVerdictOf", () => {
  it("ok: everything read (not-here parts are no failure), nothing waits; a young lag is not behind", () => {
    expect(statusVerdictOf(READ_ALL)).toEqual({ verdict: "ok", reasons: [] });
  });

  it("attention: what waits for an operator, each with where to look", () => {
    const parts: StatusParts = {
      ...READ_ALL,
      oldestMessage: { kind: "read", ageSeconds: 601 },
      dlq: { ...EMPTY_DLQ, kind: "read", visible: 2, messages: 2, read: 2, byReason: { stale: 2 } },
      consumers: {
        ...READ_ALL.consumers,
        history: { kind: "read", source: "cloudwatch", recordsBehind: null, oldestAgeSeconds: 900 },
      },
      givenUp: { announcer: { kind: "read", batches: 1 }, history: { kind: "read", batches: 3 } },
      alarms: {
        kind: "read",
        alarms: 15,
        inAlarm: [{ name: "DlqNotEmpty-1a2b3c4", reason: "Threshold Crossed", since: null }],
        missing: ["Gone-0000000"],
      },
      rules: {
        kind: "read",
        version: 3,
        invalid: "version 3's document does not have the digest published with it",
      },
    };
    expect(statusVerdictOf(parts)).toEqual({
      verdict: "attention",
      reasons: [
        "the rules in force cannot be used: version 3's document does not have the digest published with it (docs/rules.md#a-version-that-fails-verification)",
        "1 alarm in ALARM: DlqNotEmpty-1a2b3c4",
        "1 alarm of the stage not in CloudWatch: Gone-0000000",
        "the queue's oldest message is 601 s old (its alarm: over 600 s)",
        "2 messages in the DLQ: `rewards dlq stats`",
        "the announcer gave up 1 batch: `rewards grants failures`",
        "the history's writer is behind: the oldest 900 s old (its alarm: over 300 s)",
        "the history's writer gave up 3 batches: `rewards history failures`",
      ],
    });
  });

  it("incomplete when a part could not be read, its reason first; what waits still said", () => {
    const parts: StatusParts = {
      ...READ_ALL,
      dlq: { kind: "unknown", reason: "DLQ_URL is not set" },
      givenUp: { ...READ_ALL.givenUp, history: { kind: "read", batches: 1 } },
    };
    expect(statusVerdictOf(parts)).toEqual({
      verdict: "incomplete",
      reasons: [
        "the DLQ could not be read: DLQ_URL is not set",
        "the history's writer gave up 1 batch: `rewards history failures`",
      ],
    });
  });
});

describe("the report in words", () => {
  it("a part per line, unknown and not-here parts saying why, then the verdict", () => {
    const report = {
      ...READ_ALL,
      ...statusVerdictOf(READ_ALL),
      at: "2026-12-05T12:00:00.000Z",
      target: "local" as const,
      stage: null,
      dlq: {
        ...EMPTY_DLQ,
        kind: "read" as const,
        visible: 5,
        inFlight: 2,
        messages: 7,
        read: 5,
        byReason: { stale: 1, invalid_event: 4 },
      },
      consumers: {
        ...READ_ALL.consumers,
        history: {
          kind: "read" as const,
          source: "checkpoint" as const,
          recordsBehind: 1,
          oldestAgeSeconds: 12,
          note: "no checkpoint yet: it has done no batch (not running, or just started)",
        },
      },
      givenUp: {
        announcer: { kind: "unknown" as const, reason: "ANNOUNCER_FAILURE_QUEUE_URL is not set" },
        history: { kind: "read" as const, batches: 2 },
      },
    };
    expect(statusPairs(report)).toEqual({
      stage: "the local stack",
      queue: "0 visible, 0 in flight, 0 delayed",
      "oldest message": "not here: needs CloudWatch, which the local stack does not have",
      DLQ: "7 messages: invalid_event 4, stale 1 (2 not read for the reasons: in flight, delayed or past the 5 read)",
      "announcer's lag": "caught up: 0 records behind",
      "history writer's lag":
        "1 record behind, the oldest 12 s old; no checkpoint yet: it has done no batch (not running, or just started)",
      "announcer gave up": "unknown: ANNOUNCER_FAILURE_QUEUE_URL is not set",
      "history writer gave up": "2 batches",
      alarms: "not here: no CloudWatch on the local stack",
      rules: "version 0 (the built-in rules; nothing published)",
    });
    expect(
      statusPairs({
        ...report,
        rules: { kind: "read", version: 2, publishedAt: "2026-12-05T10:00:00.000Z", digest: "d" },
      }).rules,
    ).toBe("version 2, published 2026-12-05T10:00:00.000Z");
    expect(statusPairs({ ...report, rules: { kind: "read", version: 2, invalid: "gone" } }).rules).toBe(
      "CURRENT cannot be used: gone",
    );
    expect(verdictText({ verdict: "ok", reasons: [] })).toBe(
      "ok: every part read, nothing waits for an operator\n",
    );
    expect(verdictText({ verdict: "incomplete", reasons: ["a", "b"] })).toBe("incomplete:\n- a\n- b\n");
  });

  it("on AWS: the stage, IteratorAge and the alarms in ALARM", () => {
    const report = {
      ...READ_ALL,
      verdict: "attention" as const,
      reasons: [],
      at: "2026-12-05T12:00:00.000Z",
      target: "aws" as const,
      stage: "production",
      oldestMessage: { kind: "read" as const, ageSeconds: 42 },
      consumers: {
        announcer: {
          kind: "read" as const,
          source: "cloudwatch" as const,
          recordsBehind: null,
          oldestAgeSeconds: 3,
        },
        history: {
          kind: "read" as const,
          source: "cloudwatch" as const,
          recordsBehind: null,
          oldestAgeSeconds: null,
          note: "no IteratorAge in the last 10 minutes",
        },
      },
      alarms: {
        kind: "read" as const,
        alarms: 15,
        inAlarm: [{ name: "HistoryBehind-0a1b2c3", reason: "r", since: "2026-12-05T11:50:00.000Z" }],
        missing: [],
      },
    };
    expect(statusPairs(report)).toMatchObject({
      stage: "AWS, production",
      "oldest message": "42 s",
      "announcer's lag": "the oldest record not done 3 s old (IteratorAge)",
      "history writer's lag": "unknown age; no IteratorAge in the last 10 minutes",
      alarms: "1 of 15 in ALARM: HistoryBehind-0a1b2c3 (since 2026-12-05T11:50:00.000Z)",
    });
    expect(statusPairs({ ...report, alarms: { ...report.alarms, inAlarm: [] } }).alarms).toBe(
      "none of 15 in ALARM",
    );
  });
});

describe("stageAlarmsOf", () => {
  it("those in ALARM by name, with CloudWatch's reason and since when; names CloudWatch does not know", () => {
    const since = new Date("2026-12-05T11:00:00Z");
    expect(
      stageAlarmsOf(
        ["WorkerErrors-1", "DlqNotEmpty-2", "QueueBacklogOld-3", "Deleted-4", "ReadApiSlow-5"],
        [
          {
            AlarmName: "WorkerErrors-1",
            StateValue: "ALARM",
            StateReason: "w",
            StateUpdatedTimestamp: since,
          },
          { AlarmName: "DlqNotEmpty-2", StateValue: "ALARM", StateReason: "d" },
          { AlarmName: "QueueBacklogOld-3", StateValue: "OK" },
          // Too few datapoints to judge is not firing.
          { AlarmName: "ReadApiSlow-5", StateValue: "INSUFFICIENT_DATA" },
        ],
      ),
    ).toEqual({
      alarms: 4,
      inAlarm: [
        { name: "DlqNotEmpty-2", reason: "d", since: null },
        { name: "WorkerErrors-1", reason: "w", since: "2026-12-05T11:00:00.000Z" },
      ],
      missing: ["Deleted-4"],
    });
  });
});

/** An SQS client whose queues hold `counts` (visible, in flight, delayed) and nothing to receive. */
function countingSqs(counts: Record<string, [number, number, number]>, sent: unknown[] = []): SQSClient {
  return {
    async send(command: unknown) {
      sent.push(command);
      if (command instanceof GetQueueAttributesCommand) {
        const queue = counts[command.input.QueueUrl as string];
        if (queue === undefined)
          throw Object.assign(new Error("no such queue"), { name: "QueueDoesNotExist" });
        const [visible, inFlight, delayed] = queue;
        return {
          Attributes: {
            ApproximateNumberOfMessages: String(visible),
            ApproximateNumberOfMessagesNotVisible: String(inFlight),
            ApproximateNumberOfMessagesDelayed: String(delayed),
          },
        };
      }
      if (command instanceof ReceiveMessageCommand) return { Messages: [] };
      if (command instanceof ChangeMessageVisibilityBatchCommand) return { Successful: [], Failed: [] };
      throw new Error(`unexpected ${(command as object).constructor.name}`);
    },
  } as unknown as SQSClient;
}

/** CloudWatch answering IteratorAge per function, the queue's age, and the alarms' states. */
function fakeCloudWatch(
  iteratorAgeMs: Record<string, number | undefined>,
  asked: unknown[],
): CloudWatchClient {
  return {
    async send(command: unknown) {
      asked.push(command);
      if (command instanceof GetMetricDataCommand) {
        const metric = command.input.MetricDataQueries?.[0]?.MetricStat?.Metric;
        const value =
          metric?.MetricName === "IteratorAge"
            ? iteratorAgeMs[metric.Dimensions?.[0]?.Value ?? ""]
            : metric?.MetricName === "ApproximateAgeOfOldestMessage"
              ? 42
              : undefined;
        return { MetricDataResults: [{ Values: value === undefined ? [] : [value] }] };
      }
      if (command instanceof DescribeAlarmsCommand)
        return {
          MetricAlarms: (command.input.AlarmNames ?? []).map((name) => ({
            AlarmName: name,
            StateValue: name.startsWith("HistoryBehind") ? "ALARM" : "OK",
            StateReason: "Threshold Crossed",
          })),
        };
      throw new Error(`unexpected ${(command as object).constructor.name}`);
    },
  } as unknown as CloudWatchClient;
}

const unused = <T>() =>
  ({
    send: async () => {
      throw new Error("not expected");
    },
  }) as unknown as T;

describe("readStatus on AWS, with fake clients", () => {
  const sources = (cloudwatch: CloudWatchClient, sqs: SQSClient): StatusSources => ({
    sqs,
    // Only CURRENT is read from the table: none (nothing published).
    dynamo: { send: async () => ({}) } as unknown as DynamoDBDocumentClient,
    streams: unused<DynamoDBStreamsClient>(),
    cloudwatch,
    stage: "production",
    queueUrl: "https://sqs/q",
    dlqUrl: "https://sqs/dlq",
    tableName: "t",
    failureQueueUrls: { announcer: "https://sqs/af", history: "https://sqs/hf" },
    checkpointFiles: { announcer: undefined, history: undefined },
    functionNames: { announcer: "rewards-production-Announcer", history: "rewards-production-History" },
    alarmNames: ["DlqNotEmpty-1", "HistoryBehind-2"],
  });

  it("reads each part from its place: IteratorAge by function name, the stage's alarms by name", async () => {
    const asked: unknown[] = [];
    const sqs = countingSqs({
      "https://sqs/q": [3, 1, 0],
      "https://sqs/dlq": [0, 0, 0],
      "https://sqs/af": [0, 0, 0],
      "https://sqs/hf": [1, 1, 0],
    });
    const report = await readStatus(
      sources(
        fakeCloudWatch(
          { "rewards-production-Announcer": 1500, "rewards-production-History": 420_000 },
          asked,
        ),
        sqs,
      ),
      NOW,
    );
    expect(report).toMatchObject({
      target: "aws",
      stage: "production",
      at: "2026-12-05T12:00:00.000Z",
      queue: { kind: "read", visible: 3, inFlight: 1, delayed: 0 },
      oldestMessage: { kind: "read", ageSeconds: 42 },
      consumers: {
        announcer: { kind: "read", source: "cloudwatch", recordsBehind: null, oldestAgeSeconds: 1 },
        history: { kind: "read", source: "cloudwatch", recordsBehind: null, oldestAgeSeconds: 420 },
      },
      givenUp: { announcer: { kind: "read", batches: 0 }, history: { kind: "read", batches: 2 } },
      alarms: { kind: "read", alarms: 2, inAlarm: [{ name: "HistoryBehind-2" }], missing: [] },
      rules: { kind: "read", version: 0, publishedAt: null },
      verdict: "attention",
    });
    expect(report.reasons).toEqual([
      "1 alarm in ALARM: HistoryBehind-2",
      "the history's writer is behind: the oldest 420 s old (its alarm: over 300 s)",
      "the history's writer gave up 2 batches: `rewards history failures`",
    ]);
    const describe = asked.find((c) => c instanceof DescribeAlarmsCommand) as DescribeAlarmsCommand;
    expect(describe.input.AlarmNames).toEqual(["DlqNotEmpty-1", "HistoryBehind-2"]);
  });

  it("a part that cannot be read is unknown with its reason, never a 0, and the rest is still read", async () => {
    const sqs = countingSqs({
      "https://sqs/q": [0, 0, 0],
      "https://sqs/dlq": [0, 0, 0],
      "https://sqs/af": [0, 0, 0],
    });
    const report = await readStatus(
      {
        ...sources(fakeCloudWatch({}, []), sqs),
        functionNames: { announcer: undefined, history: "h" },
        alarmNames: undefined,
      },
      NOW,
    );
    expect(report.verdict).toBe("incomplete");
    expect(report.consumers.announcer).toEqual({
      kind: "unknown",
      reason:
        "ANNOUNCER_FUNCTION_NAME is not set (`rewards env` exports a stage's; a stage deployed before it was an output has none: deploy it again)",
    });
    expect(report.consumers.history).toMatchObject({ kind: "read", oldestAgeSeconds: null });
    expect(report.givenUp.history).toEqual({ kind: "unknown", reason: "QueueDoesNotExist: no such queue" });
    expect(report.alarms).toMatchObject({
      kind: "unknown",
      reason: expect.stringMatching(/^REWARDS_ALARM_NAMES is not set/),
    });
    expect(report.queue).toEqual({ kind: "read", visible: 0, inFlight: 0, delayed: 0 });
  });
});

describe("statusSourcesFor", () => {
  it("an endpoint variable means the local stack (no CloudWatch); none means AWS", () => {
    const local = statusSourcesFor({
      AWS_REGION: "us-east-1",
      AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:1",
    });
    expect(local.cloudwatch).toBeUndefined();
    // As `rewards env` exports them: the alarms' names in one variable, comma-separated.
    const aws = statusSourcesFor(
      toolConfigFrom({
        AWS_REGION: "eu-west-1",
        REWARDS_ALARM_NAMES: "A-1, B-2,",
        ANNOUNCER_FUNCTION_NAME: "a",
      }),
    );
    expect(aws.cloudwatch).toBeDefined();
    expect(aws).toMatchObject({
      alarmNames: ["A-1", "B-2"],
      functionNames: { announcer: "a", history: undefined },
    });
  });
});

describe("historyLagOf: a reader's profile against their history", () => {
  it("says how many awards the history lacks, or holds past the profile's count", () => {
    expect(historyLagOf(5, 2)).toEqual({
      kind: "awardsMissing",
      missing: 3,
      profileAwards: 5,
      historyAwards: 2,
    });
    expect(historyLagOf(1, 3)).toEqual({
      kind: "revocationsMissing",
      extra: 2,
      profileAwards: 1,
      historyAwards: 3,
    });
    expect(historyLagOf(4, 4)).toEqual({ kind: "inStep", profileAwards: 4, historyAwards: 4 });
    expect(historyLagLine(historyLagOf(3, 0))).toBe(
      "3 awards not yet in the history: its writer is behind (`rewards status`)",
    );
    expect(historyLagLine(historyLagOf(1, 0))).toBe(
      "1 award not yet in the history: its writer is behind (`rewards status`)",
    );
    expect(historyLagLine(historyLagOf(0, 1))).toBe(
      "1 award more in the history than the profile counts: a revocation not in it yet, or a count to repair",
    );
    expect(historyLagLine(historyLagOf(2, 2))).toBeUndefined();
  });
});

describe("oldestMessageAge (`queue stats`), over the same CloudWatch read as status", () => {
  const answering = (answer: () => Promise<unknown>) => ({ send: answer }) as unknown as CloudWatchClient;
  it("the queue's latest minute, or why not in words", async () => {
    const asked: unknown[] = [];
    expect(
      await oldestMessageAge(fakeCloudWatch({}, asked), "https://sqs/123/rewards-events", new Date(NOW)),
    ).toEqual({
      seconds: 42,
    });
    const query = (asked[0] as GetMetricDataCommand).input;
    expect(query.MetricDataQueries?.[0]?.MetricStat?.Metric?.Dimensions).toEqual([
      { Name: "QueueName", Value: "rewards-events" },
    ]);
    expect(query.StartTime).toEqual(new Date(NOW - 10 * 60_000));
    expect(
      await oldestMessageAge(
        answering(async () => ({ MetricDataResults: [] })),
        "https://sqs/q",
      ),
    ).toEqual({
      unknown: "no datapoint in the last 10 minutes",
    });
    const denied = answering(async () => {
      throw Object.assign(new Error("no"), { name: "AccessDenied" });
    });
    expect(await oldestMessageAge(denied, "https://sqs/q")).toEqual({
      unknown: "CloudWatch unavailable here (AccessDenied)",
    });
  });
});
