import { setTimeout as sleep } from "node:timers/promises";
import { createAnnouncerDeps } from "@rewards/announcer";
import { compileVersion } from "@rewards/core";
import type { Logger } from "@rewards/core/aws";
import { createStreamsClient } from "@rewards/core/aws";
import { DEFAULT_BOARD_SHARDS, DEFAULT_BOARD_WEEKS, toolConfigFrom } from "@rewards/core/deploy";
import { createHistoryDeps } from "@rewards/history";
import type { FunctionCode, WorkerStats } from "@rewards/local";
import {
  deployedAnnouncerSettings,
  deployedHistorySettings,
  type FaultKind,
  type FaultRule,
  startFaultProxy,
  startLocalAnnouncer,
  startLocalHistory,
  startLocalReadApi,
  startLocalStack,
  startLocalWorker,
} from "@rewards/local";
import {
  achievedAmong,
  announcerReplayTarget,
  clientsFor,
  compareXp,
  currentRulesOrFail,
  dayTotalsOver,
  grantsAmong,
  historyReplayTarget,
  type Mismatch,
  publishRules,
  queueCounts,
  receiveGrants,
  replayDlq,
  replayStreamFailures,
  waitUntilDrained,
} from "@rewards/ops";
import { type BoardCheck, checkBoard } from "./checks/checkBoard";
import { checkGrants, type GrantCheck } from "./checks/checkGrants";
import { checkHistory, type HistoryCheck } from "./checks/checkHistory";
import { checkProgress, type ProgressCheck } from "./checks/checkProgress";
import { checkReadApi, type ReadApiCheck } from "./checks/checkReadApi";
import { checkRulesPaid, type RulesPaidCheck } from "./checks/checkRulesPaid";
import { runPhase } from "./demoPhase";
import { generateTraffic, type TrafficOptions } from "./traffic/generateTraffic";
import { CAMPAIGN_OPENS_AFTER_MS, demoRulesPlan, generateRulesTraffic } from "./traffic/rulesTraffic";
import { sendTraffic } from "./traffic/sendTraffic";
import { waitUntilAnnounced } from "./waitUntilAnnounced";

export interface DemoOptions extends TrafficOptions {
  /** Share of DynamoDB transactions that meet an injected fault. */
  faultRate: number;
  /** Give up after this long; by default it scales with the number of events. */
  timeoutMs?: number;
  logger: Logger;
  /** The worker function's code: its source, or the deployable bundle. */
  code?: FunctionCode;
  onPhase?: (phase: string) => void;
  /** Messages handled so far out of those published, while processing. */
  onProgress?: (done: number, total: number) => void;
}

export interface DemoReport {
  ok: boolean;
  problems: string[];
  published: number;
  uniqueIntents: number;
  /** Intents the table records as paid (the profiles' award counts). */
  paid: number;
  duplicatesSent: number;
  poisonSent: number;
  /** Events older than their rule's memory (and replays of them): parked as stale, never paid. */
  staleSent: number;
  /** Outcomes as the worker reported them; a lost answer can turn `awarded` into `failed` then `duplicate`. */
  awarded: number;
  duplicates: number;
  /** Awards the daily cap left at 0 XP (their intents spent). */
  capped: number;
  /** The worker's REWARDS_DAILY_XP_CAP for the run; null: none. */
  dailyCap: number | null;
  /** Users' days whose total ended above the cap (must be none). */
  overCap: number;
  /** Messages in the DLQ after processing, replayed from it, and back in it after the replay. */
  parked: number;
  replayed: number;
  parkedAgain: number;
  redelivered: number;
  transientFailures: number;
  faults: Record<FaultKind, number>;
  users: number;
  expectedXp: number;
  actualXp: number;
  mismatches: Mismatch[];
  /** reward.granted as the local bus delivered it, against the table's awards. */
  grants: GrantCheck & { givenUp: number; replayedBatches: number };
  /** Every guard's one history item (docs/history.md). */
  history: HistoryCheck;
  /** Every reader's counts, kept days and achievements, exactly (docs/reading.md). */
  progress: ProgressCheck;
  /** Every reader's weeks on the board against their history; this week's board page by page. */
  board: BoardCheck;
  /** The read API (a local function URL), for the user with the most awards, against the table. */
  readApi: ReadApiCheck;
  /** The site's rules the demo published (a per-unit type, a campaign, an achievement), against what they paid. */
  rules: RulesPaidCheck;
  /** Faults injected on the announcer's PutEvents calls. */
  busFaults: Record<FaultKind, number>;
  seconds: number;
}

/** A local visibility timeout short enough that redelivery shows within the demo. */
const DEMO_VISIBILITY_SECONDS = 3;
/** Lambda's rule: the function timeout is shorter than the queue's visibility timeout. */
const DEMO_TIMEOUT_MS = 2000;
/** No change in the queue for this long means something is stuck, whatever the size. */
const STALL_MS = 30_000;

/** Faults a busy DynamoDB shows, in proportion to `rate`, including answers lost after a commit. */
function demoFaults(rate: number): FaultRule[] {
  const operation = "TransactWriteItems";
  return [
    { operation, fault: "throttle", probability: rate * 0.4 },
    { operation, fault: "conflict", probability: rate * 0.2 },
    { operation, fault: "http500", probability: rate * 0.1 },
    { operation, fault: "commitThenDrop", probability: rate * 0.3 },
  ];
}

/** Faults on the announcer's calls to the bus, including events published while the answer is lost (copies). */
function busFaults(rate: number): FaultRule[] {
  const operation = "PutEvents";
  return [
    { operation, fault: "throttle", probability: rate * 0.4 },
    { operation, fault: "http500", probability: rate * 0.3 },
    { operation, fault: "commitThenDrop", probability: rate * 0.3 },
  ];
}

/** Enough for a slow machine, and more for more events: 60 s plus 20 ms an event. */
function demoTimeoutMs(events: number): number {
  return 60_000 + events * 20;
}

/**
 * The whole system on one machine: stack, producers, poller + handler behind a fault proxy
 * (throttling, conflicts, 5xx, and transactions that commit while their answer is lost),
 * drain, DLQ replay, and a check that every intent was paid exactly once — by the table's
 * own award counts and XP, not by the outcomes reported on the way.
 */
export async function runDemo(options: DemoOptions): Promise<DemoReport> {
  const started = Date.now();
  const onPhase = options.onPhase ?? (() => {});
  const inPhase = <T>(name: string, run: () => Promise<T>) => runPhase(name, onPhase, run);
  const timeoutMs = options.timeoutMs ?? demoTimeoutMs(options.events);
  // Its own names: when the shell points at a running stack (`rewards dev`), the demo
  // provisions beside it instead of clashing with its queue settings or data.
  const { stack, proxy, busProxy } = await inPhase("starting the local stack", async () => {
    const stack = await startLocalStack({
      visibilityTimeoutSeconds: DEMO_VISIBILITY_SECONDS,
      tableName: "rewards-demo",
      queueName: "rewards-demo-events",
      dlqName: "rewards-demo-events-dlq",
      busName: "rewards-demo-bus",
      announcerFailureQueueName: "rewards-demo-announcer-failures",
      historyFailureQueueName: "rewards-demo-history-failures",
      grantsQueueName: "rewards-demo-grants",
      consumerQueueName: "rewards-demo-consumer",
    });
    const proxy = await startFaultProxy({
      target: stack.endpoints.dynamodb,
      rules: demoFaults(options.faultRate),
      seed: options.seed + 1,
    });
    const busProxy = await startFaultProxy({
      target: stack.endpoints.eventbridge,
      rules: busFaults(options.faultRate),
      seed: options.seed + 2,
    });
    return { stack, proxy, busProxy };
  });
  try {
    const config = toolConfigFrom(
      stack.env,
      "TABLE_NAME",
      "QUEUE_URL",
      "DLQ_URL",
      "BUS_NAME",
      "ANNOUNCER_FAILURE_QUEUE_URL",
      "GRANTS_QUEUE_URL",
    );
    const { sqs, dynamo } = clientsFor(config);

    // The site's own rules as version 1 (docs/rules.md), before any function reads them: the
    // built-in types, podcasts paid per minute, a campaign opening just after, an achievement.
    const { version, rulesTraffic, publishAt } = await inPhase("publishing the site's rules", async () => {
      // A run before this one on this table (beside `rewards dev`) published them already.
      const plan = demoRulesPlan(await currentRulesOrFail(dynamo, config.TABLE_NAME), Date.now());
      const { document, publishAt } = plan;
      if (plan.publish) {
        const published = await publishRules(dynamo, config.TABLE_NAME, document, {
          now: publishAt,
          note: "rewards demo",
        });
        if (published.kind !== "published")
          throw new Error(`the demo's rules were not published: ${published.kind}`);
      }
      const rulesTraffic = generateRulesTraffic({
        document,
        seed: options.seed,
        // A share of the run's events, at most a dozen listeners: `published` stays --events.
        listeners: Math.min(12, Math.floor(options.events / 50)),
        campaignFrom: publishAt + CAMPAIGN_OPENS_AFTER_MS,
      });
      return { version: await currentRulesOrFail(dynamo, config.TABLE_NAME), rulesTraffic, publishAt };
    });
    const traffic = generateTraffic({ ...options, events: options.events - rulesTraffic.messages.length });
    const messages = traffic.messages.length + rulesTraffic.messages.length;
    const sent = await inPhase(`publishing ${messages} events`, async () => {
      const built = await sendTraffic(traffic.messages, { sqs, queueUrl: config.QUEUE_URL });
      // The podcasts listened once the campaign opened are in the past only once it has.
      await sleep(Math.max(0, publishAt + CAMPAIGN_OPENS_AFTER_MS + 500 - Date.now()));
      const podcasts = await sendTraffic(rulesTraffic.messages, { sqs, queueUrl: config.QUEUE_URL });
      return { sent: built.sent + podcasts.sent, failed: [...built.failed, ...podcasts.failed] };
    });
    const expectedXp = { ...traffic.expectedXp, ...rulesTraffic.expectedXp };
    const compiled = compileVersion(version);

    const problems: string[] = [];
    const drain = async (what: string, stats: WorkerStats) => {
      const result = await waitUntilDrained(sqs, config.QUEUE_URL, {
        timeoutMs,
        stallMs: STALL_MS,
        onProgress: () => {
          const { awarded, duplicate, parked, capped = 0 } = stats.outcomes;
          options.onProgress?.(Math.min(sent.sent, awarded + duplicate + parked + capped), sent.sent);
        },
      });
      if (result === "timeout")
        problems.push(`${what} did not drain within ${Math.round(timeoutMs / 1000)} s`);
      if (result === "stalled") problems.push(`${what} made no progress for ${STALL_MS / 1000} s`);
    };

    const { worker, announcer, history, parked } = await inPhase("processing with the poller", async () => {
      // The worker function reaches DynamoDB through the fault proxy, as if it were AWS's.
      const worker = await startLocalWorker({
        config: toolConfigFrom(
          {
            ...stack.env,
            AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
            LOG_LEVEL: "silent",
            ...(options.dailyCap === undefined ? {} : { REWARDS_DAILY_XP_CAP: String(options.dailyCap) }),
          },
          "TABLE_NAME",
          "QUEUE_URL",
        ),
        code: options.code ?? "source",
        settings: { waitTimeSeconds: 1, pollers: 2, timeoutMs: DEMO_TIMEOUT_MS },
        logger: options.logger,
      });
      // The announcer reaches the bus through its fault proxy, as if it were EventBridge.
      const announcer = await startLocalAnnouncer({
        config: toolConfigFrom(
          { ...stack.env, AWS_ENDPOINT_URL_EVENTBRIDGE: busProxy.endpoint, LOG_LEVEL: "silent" },
          "TABLE_NAME",
          "BUS_NAME",
        ),
        code: options.code ?? "source",
        settings: {
          ...deployedAnnouncerSettings(),
          timeoutMs: DEMO_TIMEOUT_MS,
          pollIntervalMs: 100,
          retryDelayMs: 50,
        },
        logger: options.logger,
      });
      // The history's writer, on the same stream with a checkpoint of its own.
      const history = await startLocalHistory({
        config: toolConfigFrom({ ...stack.env, LOG_LEVEL: "silent" }, "TABLE_NAME"),
        code: options.code ?? "source",
        settings: {
          ...deployedHistorySettings(),
          timeoutMs: DEMO_TIMEOUT_MS,
          pollIntervalMs: 100,
          retryDelayMs: 50,
        },
        failureQueueUrl: stack.resources.historyFailureQueueUrl,
        logger: options.logger,
      });
      await drain("the queue", worker.stats);
      return { worker, announcer, history, parked: (await queueCounts(sqs, config.DLQ_URL)).visible };
    });
    const { stats } = worker;

    const { replay, parkedAgain } = await inPhase("replaying the DLQ", async () => {
      const replay = await replayDlq(sqs, config.DLQ_URL, config.QUEUE_URL);
      await drain("the replay", worker.stats);
      await worker.stop();
      return { replay, parkedAgain: (await queueCounts(sqs, config.DLQ_URL)).visible };
    });

    await inPhase("writing the history", async () => {
      if (!(await waitUntilAnnounced(history.source, Date.now(), timeoutMs)))
        problems.push(`the history's writer did not catch up within ${Math.round(timeoutMs / 1000)} s`);
      await history.stop();
      // Batches it gave up: replayed from the stream, as an operator would (`rewards history replay`).
      const replayed = await replayStreamFailures({
        sqs,
        streams: createStreamsClient(config),
        target: historyReplayTarget(createHistoryDeps({ ...stack.env, LOG_LEVEL: "silent" })),
        queueUrl: stack.resources.historyFailureQueueUrl,
        max: 1000,
        dryRun: false,
      });
      const unwritten = replayed.filter((r) => r.outcome !== "replayed").length;
      if (unwritten > 0) problems.push(`${unwritten} given-up history batches could not be replayed`);
    });
    await inPhase("announcing every award and achievement", async () => {
      if (!(await waitUntilAnnounced(announcer.source, Date.now(), timeoutMs)))
        problems.push(`the announcer did not catch up within ${Math.round(timeoutMs / 1000)} s`);
      await announcer.stop();
    });
    const historyCheck = await inPhase("verifying the history", () =>
      checkHistory(dynamo, config.TABLE_NAME),
    );
    const busiest = Object.entries(traffic.expectedXp).sort(([, a], [, b]) => b - a)[0]?.[0] ?? "nobody";
    const readApiCheck = await inPhase("asking the read API for the busiest user", async () => {
      // The read API as `rewards dev` serves it, asked as a site would.
      const readApi = await startLocalReadApi({
        config: toolConfigFrom({ ...stack.env, LOG_LEVEL: "silent" }, "TABLE_NAME"),
        code: options.code ?? "source",
      });
      return checkReadApi(readApi.url, busiest, dynamo, config.TABLE_NAME).finally(() => readApi.stop());
    });
    // Batches given up under the injected faults: replayed from the stream, as an operator would.
    const replayedBatches = await inPhase("replaying the announcer's given-up batches", () =>
      replayStreamFailures({
        sqs,
        streams: createStreamsClient(config),
        target: announcerReplayTarget(createAnnouncerDeps({ ...stack.env, LOG_LEVEL: "silent" })),
        queueUrl: config.ANNOUNCER_FAILURE_QUEUE_URL,
        max: 1000,
        dryRun: false,
      }),
    );
    const { received, grants } = await inPhase("verifying reward.granted on the bus", async () => {
      const received = await receiveGrants(sqs, config.GRANTS_QUEUE_URL, {
        max: Number.MAX_SAFE_INTEGER,
        waitSeconds: 0,
        keep: false,
      });
      return { received, grants: await checkGrants(dynamo, config.TABLE_NAME, grantsAmong(received)) };
    });
    const progressCheck = await inPhase(
      "verifying counts, streaks and achievements (and reward.achieved)",
      () =>
        checkProgress(dynamo, config.TABLE_NAME, traffic.expectedKeptDays, achievedAmong(received), {
          types: [...compiled.types.keys()],
          achievements: compiled.achievements,
        }),
    );
    const boardCheck = await inPhase("verifying the week's board", () =>
      checkBoard(dynamo, config.TABLE_NAME, { shards: DEFAULT_BOARD_SHARDS, keepWeeks: DEFAULT_BOARD_WEEKS }),
    );

    const rulesCheck = await inPhase("verifying what the site's rules paid", () =>
      checkRulesPaid(dynamo, config.TABLE_NAME, version.version, rulesTraffic),
    );
    const { check, overCap } = await inPhase("verifying every user's XP and award count", async () => ({
      check: await compareXp(dynamo, config.TABLE_NAME, expectedXp),
      overCap:
        options.dailyCap === undefined
          ? []
          : await dayTotalsOver(dynamo, config.TABLE_NAME, options.dailyCap),
    }));
    const faults = proxy.counts();
    const report: DemoReport = {
      ok: false,
      problems,
      published: sent.sent,
      uniqueIntents: traffic.uniqueIntents + rulesTraffic.intents.length,
      paid: check.awardsTotal,
      duplicatesSent: traffic.counts.duplicate + rulesTraffic.copies,
      poisonSent: traffic.counts.invalid,
      staleSent: traffic.counts.stale,
      awarded: stats.outcomes.awarded,
      duplicates: stats.outcomes.duplicate,
      capped: stats.outcomes.capped ?? 0,
      dailyCap: options.dailyCap ?? null,
      overCap: overCap.length,
      parked,
      replayed: replay.replayed,
      parkedAgain,
      redelivered: stats.redelivered,
      transientFailures: stats.outcomes.failed,
      faults: {
        latency: faults.latency,
        throttle: faults.throttle,
        conflict: faults.conflict,
        http500: faults.http500,
        reset: faults.reset,
        commitThenDrop: faults.commitThenDrop,
        blackHole: faults.blackHole,
        emptyPage: faults.emptyPage,
      },
      users: check.users,
      expectedXp: check.expectedTotal,
      actualXp: check.actualTotal,
      mismatches: check.mismatches,
      grants: { ...grants, givenUp: announcer.source.givenUp, replayedBatches: replayedBatches.length },
      history: historyCheck,
      progress: progressCheck,
      board: boardCheck,
      readApi: readApiCheck,
      rules: rulesCheck,
      busFaults: busProxy.counts(),
      seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
    };
    if (sent.failed.length > 0) problems.push(`${sent.failed.length} events could not be published`);
    if (report.paid !== report.uniqueIntents)
      problems.push(`${report.paid} intents paid for ${report.uniqueIntents} unique intents`);
    if (check.mismatches.length > 0) problems.push(`${check.mismatches.length} users with wrong XP`);
    if (overCap.length > 0) problems.push(`${overCap.length} users' days above the daily cap`);
    if (report.parked !== report.poisonSent + report.staleSent)
      problems.push(
        `${report.parked} messages in the DLQ for ${report.poisonSent} poison and ${report.staleSent} stale sent`,
      );
    if (report.replayed !== report.parked)
      problems.push(`${report.replayed} of the ${report.parked} parked messages replayed`);
    if (report.parkedAgain !== report.replayed)
      problems.push(
        `${report.parkedAgain} back in the DLQ after replaying ${report.replayed} poison messages`,
      );
    // A capped-to-zero award is spent but pays nothing: it announces nothing.
    if (grants.announced !== grants.awards)
      problems.push(`${grants.announced} reward.granted ids for ${grants.awards} awards that paid XP`);
    if (grants.missing.length > 0) problems.push(`${grants.missing.length} awards never announced`);
    if (grants.unexpected.length > 0)
      problems.push(`${grants.unexpected.length} reward.granted ids that name no award`);
    if (grants.inconsistent.length > 0)
      problems.push(`${grants.inconsistent.length} reward.granted ids whose copies differ`);
    const unreplayed = replayedBatches.filter((r) => r.outcome !== "replayed").length;
    if (unreplayed > 0) problems.push(`${unreplayed} given-up announcer batches could not be replayed`);
    if (
      grantsAmong(received).length + achievedAmong(received).length !==
      received.announcements.length + received.unreadable.length
    )
      problems.push("messages on the grants queue that are neither reward.granted nor reward.achieved");
    if (historyCheck.items !== historyCheck.guards || historyCheck.mismatched.length > 0)
      problems.push(
        `${historyCheck.items} history items for ${historyCheck.guards} guards (${historyCheck.mismatched.length} mismatched)`,
      );
    if (progressCheck.mismatched.length > 0)
      problems.push(
        `${progressCheck.mismatched.length} readers' progress not exact: ${progressCheck.mismatched.slice(0, 3).join("; ")}`,
      );
    if (boardCheck.mismatched.length > 0)
      problems.push(
        `${boardCheck.mismatched.length} weeks on the board not exact: ${boardCheck.mismatched.slice(0, 3).join("; ")}`,
      );
    if (rulesCheck.mismatched.length > 0)
      problems.push(
        `${rulesCheck.mismatched.length} podcast awards or achievements not as the rules say: ${rulesCheck.mismatched.slice(0, 3).join("; ")}`,
      );
    problems.push(
      ...readApiCheck.problems.map((problem) => `read API for ${readApiCheck.userId}: ${problem}`),
    );
    report.ok = problems.length === 0;
    return report;
  } finally {
    await proxy.stop();
    await busProxy.stop();
    await stack.stop();
  }
}
