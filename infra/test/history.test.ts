import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resources } from "@rewards/core/deploy";
import { beforeAll, describe, expect, it } from "vitest";
import { deploySettings } from "../deploySettings";
import { all, expectNothingElse, HISTORY, named, one, roleStatements } from "./helpers";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

/** The history writer's part of the production stage, run under Pulumi mocks: with no settings, and with REWARDS_HISTORY_DAYS 0. */
let run: ProgramRun;
let forever: ProgramRun;

beforeAll(async () => {
  run = await runSstProgram("production");
  const dir = await mkdtemp(join(tmpdir(), "rewards-history-"));
  const file = join(dir, "production.json");
  await writeFile(file, JSON.stringify({ REWARDS_HISTORY_DAYS: 0 }));
  forever = await runSstProgram("production", { REWARDS_STAGE_SETTINGS: file });
});

const STREAM_ARN = /Table\/RewardsTable\/stream\/[^/]+$/;
const TABLE_ARN = /Table\/RewardsTable$/;
const variables = (r: ProgramRun) =>
  (
    named(r, "aws:lambda/function:Function", HISTORY).inputs.environment as {
      variables: Record<string, string>;
    }
  ).variables;

describe("the reader's history: a third function on the table's stream", () => {
  it("the history writer: the fixed handler path, the shared build, Node 22, logs kept a month", () => {
    const build = run.rpcCalls.find(
      (c) => c.method === "Runtime.Build" && c.args.handler === "packages/history/src/handler.handler",
    )?.args;
    expect(build?.properties).toEqual({
      format: "esm",
      minify: true,
      sourcemap: false,
      esbuild: { target: "node22", external: [] },
      architecture: "x86_64",
    });
    const fn = named(run, "aws:lambda/function:Function", HISTORY);
    expect(fn.inputs).toMatchObject({
      runtime: "nodejs22.x",
      memorySize: resources.history.memoryMb,
      timeout: resources.history.timeoutSeconds,
    });
    expect(named(run, "aws:cloudwatch/logGroup:LogGroup", HISTORY).inputs.retentionInDays).toBe(30);
  });

  it("its environment: TABLE_NAME, the stage, REWARDS_HISTORY_DAYS (400 unless the stage says), the board's two, the rules' refresh, LOG_LEVEL, and nothing of SST's links", () => {
    const vars = variables(run);
    expect(vars).toMatchObject({
      TABLE_NAME: run.outputs.tableName,
      REWARDS_HISTORY_DAYS: "400",
      REWARDS_BOARD_WEEKS: "8",
      REWARDS_BOARD_SHARDS: "32",
      REWARDS_STAGE: run.outputs.stage,
      REWARDS_RULES_REFRESH_SECONDS: "30",
      LOG_LEVEL: "info",
    });
    expect(
      Object.keys(vars)
        .filter((k) => !k.startsWith("SST_"))
        .sort(),
    ).toEqual([
      "LOG_LEVEL",
      "REWARDS_BOARD_SHARDS",
      "REWARDS_BOARD_WEEKS",
      "REWARDS_HISTORY_DAYS",
      "REWARDS_RULES_REFRESH_SECONDS",
      "REWARDS_STAGE",
      "TABLE_NAME",
    ]);
    expect(Object.keys(vars).filter((k) => /^SST_RESOURCE_(Rewards|History)/.test(k))).toEqual([]);
    // The stage's setting reaches it (0: kept forever), and only it.
    expect(variables(forever).REWARDS_HISTORY_DAYS).toBe("0");
    const days = all(forever, "aws:lambda/function:Function").map(
      (fn) => (fn.inputs.environment as { variables: Record<string, string> }).variables.REWARDS_HISTORY_DAYS,
    );
    expect(days.filter((d) => d !== undefined)).toEqual(["0"]);
  });

  it("REWARDS_HISTORY_DAYS: a whole number of days, 0 or more; anything else stops the deploy naming it", () => {
    expect(deploySettings({}).historyDays).toBeUndefined();
    expect(deploySettings({ REWARDS_HISTORY_DAYS: "30" }).historyDays).toBe(30);
    expect(deploySettings({ REWARDS_HISTORY_DAYS: "0" }).historyDays).toBe(0);
    for (const bad of ["-1", "1.5", "a year", " "]) {
      expect(() => deploySettings({ REWARDS_HISTORY_DAYS: bad })).toThrow(
        `REWARDS_HISTORY_DAYS must be a whole number of days, 0 or more (0 keeps the history forever), not ${bad}`,
      );
    }
  });

  it("its mapping: the stream, the guard filter, partial batch responses, bisect, retries, age, failures to its own queue", () => {
    const mapping = named(run, "aws:lambda/eventSourceMapping:EventSourceMapping", HISTORY);
    const h = resources.history;
    expect(mapping.inputs).toEqual({
      eventSourceArn: expect.stringMatching(STREAM_ARN),
      functionName: expect.stringMatching(/Function\/RewardsSubscriberHistoryFunctionFunction$/),
      filterCriteria: {
        filters: [
          {
            pattern: JSON.stringify({
              eventName: ["INSERT", "MODIFY"],
              dynamodb: { Keys: { sk: { S: ["IDEM"] } } },
            }),
          },
        ],
      },
      startingPosition: h.startingPosition,
      batchSize: h.batchSize,
      bisectBatchOnFunctionError: true,
      maximumRetryAttempts: h.maximumRetryAttempts,
      maximumRecordAgeInSeconds: h.maximumRecordAgeSeconds,
      functionResponseTypes: ["ReportBatchItemFailures"],
      destinationConfig: {
        onFailure: { destinationArn: expect.stringMatching(/Queue\/HistoryFailuresQueue$/) },
      },
    });
    // A new mapping reads what the stream holds; a record is given up while the stream still has it.
    expect(h.startingPosition).toBe("TRIM_HORIZON");
    expect(h.maximumRecordAgeSeconds).toBeLessThan(24 * 3600);
  });

  it("its failure queue: its own, encrypted, keeping records 14 days, named in the outputs", () => {
    const queue = one(run, "aws:sqs/queue:Queue", "HistoryFailuresQueue");
    expect(queue.inputs).toMatchObject({
      sqsManagedSseEnabled: true,
      messageRetentionSeconds: resources.historyFailureQueue.retentionSeconds,
    });
    expect(run.outputs.historyFailureQueueUrl).toMatch(/HistoryFailuresQueue$/);
  });

  it("its role: read that stream, put/update/batch-get/get that table, send to its queue, get/query the rules by leading key — nothing else, no wildcard", () => {
    expect(roleStatements(run, HISTORY)).toEqual([
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
        Action: ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:BatchGetItem", "dynamodb:GetItem"],
        Resource: [expect.stringMatching(TABLE_ARN)],
      },
      {
        Effect: "Allow",
        Action: ["sqs:SendMessage"],
        Resource: [expect.stringMatching(/Queue\/HistoryFailuresQueue$/)],
      },
      {
        // The site's rules (docs/rules.md#at-run-time), the worker's grant: Query only on pk = RULES.
        Effect: "Allow",
        Action: ["dynamodb:GetItem", "dynamodb:Query"],
        Resource: [expect.stringMatching(TABLE_ARN)],
        Condition: { "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": ["RULES"] } },
      },
    ]);
    expectNothingElse(run, HISTORY);
  });

  it("alarms when it falls behind the stream, when its invocations fail, and when it gives a batch up", () => {
    const alarms = Object.fromEntries(
      all(run, "aws:cloudwatch/metricAlarm:MetricAlarm").map((a) => [a.name, a.inputs]),
    );
    const fn = expect.stringMatching(/RewardsSubscriberHistoryFunction/);
    expect(alarms.HistoryBehind).toMatchObject({
      namespace: "AWS/Lambda",
      metricName: "IteratorAge",
      dimensions: { FunctionName: fn },
      statistic: "Maximum",
      threshold: 300_000,
      period: 60,
      evaluationPeriods: 3,
      comparisonOperator: "GreaterThanThreshold",
    });
    expect(alarms.HistoryErrors).toMatchObject({
      namespace: "AWS/Lambda",
      metricName: "Errors",
      dimensions: { FunctionName: fn },
      statistic: "Sum",
      threshold: 0,
      period: 60,
      evaluationPeriods: 1,
      comparisonOperator: "GreaterThanThreshold",
    });
    // A partial batch response is never in Errors: its failure queue is where a given-up batch shows.
    expect(alarms.HistoryGaveUp).toMatchObject({
      namespace: "AWS/SQS",
      metricName: "ApproximateNumberOfMessagesVisible",
      dimensions: { QueueName: expect.stringMatching(/HistoryFailuresQueue/) },
      statistic: "Maximum",
      threshold: 0,
      period: 60,
      evaluationPeriods: 1,
      comparisonOperator: "GreaterThanThreshold",
    });
    expect(alarms.HistoryGaveUp?.alarmDescription).toContain("`rewards history replay`");
  });
});
