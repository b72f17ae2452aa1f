import { resources } from "@rewards/core/deploy";
import { beforeAll, describe, expect, it } from "vitest";
import { ANNOUNCER, all, expectNothingElse, named, one, roleStatements } from "./helpers";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

/** The announcer's part of the production stage, run under Pulumi mocks. */
let run: ProgramRun;

beforeAll(async () => {
  run = await runSstProgram("production");
});

const table = () => one(run, "aws:dynamodb/table:Table");
const STREAM_ARN = /Table\/RewardsTable\/stream\/[^/]+$/;

describe("awards as events: the stream, the bus, the announcer", () => {
  it("the table's stream shows each item as written (NEW_IMAGE): all the announcer reads", () => {
    expect(table().inputs).toMatchObject({ streamEnabled: true, streamViewType: "NEW_IMAGE" });
  });

  it("one EventBridge bus, named in the outputs", () => {
    const bus = one(run, "aws:cloudwatch/eventBus:EventBus");
    expect(bus.name).toBe("RewardsBusBus");
    expect(run.outputs.busName).toBe(bus.inputs.name);
    expect(run.outputs.busArn).toMatch(/EventBus\/RewardsBusBus$/);
  });

  it("the announcer: the fixed handler path, Node 22, 256 MB, 30 s, BUS_NAME in its environment, logs kept a month", () => {
    const build = run.rpcCalls.find(
      (c) => c.method === "Runtime.Build" && c.args.handler === "packages/announcer/src/handler.handler",
    )?.args;
    expect(build?.properties).toEqual({
      format: "esm",
      minify: true,
      sourcemap: false,
      esbuild: { target: "node22", external: [] },
      architecture: "x86_64",
    });
    const fn = named(run, "aws:lambda/function:Function", ANNOUNCER);
    expect(fn.inputs).toMatchObject({ runtime: "nodejs22.x", memorySize: 256, timeout: 30 });
    const variables = (fn.inputs.environment as { variables: Record<string, string> }).variables;
    expect(variables).toMatchObject({ BUS_NAME: run.outputs.busName, LOG_LEVEL: "info" });
    expect(Object.keys(variables).filter((k) => /^SST_RESOURCE_(Rewards|Announcer)/.test(k))).toEqual([]);
    expect(named(run, "aws:cloudwatch/logGroup:LogGroup", ANNOUNCER).inputs.retentionInDays).toBe(30);
  });

  it("its mapping: the stream, the guard and achievement filters, batches of 100 bisected on error, 10 retries, 6 h of age, failures to their queue", () => {
    const mapping = named(run, "aws:lambda/eventSourceMapping:EventSourceMapping", ANNOUNCER);
    expect(mapping.inputs).toEqual({
      eventSourceArn: expect.stringMatching(STREAM_ARN),
      functionName: expect.stringMatching(/Function\/RewardsSubscriberAnnouncerFunctionFunction$/),
      filterCriteria: {
        filters: [
          {
            pattern: JSON.stringify({
              eventName: ["INSERT", "MODIFY"],
              dynamodb: { Keys: { sk: { S: ["IDEM"] } } },
            }),
          },
          {
            pattern: JSON.stringify({
              eventName: ["INSERT"],
              dynamodb: { Keys: { sk: { S: [{ prefix: "ACHIEVEMENT#" }] } } },
            }),
          },
        ],
      },
      startingPosition: "TRIM_HORIZON",
      batchSize: 100,
      bisectBatchOnFunctionError: true,
      maximumRetryAttempts: 10,
      maximumRecordAgeInSeconds: 21_600,
      functionResponseTypes: ["ReportBatchItemFailures"],
      destinationConfig: {
        onFailure: { destinationArn: expect.stringMatching(/Queue\/AnnouncerFailuresQueue$/) },
      },
    });
    // Given up after 6 hours at most: 18 of the stream's 24 hours remain to replay from it.
    expect(resources.announcer.maximumRecordAgeSeconds).toBeLessThan(24 * 3600);
  });

  it("its failure queue is encrypted and keeps records 14 days", () => {
    expect(one(run, "aws:sqs/queue:Queue", "AnnouncerFailuresQueue").inputs).toMatchObject({
      sqsManagedSseEnabled: true,
      messageRetentionSeconds: 14 * 86_400,
    });
  });

  it("its role: read that stream, put events on that bus, send to that queue — nothing else, no wildcard", () => {
    const statements = roleStatements(run, ANNOUNCER);
    expect(statements).toEqual([
      {
        Effect: "Allow",
        Action: [
          "dynamodb:DescribeStream",
          "dynamodb:GetRecords",
          "dynamodb:GetShardIterator",
          "dynamodb:ListStreams",
        ],
        Resource: [expect.stringMatching(STREAM_ARN)],
      },
      {
        Effect: "Allow",
        Action: ["events:PutEvents"],
        Resource: [expect.stringMatching(/EventBus\/RewardsBusBus$/)],
      },
      {
        Effect: "Allow",
        Action: ["sqs:SendMessage"],
        Resource: [expect.stringMatching(/Queue\/AnnouncerFailuresQueue$/)],
      },
    ]);
    expectNothingElse(run, ANNOUNCER);
  });

  it("alarms when it falls behind the stream, and when it gives a batch up", () => {
    const alarms = Object.fromEntries(
      all(run, "aws:cloudwatch/metricAlarm:MetricAlarm").map((a) => [a.name, a.inputs]),
    );
    expect(alarms.AnnouncerBehind).toMatchObject({
      namespace: "AWS/Lambda",
      metricName: "IteratorAge",
      dimensions: { FunctionName: expect.stringMatching(/RewardsSubscriberAnnouncerFunction/) },
      statistic: "Maximum",
      threshold: 300_000,
      period: 60,
      evaluationPeriods: 3,
      comparisonOperator: "GreaterThanThreshold",
    });
    expect(alarms.AnnouncerGaveUp).toMatchObject({
      namespace: "AWS/SQS",
      metricName: "ApproximateNumberOfMessagesVisible",
      dimensions: { QueueName: expect.stringMatching(/AnnouncerFailuresQueue/) },
      threshold: 0,
      evaluationPeriods: 1,
    });
  });
});
