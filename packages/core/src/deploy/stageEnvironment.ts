import { z } from "zod";

/**
 * `rewards env`'s facts: what a deploy outputs (infra/rewards.ts; SST writes them to
 * .sst/outputs.json) as the CLI needs them, the variables they become, and the variables that
 * point a shell at the local stack instead (`rewards dev` prints them), which a shell pointed
 * at a deployed stage must lose. Pure: the command reads the file and prints.
 */

/** A deploy's outputs, as the CLI needs them: a stage deployed before an output was added lacks it. */
export const stageOutputsSchema = z.object({
  // The stage they are the outputs of: .sst/outputs.json holds whichever stage was deployed last.
  stage: z.string().min(1).optional(),
  region: z.string().min(1),
  queueUrl: z.url(),
  dlqUrl: z.url(),
  tableName: z.string().min(1),
  // A stage deployed before the announcer has neither.
  busName: z.string().min(1).optional(),
  announcerFailureQueueUrl: z.url().optional(),
  // The worker's REWARDS_DAILY_XP_CAP, 0 for none.
  dailyXpCap: z.coerce.number().int().min(0).optional(),
  // The history writer's failure queue and the read API's URL.
  historyFailureQueueUrl: z.url().optional(),
  readerUrl: z.url().optional(),
  // The history writer's REWARDS_HISTORY_DAYS (0: forever).
  historyDays: z.coerce.number().int().min(0).optional(),
  // The board's REWARDS_BOARD_SHARDS and REWARDS_BOARD_WEEKS.
  boardShards: z.coerce.number().int().min(1).max(1000).optional(),
  boardWeeks: z.coerce.number().int().min(1).optional(),
  // The stream functions' names and the stage's alarms, for `rewards status` (IteratorAge, DescribeAlarms).
  announcerFunctionName: z.string().min(1).optional(),
  historyFunctionName: z.string().min(1).optional(),
  alarmNames: z
    .array(
      z
        .string()
        .min(1)
        .regex(/^[^,\s]+$/, "an alarm name without commas or spaces"),
    )
    .optional(),
});

export type StageOutputs = z.output<typeof stageOutputsSchema>;

/**
 * The local stack's endpoints, as `rewards dev` prints them (packages/local's startLocalStack
 * builds its env from this list): a deployed stage is reached at AWS's own, so `rewards env`
 * unsets every one.
 */
export const LOCAL_ENDPOINT_VARIABLES = [
  "AWS_ENDPOINT_URL_SQS",
  "AWS_ENDPOINT_URL_DYNAMODB",
  "AWS_ENDPOINT_URL_DYNAMODB_STREAMS",
  "AWS_ENDPOINT_URL_EVENTBRIDGE",
] as const;

export type LocalEndpointVariable = (typeof LOCAL_ENDPOINT_VARIABLES)[number];

/**
 * What else `rewards dev` prints that no stage's outputs give: the queues the local bus fills
 * (GRANTS_QUEUE_URL, CONSUMER_QUEUE_URL) and the example reader's page (SITE_URL). One left in
 * a shell pointed at a stage is the local stack's, so `rewards env` unsets them too.
 */
export const LOCAL_ONLY_VARIABLES = [
  "GRANTS_QUEUE_URL",
  "CONSUMER_QUEUE_URL",
  "SITE_URL",
  // Where its stream functions keep their place: a stage's are Lambda's, read from CloudWatch.
  "ANNOUNCER_CHECKPOINT_FILE",
  "HISTORY_CHECKPOINT_FILE",
] as const;

/**
 * The local stack's credentials (any work there; `rewards dev` prints these). Left in a shell
 * pointed at a stage, they would come before the operator's own (the SDK reads the environment
 * first), so `rewards env` unsets them, but only when they are these: real keys stay.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: "test", secretAccessKey: "test" } as const;

export interface StageEnvironment {
  /** The stage the outputs are of; undefined for a deploy from before `stage` was an output. */
  stage: string | undefined;
  /** What to export, in this order. */
  exports: Record<string, string>;
  /** What to unset: a value the shell holds would be another stage's, or the local stack's. */
  unsets: string[];
}

/** A stage's outputs as the variables that point the CLI (and a site's tools) at it. */
export function stageEnvironment(outputs: StageOutputs): StageEnvironment {
  const set = (name: string, value: string | number | undefined) =>
    value === undefined ? {} : { [name]: String(value) };
  const exports = {
    AWS_REGION: outputs.region,
    // boto3 and the AWS CLI read this one (`rewards dev` sets it to the local stack's region).
    AWS_DEFAULT_REGION: outputs.region,
    // Not read by the CLI: it names the stage in the shell, as the functions' metrics do.
    ...set("REWARDS_STAGE", outputs.stage),
    QUEUE_URL: outputs.queueUrl,
    DLQ_URL: outputs.dlqUrl,
    TABLE_NAME: outputs.tableName,
    ...set("BUS_NAME", outputs.busName),
    ...set("ANNOUNCER_FAILURE_QUEUE_URL", outputs.announcerFailureQueueUrl),
    ...set("HISTORY_FAILURE_QUEUE_URL", outputs.historyFailureQueueUrl),
    // The function URL without its trailing slash: `$READER_URL/users/<id>` is then one slash.
    ...set("READER_URL", outputs.readerUrl?.replace(/\/$/, "")),
    // 0 is no cap: unset below, so a cap left in the shell cannot disagree with the worker.
    ...set("REWARDS_DAILY_XP_CAP", outputs.dailyXpCap || undefined),
    // What `rewards history rebuild` writes a missing item's retention with.
    ...set("REWARDS_HISTORY_DAYS", outputs.historyDays),
    // The shards the stage's writer fills: what reads the board with fewer misses entries.
    ...set("REWARDS_BOARD_SHARDS", outputs.boardShards),
    ...set("REWARDS_BOARD_WEEKS", outputs.boardWeeks),
    // What `rewards status` reads the stage's lag and alarms by.
    ...set("ANNOUNCER_FUNCTION_NAME", outputs.announcerFunctionName),
    ...set("HISTORY_FUNCTION_NAME", outputs.historyFunctionName),
    ...set("REWARDS_ALARM_NAMES", outputs.alarmNames?.join(",")),
  };
  const unsets = [
    // A stage of unknown name: a REWARDS_STAGE left in the shell would name another.
    ...(outputs.stage === undefined ? ["REWARDS_STAGE"] : []),
    ...(outputs.dailyXpCap === 0 ? ["REWARDS_DAILY_XP_CAP"] : []),
    // A stage without a read API: a READER_URL left in the shell would be another stage's.
    ...(outputs.readerUrl === undefined ? ["READER_URL"] : []),
    // A stage deployed before these were outputs: values left in the shell would be another stage's.
    ...(outputs.announcerFunctionName === undefined ? ["ANNOUNCER_FUNCTION_NAME"] : []),
    ...(outputs.historyFunctionName === undefined ? ["HISTORY_FUNCTION_NAME"] : []),
    ...(outputs.alarmNames === undefined ? ["REWARDS_ALARM_NAMES"] : []),
    ...LOCAL_ENDPOINT_VARIABLES,
    ...LOCAL_ONLY_VARIABLES,
  ];
  return { stage: outputs.stage, exports, unsets };
}
