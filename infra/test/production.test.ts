import { resources } from "@rewards/core/deploy";
import { beforeAll, describe, expect, it } from "vitest";
import { all, expectNothingElse, named, one, roleStatements, WORKER } from "./helpers";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

/** The SST app for the `production` stage, run under Pulumi mocks: the resource graph as deployed. */
let run: ProgramRun;

beforeAll(async () => {
  run = await runSstProgram("production");
});

const queueNamed = (fragment: string) => one(run, "aws:sqs/queue:Queue", `${fragment}Queue`);
const mapping = () => named(run, "aws:lambda/eventSourceMapping:EventSourceMapping", WORKER);
const lambda = () => named(run, "aws:lambda/function:Function", WORKER);

describe("production: data safety", () => {
  it("the table is retained and protected: removal retain, stage protected, deletion protection on", () => {
    expect(run.app).toMatchObject({ removal: "retain", protect: true });
    expect(run.outputs._protect).toBe(true);
    expect(one(run, "aws:dynamodb/table:Table").inputs).toMatchObject({
      deletionProtectionEnabled: true,
      pointInTimeRecovery: { enabled: true },
      billingMode: "PAY_PER_REQUEST",
      hashKey: "pk",
      rangeKey: "sk",
      ttl: { attributeName: "expiresAt", enabled: true },
    });
  });

  it("both queues are encrypted (SQS-managed SSE), set explicitly", () => {
    expect(queueNamed("Events").inputs.sqsManagedSseEnabled).toBe(true);
    expect(queueNamed("EventsDlq").inputs.sqsManagedSseEnabled).toBe(true);
  });
});

describe("production: delivery and limits", () => {
  it("partial batch responses, batches of 10 with a 1 s window, and a concurrency cap", () => {
    expect(mapping().inputs).toMatchObject({
      functionResponseTypes: ["ReportBatchItemFailures"],
      batchSize: 10,
      maximumBatchingWindowInSeconds: 1,
      scalingConfig: { maximumConcurrency: resources.worker.maximumConcurrency },
      eventSourceArn: expect.stringMatching(/EventsQueue$/),
    });
  });

  it("visibility timeout ≥ 6 × function timeout + batch window, with headroom", () => {
    const visibility = queueNamed("Events").inputs.visibilityTimeoutSeconds as number;
    const timeout = lambda().inputs.timeout as number;
    const window = mapping().inputs.maximumBatchingWindowInSeconds as number;
    expect(timeout).toBe(30);
    expect(visibility).toBeGreaterThan(6 * timeout + window);
    expect(visibility).toBe(211);
  });

  it("redrive to the DLQ after 5 receives; the DLQ keeps messages longer than the queue", () => {
    const events = queueNamed("Events").inputs;
    const dlq = queueNamed("EventsDlq").inputs;
    expect(JSON.parse(events.redrivePolicy as string)).toEqual({
      deadLetterTargetArn: expect.stringMatching(/EventsDlqQueue$/),
      maxReceiveCount: 5,
    });
    expect(dlq.messageRetentionSeconds as number).toBeGreaterThan(events.messageRetentionSeconds as number);
    expect(dlq.messageRetentionSeconds).toBe(14 * 86_400);
  });

  it("the worker: the fixed handler path, Node 22, 512 MB, names in its environment, logs kept a month", () => {
    const build = run.rpcCalls.find(
      (c) => c.method === "Runtime.Build" && c.args.handler === "packages/worker/src/handler.handler",
    )?.args;
    expect(build).toMatchObject({ handler: "packages/worker/src/handler.handler" });
    // The build npm run build:function makes, and the tests run: ESM, minified, node22, nothing external.
    expect(build?.properties).toEqual({
      format: "esm",
      minify: true,
      sourcemap: false,
      esbuild: { target: "node22", external: [] },
      architecture: "x86_64",
    });
    expect(lambda().inputs).toMatchObject({ runtime: "nodejs22.x", memorySize: 512, timeout: 30 });
    const variables = (lambda().inputs.environment as { variables: Record<string, string> }).variables;
    expect(variables).toMatchObject({
      TABLE_NAME: expect.stringMatching(/RewardsTable/),
      DLQ_URL: expect.stringMatching(/EventsDlqQueue$/),
      REWARDS_CONCURRENCY: "100",
      LOG_LEVEL: "info",
      // No REWARDS_RULES_REFRESH_SECONDS for this stage: the default.
      REWARDS_RULES_REFRESH_SECONDS: "30",
    });
    // No cap set for this stage: the variable is not there at all.
    expect(variables).not.toHaveProperty("REWARDS_DAILY_XP_CAP");
    // No `link`: nothing of the table or the DLQ reaches the function as an SST resource.
    expect(Object.keys(variables).filter((k) => /^SST_RESOURCE_(Rewards|Events)/.test(k))).toEqual([]);
    expect(named(run, "aws:cloudwatch/logGroup:LogGroup", WORKER).inputs.retentionInDays).toBe(30);
  });
});

describe("production: least privilege", () => {
  it("the worker role holds exactly these actions on exactly these resources, and no wildcard", () => {
    const statements = roleStatements(run, WORKER);
    expect(statements).toEqual([
      {
        Effect: "Allow",
        Action: [
          "sqs:ChangeMessageVisibility",
          "sqs:DeleteMessage",
          "sqs:GetQueueAttributes",
          "sqs:GetQueueUrl",
          "sqs:ReceiveMessage",
        ],
        Resource: [expect.stringMatching(/Queue\/EventsQueue$/)],
      },
      {
        Effect: "Allow",
        Action: ["dynamodb:PutItem", "dynamodb:UpdateItem"],
        Resource: [expect.stringMatching(/Table\/RewardsTable$/)],
      },
      {
        // The site's rules (docs/rules.md#at-run-time): `CURRENT`, a `V#` item, the last version —
        // every key read by its leading key, which must be RULES: nothing else of the table.
        Effect: "Allow",
        Action: ["dynamodb:GetItem", "dynamodb:Query"],
        Resource: [expect.stringMatching(/Table\/RewardsTable$/)],
        Condition: { "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": ["RULES"] } },
      },
      {
        Effect: "Allow",
        Action: ["sqs:SendMessage"],
        Resource: [expect.stringMatching(/Queue\/EventsDlqQueue$/)],
      },
    ]);
    expectNothingElse(run, WORKER);
  });
});

describe("production: alarms and outputs", () => {
  it("alarms on the DLQ, the backlog's age, the worker's errors and throttles, its failed and parked metrics, the rules it refused or lacks, and the announcer", () => {
    const alarms = Object.fromEntries(
      all(run, "aws:cloudwatch/metricAlarm:MetricAlarm").map((a) => [a.name, a.inputs]),
    );
    expect(Object.keys(alarms).sort()).toEqual([
      "AnnouncerBehind",
      "AnnouncerGaveUp",
      "DlqNotEmpty",
      "HistoryBehind",
      "HistoryErrors",
      "HistoryGaveUp",
      "MessagesFailing",
      "MessagesParked",
      "NoGoodRules",
      "QueueBacklogOld",
      "ReadApiErrors",
      "ReadApiFailing",
      "ReadApiSlow",
      "ReadApiThrottled",
      "RulesRejected",
      "WorkerErrors",
      "WorkerThrottles",
    ]);
    expect(alarms.DlqNotEmpty).toMatchObject({
      namespace: "AWS/SQS",
      metricName: "ApproximateNumberOfMessagesVisible",
      dimensions: { QueueName: expect.stringMatching(/EventsDlqQueue/) },
      threshold: 0,
      comparisonOperator: "GreaterThanThreshold",
    });
    expect(alarms.QueueBacklogOld).toMatchObject({
      metricName: "ApproximateAgeOfOldestMessage",
      threshold: 600,
    });
    expect(alarms.WorkerErrors).toMatchObject({ namespace: "AWS/Lambda", metricName: "Errors" });
    expect(alarms.WorkerThrottles).toMatchObject({ namespace: "AWS/Lambda", metricName: "Throttles" });
    expect(alarms.MessagesFailing).toMatchObject({
      namespace: "Rewards",
      metricName: "failed",
      dimensions: { service: "rewards-worker" },
      evaluationPeriods: 5,
    });
    expect(alarms.MessagesParked).toMatchObject({
      namespace: "Rewards",
      metricName: "parked",
      evaluationPeriods: 1,
    });
    // The site's rules (docs/rules.md#at-run-time): the worker's counts, each at once (one minute).
    for (const [name, metricName] of [
      ["RulesRejected", "rulesRejected"],
      ["NoGoodRules", "noRules"],
    ])
      expect(alarms[name as string]).toMatchObject({
        namespace: "Rewards",
        metricName,
        dimensions: { service: "rewards-worker", stage: "production" },
        statistic: "Sum",
        comparisonOperator: "GreaterThanThreshold",
        threshold: 0,
        period: 60,
        evaluationPeriods: 1,
      });
    // Without REWARDS_ALARM_EMAIL: no topic, no actions.
    expect(all(run, "aws:sns/topic:Topic")).toEqual([]);
    expect(alarms.DlqNotEmpty?.alarmActions).toBeUndefined();
  });

  it("outputs what producers and operators need", () => {
    expect(run.outputs).toMatchObject({
      region: "us-east-1",
      queueUrl: expect.stringMatching(/^https:\/\/sqs\./),
      queueArn: expect.stringMatching(/^arn:aws:/),
      dlqUrl: expect.stringMatching(/^https:\/\/sqs\./),
      tableName: expect.stringMatching(/^rewards-production-RewardsTable/),
      busName: expect.stringMatching(/^rewards-production-RewardsBusBus/),
      busArn: expect.stringMatching(/EventBus\/RewardsBusBus$/),
      announcerFailureQueueUrl: expect.stringMatching(/AnnouncerFailuresQueue$/),
      historyFailureQueueUrl: expect.stringMatching(/HistoryFailuresQueue$/),
      // No REWARDS_DAILY_XP_CAP: 0, no cap (`rewards env` then unsets the variable).
      dailyXpCap: 0,
      // No REWARDS_HISTORY_DAYS: the writer's default, which `rewards history rebuild` must use too.
      historyDays: 400,
      // No REWARDS_BOARD_*: the defaults the writer and the read API take.
      boardShards: 32,
      boardWeeks: 8,
      // No REWARDS_RULES_REFRESH_SECONDS: the functions' default.
      rulesRefreshSeconds: 30,
      // What `rewards status` reads the stage by: the stream functions' IteratorAge, its own alarms.
      announcerFunctionName: expect.stringMatching(/Announcer/),
      historyFunctionName: expect.stringMatching(/History/),
    });
    // Every alarm's physical name (here the mocks' name is the resource's; AWS's has SST's suffix).
    const alarms = all(run, "aws:cloudwatch/metricAlarm:MetricAlarm").map((alarm) => alarm.name);
    expect(alarms).toHaveLength(17);
    expect([...(run.outputs.alarmNames as string[])].sort()).toEqual(alarms.sort());
  });
});
