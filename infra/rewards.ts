import {
  announcerEnvironment,
  DEFAULT_BOARD_SHARDS,
  DEFAULT_BOARD_WEEKS,
  DEFAULT_HISTORY_DAYS,
  historyEnvironment,
  readApiEnvironment,
  resources,
  workerEnvironment,
} from "@rewards/core/deploy";
import { alarmSpecs } from "./alarmSpecs";
import { announcerPermissions } from "./announcerPermissions";
import { consumerAccess } from "./consumerAccess";
import { dashboardName, dashboardSpec, dashboardUrl } from "./dashboardSpec";
import { deploySettings, stageOptions } from "./deploySettings";
import { type FunctionName, functionEntries, sstNodejsOptions } from "./functionBuild";
import { historyPermissions } from "./historyPermissions";
import { producerAccess } from "./producerAccess";
import { boardIndexArn, readApiPermissions } from "./readApiPermissions";
import { readerAccess } from "./readerAccess";
import { workerPermissions } from "./workerPermissions";

const seconds = (n: number) => `${n} seconds` as const;

/** The log group a function writes to: the one SST created for it (logging.retention). */
const logGroupOf = (fn: sst.aws.Function) => fn.nodes.function.loggingConfig.logGroup;

/**
 * SST's spelling of an index's projection for DynamoDB's (resources.ts keeps DynamoDB's, as the
 * local stack's CreateTable takes it). A projection not here fails the type check, not a deploy.
 */
const sstProjection = { KEYS_ONLY: "keys-only" } as const;

/**
 * What the functions' SST definitions share: the same build as `npm run build:function`
 * (whose bundles the tests run), and their runtime, timeout, memory and log retention.
 */
function functionSettings(
  name: FunctionName,
  spec: {
    runtime: typeof resources.worker.runtime;
    timeoutSeconds: number;
    memoryMb: number;
    logRetention: typeof resources.worker.logRetention;
  },
) {
  return {
    handler: functionEntries[name].handler,
    nodejs: sstNodejsOptions(),
    runtime: spec.runtime,
    timeout: seconds(spec.timeoutSeconds),
    memory: `${spec.memoryMb} MB` as const,
    logging: { retention: spec.logRetention },
  };
}

/**
 * Everything the system needs on AWS: the events queue and its DLQ (both encrypted), the
 * table (TTL, point-in-time recovery, its stream, the board's index; deletion protection and
 * retention on production), the worker with least-privilege permissions and a concurrency cap,
 * the announcer on the table's stream publishing reward.granted to the rewards bus (its
 * given-up batches to a failure queue), the history writer on the same stream writing each
 * award's history item and its week item (its given-up batches to a failure queue of its own),
 * the read API (a function URL with IAM auth, read-only on the table and the board's index,
 * invocable by the stage's reader principals), alarms, and the operator's dashboard.
 */
export function createRewards() {
  const {
    table,
    queue,
    deadLetterQueue,
    redrive,
    worker,
    announcer,
    announcerFailureQueue,
    history,
    historyFailureQueue,
    readApi,
  } = resources;
  const production = $app.stage === "production";
  // The stage's settings file (infra/stages/<stage>.json) if it has one; production must.
  const settings = deploySettings(process.env, stageOptions($app.stage, $cli.paths.root));

  const { boardIndex } = table;
  const rewardsTable = new sst.aws.Dynamo("Rewards", {
    fields: {
      [table.partitionKey]: "string",
      [table.sortKey]: "string",
      [boardIndex.partitionKey]: "string",
      [boardIndex.sortKey]: "string",
    },
    primaryIndex: { hashKey: table.partitionKey, rangeKey: table.sortKey },
    // The week's board (docs/board.md): sparse, since only week items carry its keys.
    globalIndexes: {
      [boardIndex.name]: {
        hashKey: boardIndex.partitionKey,
        rangeKey: boardIndex.sortKey,
        projection: sstProjection[boardIndex.projection],
      },
    },
    ttl: table.ttlAttribute,
    // The announcer reads each award's guard from the stream (resources.table.streamViewType).
    stream: "new-image",
    deletionProtection: production,
    // On-demand capacity is the component's default (PAY_PER_REQUEST); PITR is set explicitly.
    transform: { table: { pointInTimeRecovery: { enabled: true } } },
  });

  const dlq = new sst.aws.Queue("EventsDlq", {
    transform: {
      queue: { messageRetentionSeconds: deadLetterQueue.retentionSeconds, sqsManagedSseEnabled: true },
    },
  });

  const events = new sst.aws.Queue("Events", {
    visibilityTimeout: seconds(queue.visibilityTimeoutSeconds),
    dlq: { queue: dlq.arn, retry: redrive.maxReceiveCount },
    transform: {
      queue: {
        messageRetentionSeconds: queue.retentionSeconds,
        receiveWaitTimeSeconds: queue.receiveWaitTimeSeconds,
        sqsManagedSseEnabled: true,
      },
    },
  });

  const subscriber = events.subscribe(
    {
      ...functionSettings("worker", worker),
      // Explicit permissions and names in the environment instead of `link`.
      permissions: workerPermissions(rewardsTable.arn, dlq.arn),
      // The same variables the local function runtime sets (workerEnvironment).
      environment: workerEnvironment(
        { tableName: rewardsTable.name, dlqUrl: dlq.url },
        {
          stage: $app.stage,
          dailyCap: settings.dailyCap,
          rulesRefreshSeconds: settings.rulesRefreshSeconds,
        },
      ),
    },
    {
      batch: {
        size: worker.batchSize,
        window: seconds(worker.maximumBatchingWindowSeconds),
        partialResponses: true,
      },
      transform: {
        eventSourceMapping: { scalingConfig: { maximumConcurrency: settings.maximumConcurrency } },
      },
    },
  );

  producerAccess({ arn: events.arn, url: events.url }, settings);

  // Awards as events: the bus consumers write rules on, and where given-up batches go.
  const bus = new sst.aws.Bus("RewardsBus");
  consumerAccess({ name: bus.name }, settings);
  const announcerFailures = new sst.aws.Queue("AnnouncerFailures", {
    transform: {
      queue: { messageRetentionSeconds: announcerFailureQueue.retentionSeconds, sqsManagedSseEnabled: true },
    },
  });
  const announcerSubscriber = rewardsTable.subscribe(
    "Announcer",
    {
      ...functionSettings("announcer", announcer),
      permissions: announcerPermissions(bus.arn, announcerFailures.arn),
      environment: announcerEnvironment({ busName: bus.name }, { stage: $app.stage }),
    },
    {
      // Only guard INSERTs and MODIFYs, and achievements' INSERTs, reach the function (the same
      // filters the local source applies; Lambda delivers a record that matches any one).
      filters: [...announcer.filterPatterns],
      transform: {
        eventSourceMapping: {
          batchSize: announcer.batchSize,
          startingPosition: announcer.startingPosition,
          bisectBatchOnFunctionError: announcer.bisectBatchOnFunctionError,
          maximumRetryAttempts: announcer.maximumRetryAttempts,
          maximumRecordAgeInSeconds: announcer.maximumRecordAgeSeconds,
          functionResponseTypes: ["ReportBatchItemFailures"],
          destinationConfig: { onFailure: { destinationArn: announcerFailures.arn } },
        },
      },
    },
  );

  // The reader's history (docs/history.md): a consumer of its own on the stream, writing one item per award.
  const historyFailures = new sst.aws.Queue("HistoryFailures", {
    transform: {
      queue: { messageRetentionSeconds: historyFailureQueue.retentionSeconds, sqsManagedSseEnabled: true },
    },
  });
  const historySubscriber = rewardsTable.subscribe(
    "History",
    {
      ...functionSettings("history", history),
      permissions: historyPermissions(rewardsTable.arn, historyFailures.arn),
      environment: historyEnvironment(
        { tableName: rewardsTable.name },
        {
          stage: $app.stage,
          historyDays: settings.historyDays,
          boardWeeks: settings.boardWeeks,
          boardShards: settings.boardShards,
          rulesRefreshSeconds: settings.rulesRefreshSeconds,
        },
      ),
    },
    {
      // Guard INSERTs and MODIFYs: every award (0-XP ones too) and every revocation.
      filters: [...history.filterPatterns],
      transform: {
        eventSourceMapping: {
          batchSize: history.batchSize,
          startingPosition: history.startingPosition,
          bisectBatchOnFunctionError: history.bisectBatchOnFunctionError,
          maximumRetryAttempts: history.maximumRetryAttempts,
          maximumRecordAgeInSeconds: history.maximumRecordAgeSeconds,
          functionResponseTypes: ["ReportBatchItemFailures"],
          destinationConfig: { onFailure: { destinationArn: historyFailures.arn } },
        },
      },
    },
  );

  // The HTTP read API (docs/reading.md#the-http-read-api): a function URL with IAM auth
  // (SigV4); no public access at all.
  const readApiFunction = new sst.aws.Function("ReadApi", {
    ...functionSettings("readApi", readApi),
    url: { authorization: "iam" },
    permissions: readApiPermissions(rewardsTable.arn, rewardsTable.arn.apply(boardIndexArn)),
    // The worker's cap and the writer's shard count, from the same stage settings: `today` is read
    // where the worker writes it, and the board from every shard the writer fills. The rules are
    // re-read as often as the worker and the writer re-read them.
    environment: readApiEnvironment(
      { tableName: rewardsTable.name },
      {
        stage: $app.stage,
        dailyCap: settings.dailyCap,
        boardShards: settings.boardShards,
        rulesRefreshSeconds: settings.rulesRefreshSeconds,
      },
    ),
    ...(settings.readerConcurrency === undefined
      ? {}
      : { concurrency: { reserved: settings.readerConcurrency } }),
  });
  readerAccess({ name: readApiFunction.name }, settings);

  const topic = settings.alarmEmail ? new aws.sns.Topic("RewardsAlarms") : undefined;
  if (topic && settings.alarmEmail) {
    new aws.sns.TopicSubscription("RewardsAlarmsEmail", {
      topic: topic.arn,
      protocol: "email",
      endpoint: settings.alarmEmail,
    });
  }
  const names = {
    // The functions' own metrics carry it (REWARDS_STAGE): the alarms and the dashboard filter on it.
    stage: $app.stage,
    dlq: dlq.nodes.queue.name,
    queue: events.nodes.queue.name,
    functionName: subscriber.nodes.function.name,
    announcerFunctionName: announcerSubscriber.nodes.function.name,
    announcerFailureQueue: announcerFailures.nodes.queue.name,
    historyFunctionName: historySubscriber.nodes.function.name,
    historyFailureQueue: historyFailures.nodes.queue.name,
    readApiFunctionName: readApiFunction.name,
  };
  const alarms = alarmSpecs(names).map(
    (spec) =>
      new aws.cloudwatch.MetricAlarm(spec.name, {
        alarmDescription: spec.description,
        namespace: spec.namespace,
        metricName: spec.metricName,
        dimensions: spec.dimensions,
        ...("extendedStatistic" in spec
          ? { extendedStatistic: spec.extendedStatistic }
          : { statistic: spec.statistic }),
        comparisonOperator: "GreaterThanThreshold",
        threshold: spec.threshold,
        period: spec.periodSeconds,
        evaluationPeriods: spec.evaluationPeriods,
        treatMissingData: "notBreaching",
        ...(topic ? { alarmActions: [topic.arn], okActions: [topic.arn] } : {}),
      }),
  );

  // The operator's dashboard (docs/operations.md#the-dashboard): one per stage.
  const region = aws.getRegionOutput().name;
  const dashboard = new aws.cloudwatch.Dashboard("RewardsDashboard", {
    dashboardName: dashboardName($app.name, $app.stage),
    dashboardBody: $jsonStringify(dashboardSpec({ ...names, region })),
  });

  return {
    // `rewards env` turns these (SST writes them to .sst/outputs.json) into the CLI's variables,
    // and names the stage they came from (the file holds whichever stage was deployed last).
    stage: $app.stage,
    region,
    queueUrl: events.url,
    queueArn: events.arn,
    dlqUrl: dlq.url,
    tableName: rewardsTable.name,
    busName: bus.name,
    busArn: bus.arn,
    announcerFailureQueueUrl: announcerFailures.url,
    historyFailureQueueUrl: historyFailures.url,
    // The read API's function URL (READER_URL for `rewards env`): sign requests with SigV4.
    readerUrl: readApiFunction.url,
    readApiFunctionName: readApiFunction.name,
    // The worker's REWARDS_DAILY_XP_CAP (0: none), so `rewards env` gives the CLI the same cap.
    dailyXpCap: settings.dailyCap ?? 0,
    // The history writer's REWARDS_HISTORY_DAYS (0: forever), so `rewards history rebuild` writes
    // a missing item with the stage's retention.
    historyDays: settings.historyDays ?? DEFAULT_HISTORY_DAYS,
    // The board's REWARDS_BOARD_SHARDS and REWARDS_BOARD_WEEKS, so `rewards env` gives the CLI
    // (and a local read API) the shards the stage's writer fills.
    boardShards: settings.boardShards ?? DEFAULT_BOARD_SHARDS,
    boardWeeks: settings.boardWeeks ?? DEFAULT_BOARD_WEEKS,
    // The functions' REWARDS_RULES_REFRESH_SECONDS: how long a published version may take to apply
    // (one to two of these; docs/rules.md#at-run-time).
    rulesRefreshSeconds: settings.rulesRefreshSeconds,
    ...(topic ? { alarmTopicArn: topic.arn } : {}),
    // The operator's dashboard in the CloudWatch console.
    dashboardUrl: $resolve([region, dashboard.dashboardName]).apply(([at, name]) => dashboardUrl(at, name)),
    // Each function's log group, where its runbook's Logs Insights query runs (docs/operations.md#runbooks):
    // SST names them with a random suffix, so the console's search or these are the way to them.
    workerLogGroup: subscriber.nodes.function.apply(logGroupOf),
    announcerLogGroup: announcerSubscriber.nodes.function.apply(logGroupOf),
    historyLogGroup: historySubscriber.nodes.function.apply(logGroupOf),
    readApiLogGroup: logGroupOf(readApiFunction),
    // `rewards status`: the stream functions' IteratorAge, and this stage's alarms (their names
    // carry no stage: SST adds a random suffix).
    announcerFunctionName: announcerSubscriber.nodes.function.name,
    historyFunctionName: historySubscriber.nodes.function.name,
    alarmNames: alarms.map((alarm) => alarm.name),
  };
}
