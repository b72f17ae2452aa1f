import { createDynamoClient, createSqsClient, type Logger, loadConfig } from "@rewards/core";
import { startLocalStack } from "@rewards/local";
import { createWorkerDeps } from "@rewards/worker";
import { replayDlq } from "../dlq/operations";
import { compareXp, type Mismatch } from "../profiles";
import { generateTraffic, type TrafficOptions } from "../traffic/generateTraffic";
import { seededRandom } from "@rewards/core";
import { sendTraffic } from "../traffic/sendTraffic";
import { startCountingPoller } from "../workerStats";
import { installFaultSwitch } from "./faultSwitch";
import { waitForDrain } from "./waitForDrain";

export interface DemoOptions extends TrafficOptions {
  /** Share of DynamoDB transactions that fail transiently. */
  faultRate: number;
  timeoutMs: number;
  logger: Logger;
  onPhase?: (phase: string) => void;
}

export interface DemoReport {
  ok: boolean;
  problems: string[];
  published: number;
  uniqueIntents: number;
  duplicatesSent: number;
  poisonSent: number;
  awarded: number;
  duplicates: number;
  parked: number;
  replayed: number;
  parkedAgain: number;
  redelivered: number;
  transientFailures: number;
  faultsInjected: number;
  users: number;
  expectedXp: number;
  actualXp: number;
  mismatches: Mismatch[];
  seconds: number;
}

/** A local visibility timeout short enough that redelivery shows within the demo. */
const DEMO_VISIBILITY_SECONDS = 3;
/** Lambda's rule: the function timeout is shorter than the queue's visibility timeout. */
const DEMO_TIMEOUT_MS = 2000;

/**
 * The whole system on one machine: stack, producers, poller + handler under injected
 * faults, drain, DLQ replay, and a check that every intent was paid exactly once.
 */
export async function runDemo(options: DemoOptions): Promise<DemoReport> {
  const started = Date.now();
  const phase = options.onPhase ?? (() => {});
  phase("starting the local stack");
  // Its own names: when the shell points at a running stack (`rewards dev`), the demo
  // provisions beside it instead of clashing with its queue settings or data.
  const stack = await startLocalStack({
    visibilityTimeoutSeconds: DEMO_VISIBILITY_SECONDS,
    tableName: "rewards-demo",
    queueName: "rewards-demo-events",
    dlqName: "rewards-demo-events-dlq",
  });
  try {
    const config = loadConfig(stack.env, ["TABLE_NAME", "QUEUE_URL", "DLQ_URL"]);
    const sqs = createSqsClient(config);
    const pollSqs = createSqsClient(config, { requestTimeoutMs: 25_000 });
    const dynamo = createDynamoClient(config);
    const faults = installFaultSwitch(dynamo, options.faultRate, seededRandom(options.seed + 1));
    const deps = {
      ...createWorkerDeps({ ...stack.env, LOG_LEVEL: "silent" }),
      dynamo,
      logger: options.logger,
      emitMetrics: (line: string) => options.logger.debug({ emf: line }, "metrics"),
      // Few in-process retries, so some injected faults reach SQS as redeliveries.
      retryPolicy: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20, maxElapsedMs: 200 },
    };

    const traffic = generateTraffic(options);
    phase(`publishing ${traffic.messages.length} events`);
    const sent = await sendTraffic(traffic.messages, { sqs, queueUrl: config.QUEUE_URL });

    phase("processing with the poller");
    const { poller, stats } = await startCountingPoller(deps, {
      sqs: pollSqs,
      queueUrl: config.QUEUE_URL,
      logger: options.logger,
      waitTimeSeconds: 1,
      pollers: 2,
      timeoutMs: DEMO_TIMEOUT_MS,
    });
    const problems: string[] = [];
    if (!(await waitForDrain(sqs, config.QUEUE_URL, options.timeoutMs)))
      problems.push("the queue did not drain in time");
    const parkedFirst = stats.outcomes.parked;

    phase("replaying the DLQ");
    const replay = await replayDlq(sqs, config.DLQ_URL, config.QUEUE_URL);
    if (!(await waitForDrain(sqs, config.QUEUE_URL, options.timeoutMs)))
      problems.push("the replay did not drain in time");
    await poller.stop();

    phase("verifying every user's XP");
    const check = await compareXp(dynamo, config.TABLE_NAME, traffic.expectedXp);
    const report: DemoReport = {
      ok: false,
      problems,
      published: sent.sent,
      uniqueIntents: traffic.uniqueIntents,
      duplicatesSent: traffic.counts.duplicate,
      poisonSent: traffic.counts.invalid,
      awarded: stats.outcomes.awarded,
      duplicates: stats.outcomes.duplicate,
      parked: parkedFirst,
      replayed: replay.replayed,
      parkedAgain: stats.outcomes.parked - parkedFirst,
      redelivered: stats.redelivered,
      transientFailures: stats.outcomes.failed,
      faultsInjected: faults.injected(),
      users: check.users,
      expectedXp: check.expectedTotal,
      actualXp: check.actualTotal,
      mismatches: check.mismatches,
      seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
    };
    if (sent.failed.length > 0) problems.push(`${sent.failed.length} events could not be published`);
    if (report.awarded !== report.uniqueIntents)
      problems.push(`${report.awarded} awards for ${report.uniqueIntents} unique intents`);
    if (check.mismatches.length > 0) problems.push(`${check.mismatches.length} users with wrong XP`);
    if (report.parked !== report.poisonSent)
      problems.push(`${report.parked} parked for ${report.poisonSent} poison messages`);
    if (report.parkedAgain !== report.replayed)
      problems.push(`${report.replayed} replayed but ${report.parkedAgain} parked again`);
    report.ok = problems.length === 0;
    return report;
  } finally {
    await stack.stop();
  }
}
