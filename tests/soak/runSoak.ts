import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import type { Message } from "@aws-sdk/client-sqs";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { createAnnouncerDeps } from "@rewards/announcer";
import {
  decodeEvent,
  guardImageSchema,
  guardKey,
  type RevokeResult,
  type RewardAchieved,
  type RewardRevoked,
  revokeId,
  rewardRevoked,
  seededRandom,
} from "@rewards/core";
import { createDynamoClient, createSqsClient, createStreamsClient } from "@rewards/core/aws";
import { DEFAULT_BOARD_SHARDS, DEFAULT_BOARD_WEEKS } from "@rewards/core/deploy";
import { createHistoryDeps } from "@rewards/history";
import { type FaultKind, type FaultRule, startFaultProxy, startLocalStack } from "@rewards/local";
import {
  achievedAmong,
  announcerReplayTarget,
  batchGetAll,
  grantsAmong,
  historyReplayTarget,
  publishRules,
  queueCounts,
  readProfiles,
  receiveGrants,
  replayStreamFailures,
  waitForDrain,
} from "@rewards/ops";
import {
  checkBoard,
  checkGrants,
  checkHistory,
  checkProgress,
  generateTraffic,
  sendTraffic,
} from "@rewards/scenario";
import { drain, REWARDS_BIN, rulesWith } from "@rewards/testing";

export interface SoakOptions {
  seed: number;
  events: number;
  users?: number;
  /**
   * SIGKILL a worker process mid-batch this many times, and the announcer each time too; and
   * the history's writer as many times, on its own seeded schedule; restarting each (0: none).
   * The announcer and the writer resume from their checkpoint files.
   */
  kills?: number;
  /** The worker function's code: its TypeScript source (default), or the deployable bundle. */
  function?: "source" | "artifact";
  workers?: number;
  /**
   * The share of unique intents revoked with `rewards revoke --yes` while the workers run
   * (and are killed), through the same faults; default 0.1.
   */
  revoke?: number;
}

export interface SoakRow {
  seed: number;
  events: number;
  uniqueIntents: number;
  duplicates: number;
  poison: number;
  /** Events sent older than their rule's memory (replays of them included), and those parked as `stale`. */
  stale: number;
  staleParked: number;
  faults: Record<FaultKind, number>;
  /** Deliveries of a message SQS had delivered before (ApproximateReceiveCount > 1). */
  redeliveries: number;
  /** Distinct poison messages in the DLQ with a rewards.error, and the copies there. */
  parked: number;
  dlqCopies: number;
  /** Worker kills (the announcer killed with each), and the history writer's kills, on its own schedule. */
  kills: number;
  historyKills: number;
  /** Whether the last `--drain` of the writer, then of the announcer (started once the writer had), caught up in time. */
  historyCaughtUp: boolean;
  announcerCaughtUp: boolean;
  /** reward.granted: distinct ids, copies received, awards never announced, ids naming no award, ids whose copies differ. */
  announced: number;
  grantCopies: number;
  unannounced: number;
  wronglyAnnounced: number;
  inconsistentGrants: number;
  /** Intents revoked (each once) and the XP taken back; `rewards revoke` runs it took, while the workers ran. */
  revoked: number;
  revokedXp: number;
  revokeRuns: number;
  /** `revoked` verdicts for an intent already revoked: revoking twice. */
  revokedTwice: number;
  /** reward.revoked: distinct ids, copies, revocations never announced, ids naming no revocation, ids whose copies differ. */
  revocationsAnnounced: number;
  revocationCopies: number;
  unannouncedRevocations: number;
  wronglyAnnouncedRevocations: number;
  inconsistentRevocations: number;
  /** History items and guards on the table, and guards without exactly one item of the same XP and revocation (or items naming no guard). */
  historyItems: number;
  historyGuards: number;
  historyMismatched: number;
  /** Announcer batches given up (to its failure queue) and replayed from the stream. */
  givenUpBatches: number;
  /** The history writer's batches given up (to its failure queue) and replayed from the stream, as the demo does. */
  historyGivenUpBatches: number;
  /** Given-up batches (the writer's and the announcer's) the replay could not finish. */
  unreplayedBatches: number;
  /**
   * Readers' progress (checkProgress, as the demo checks it): kept days and achievement items on
   * the table; achievements held though revocations took back what crossed them (sticky, allowed
   * only if the state before the revocations earns them); distinct reward.achieved ids heard and
   * copies; ids whose copies differ; and what is not exact (kept days against the streak.day
   * intents paid and not revoked, counts against the history, achievements against the state,
   * each achievement heard under its one id and nothing else), the first few lines of it.
   */
  keptDays: number;
  achievements: number;
  stickyAchievements: number;
  achievedAnnounced: number;
  achievedCopies: number;
  inconsistentAchieved: number;
  progressMismatched: number;
  progressProblems: string[];
  /**
   * The week's board (checkBoard, as the demo checks it): readers' weeks with XP summed from the
   * history, this week's entries read page by page, and what is not exact (a week item against
   * its history's sum; the board against the ranking those sums make), the first few lines of it.
   */
  boardReaderWeeks: number;
  boardEntries: number;
  boardMismatched: number;
  boardProblems: string[];
  lost: number;
  doublePaid: number;
  /** Poison messages missing from the DLQ, and valid ones found there. */
  unparked: number;
  misparked: number;
  drained: boolean;
  /** The version of the site's rules published before the traffic, and guards not paid by it. */
  rulesVersion: number;
  guardsOffVersion: number;
  seconds: number;
  ok: boolean;
}

/** Lambda-like settings that let a killed worker's messages come back within seconds. */
const VISIBILITY_SECONDS = 3;
const INVOCATION_TIMEOUT_SECONDS = 2;
/**
 * Receives before SQS redrives a message. Higher than the deployed 5: here every call can
 * fail and workers die, so a valid message may see more deliveries than it would on AWS.
 */
const MAX_RECEIVE_COUNT = 10;

/** Every fault kind on the worker's path: its transaction, parking, receives and deletes. */
export function soakRules(): FaultRule[] {
  return [
    { operation: "TransactWriteItems", fault: "latency", probability: 0.2, fixedMs: 2, jitterMs: 10 },
    { operation: "TransactWriteItems", fault: "throttle", probability: 0.03 },
    { operation: "TransactWriteItems", fault: "conflict", probability: 0.03 },
    { operation: "TransactWriteItems", fault: "http500", probability: 0.02 },
    { operation: "TransactWriteItems", fault: "reset", probability: 0.02 },
    { operation: "TransactWriteItems", fault: "commitThenDrop", probability: 0.03 },
    { operation: "TransactWriteItems", fault: "blackHole", probability: 0.002 },
    { operation: "SendMessage", fault: "throttle", probability: 0.05 },
    { operation: "SendMessage", fault: "http500", probability: 0.03 },
    { operation: "SendMessage", fault: "commitThenDrop", probability: 0.05 },
    { operation: "DeleteMessageBatch", fault: "reset", probability: 0.02 },
    { operation: "DeleteMessageBatch", fault: "commitThenDrop", probability: 0.02 },
    { operation: "DeleteMessageBatch", fault: "http500", probability: 0.02 },
    { operation: "ReceiveMessage", fault: "latency", probability: 0.1, fixedMs: 5, jitterMs: 20 },
    { operation: "ReceiveMessage", fault: "http500", probability: 0.02 },
    { operation: "ReceiveMessage", fault: "commitThenDrop", probability: 0.01 },
  ];
}

/** Faults on the announcer's path: reading the stream (an iterator used while its answer is lost) and publishing. */
export function announcerRules(): FaultRule[] {
  return [
    { operation: "GetRecords", fault: "http500", probability: 0.02 },
    { operation: "GetRecords", fault: "commitThenDrop", probability: 0.02 },
    { operation: "PutEvents", fault: "latency", probability: 0.2, fixedMs: 2, jitterMs: 10 },
    { operation: "PutEvents", fault: "throttle", probability: 0.03 },
    { operation: "PutEvents", fault: "http500", probability: 0.02 },
    { operation: "PutEvents", fault: "reset", probability: 0.02 },
    { operation: "PutEvents", fault: "commitThenDrop", probability: 0.03 },
  ];
}

/** Faults on the history writer's own calls: its history and achievement puts, kept-day updates and readers' reads. */
export function historyRules(): FaultRule[] {
  return [
    { operation: "PutItem", fault: "latency", probability: 0.2, fixedMs: 2, jitterMs: 10 },
    { operation: "PutItem", fault: "throttle", probability: 0.03 },
    { operation: "PutItem", fault: "http500", probability: 0.02 },
    { operation: "PutItem", fault: "reset", probability: 0.02 },
    { operation: "PutItem", fault: "commitThenDrop", probability: 0.03 },
    { operation: "UpdateItem", fault: "throttle", probability: 0.03 },
    { operation: "UpdateItem", fault: "http500", probability: 0.02 },
    { operation: "UpdateItem", fault: "commitThenDrop", probability: 0.03 },
    { operation: "BatchGetItem", fault: "throttle", probability: 0.03 },
    { operation: "BatchGetItem", fault: "http500", probability: 0.02 },
  ];
}

/**
 * One seeded soak run: producer → queue → `rewards worker` processes → handler → table, every
 * fault kind on through fault proxies in front of SQS and DynamoDB, 27% duplicates, 2%
 * poison, a tenth of the awards revoked meanwhile, `rewards announcer` and `rewards history`
 * on the table's stream through their own faults, and optionally workers SIGKILLed mid-batch
 * (the announcer with them) and the history's writer SIGKILLed on its own schedule. Then the
 * writer catches up (its given-up batches replayed), then the announcer (its too); and every
 * user's award count and XP are compared with the traffic's, the DLQ with the poison sent,
 * the bus with the table's awards and revocations, the history with the guards, and every
 * reader's progress (kept days, counts, achievements, reward.achieved) as the demo checks it.
 */
export async function runSoak(options: SoakOptions): Promise<SoakRow> {
  const started = Date.now();
  const random = seededRandom(options.seed * 7919 + 1);
  const stack = await startLocalStack({
    visibilityTimeoutSeconds: VISIBILITY_SECONDS,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    // EventBridge failing single entries of a call (ThrottlingException), besides whole calls.
    busEntryFailureRate: 0.02,
    busSeed: options.seed,
  });
  let redeliveries = 0;
  const observe = (operation: string, status: number, body: Buffer) => {
    if (operation !== "ReceiveMessage" || status !== 200) return;
    const { Messages = [] } = JSON.parse(body.toString()) as { Messages?: Message[] };
    redeliveries += Messages.filter((m) => Number(m.Attributes?.ApproximateReceiveCount ?? 1) > 1).length;
  };
  const dynamoProxy = await startFaultProxy({
    target: stack.endpoints.dynamodb,
    rules: soakRules(),
    seed: options.seed,
  });
  const sqsProxy = await startFaultProxy({
    target: stack.endpoints.sqs,
    rules: soakRules(),
    seed: options.seed + 1,
    observe,
  });
  const streamProxy = await startFaultProxy({
    target: stack.endpoints.dynamodb,
    rules: announcerRules(),
    seed: options.seed + 2,
  });
  const busProxy = await startFaultProxy({
    target: stack.endpoints.eventbridge,
    rules: announcerRules(),
    seed: options.seed + 3,
  });
  const historyProxy = await startFaultProxy({
    target: stack.endpoints.dynamodb,
    rules: historyRules(),
    seed: options.seed + 4,
  });
  const workerEnv = {
    ...stack.env,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoProxy.endpoint,
    AWS_ENDPOINT_URL_SQS: sqsProxy.endpoint,
    LOG_LEVEL: "silent",
  };
  const announcerEnv = {
    ...stack.env,
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: streamProxy.endpoint,
    AWS_ENDPOINT_URL_EVENTBRIDGE: busProxy.endpoint,
    LOG_LEVEL: "silent",
  };
  const scratch = await mkdtemp(join(tmpdir(), "rewards-soak-"));
  const checkpoint = join(scratch, "announcer-checkpoint.json");
  const announcerArgs = [
    REWARDS_BIN,
    "announcer",
    "--checkpoint",
    checkpoint,
    "--timeout",
    String(INVOCATION_TIMEOUT_SECONDS),
    "--function",
    options.function ?? "source",
  ];
  // `--drain` runs keep their stderr: it says whether they caught up.
  const spawnAnnouncer = (...extra: string[]) =>
    spawn(process.execPath, [...announcerArgs, ...extra], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...announcerEnv },
      stdio: ["ignore", "ignore", extra.includes("--drain") ? "pipe" : "ignore"],
    });
  let announcer = spawnAnnouncer();
  // The history's writer on the same stream (its reads through the announcer's stream faults),
  // its own calls through its own faults, with the deployed retries and failure queue
  // (HISTORY_FAILURE_QUEUE_URL): a batch it gives up is replayed at the end, as the demo does.
  const historyCheckpoint = join(scratch, "history-checkpoint.json");
  const spawnHistory = (...extra: string[]) =>
    spawn(
      process.execPath,
      [
        REWARDS_BIN,
        "history",
        "--checkpoint",
        historyCheckpoint,
        "--timeout",
        String(INVOCATION_TIMEOUT_SECONDS),
        "--function",
        options.function ?? "source",
        ...extra,
      ],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...announcerEnv,
          AWS_ENDPOINT_URL_DYNAMODB: historyProxy.endpoint,
        },
        stdio: ["ignore", "ignore", extra.includes("--drain") ? "pipe" : "ignore"],
      },
    );
  let historyWriter = spawnHistory();
  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => child.once("exit", resolve));
  /**
   * A `--drain` run to its end: whether it caught up within `timeoutMs` (killed if not). It
   * exits 1 for batches it gave up too (replayed after it); only its own notice says it stopped
   * before catching up.
   */
  const drainedBy = async (child: ChildProcess, timeoutMs: number): Promise<boolean> => {
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    await exited(child);
    clearTimeout(timer);
    return child.signalCode === null && !stderr.includes("--drain stopped by");
  };
  const workers = new Set<ChildProcess>();
  const startWorker = () => {
    const child = spawn(
      process.execPath,
      [
        REWARDS_BIN,
        "worker",
        "--wait",
        "1",
        "--timeout",
        String(INVOCATION_TIMEOUT_SECONDS),
        "--pollers",
        "2",
        "--function",
        options.function ?? "source",
      ],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...workerEnv }, stdio: "ignore" },
    );
    workers.add(child);
    child.once("exit", () => workers.delete(child));
    return child;
  };
  /** Set when the run ends, however: the writer's kills stop (no writer started after it). */
  let stopping = false;
  const direct = { ...stack.env, AWS_REGION: stack.env.AWS_REGION ?? "us-east-1" };
  const sqs = createSqsClient(direct);
  const dynamo = createDynamoClient(direct);
  try {
    // A site's rules, published before anything is paid (docs/rules.md): one more type, the
    // built-in pay unchanged, so every award is judged, guarded and decided under version 1 while
    // workers, the writer and the announcer die and come back.
    const published = await publishRules(
      dynamo,
      stack.resources.tableName,
      rulesWith((rules) => {
        rules.types["podcast.listened"] = {
          data: { episode: { type: "string", maxLength: 64 }, minutes: { type: "integer", minimum: 0 } },
          key: ["episode"],
          xp: { per: "minutes", each: 1, max: 60 },
          memory: 30,
        };
      }),
      { note: "soak" },
    );
    if (published.kind !== "published")
      throw new Error(`the soak's rules were not published: ${published.kind}`);
    const traffic = generateTraffic({
      events: options.events,
      users: options.users ?? Math.max(10, Math.round(options.events / 50)),
      duplicates: 0.27,
      invalid: 0.02,
      old: 0.03,
      seed: options.seed,
    });
    const sent = await sendTraffic(traffic.messages, { sqs, queueUrl: stack.resources.queueUrl });
    if (sent.failed.length > 0) throw new Error(`${sent.failed.length} events could not be published`);

    // The intents to revoke: a seeded share of the unique ones, by line (an event, or its key).
    const uniques = traffic.messages.flatMap((message) => {
      if (message.kind !== "unique") return [];
      const decoded = decodeEvent(message.body);
      return decoded.ok ? [{ body: message.body, award: decoded.award }] : [];
    });
    // Its own random sequence: the kills' timing stays the seed's.
    const revokeRandom = seededRandom(options.seed * 7919 + 2);
    const toRevoke = uniques.filter(() => revokeRandom() < (options.revoke ?? 0.1));
    const revocations = new Map<string, number>(toRevoke.map(({ award }) => [award.intentKey, 0]));
    const pendingRevocation = new Set(revocations.keys());
    let revokeRuns = 0;
    let revokedTwice = 0;
    const revokeFile = join(scratch, "revoke.ndjson");
    await writeFile(
      revokeFile,
      `${toRevoke.map(({ body, award }, i) => (i % 2 === 0 ? body : JSON.stringify({ intentKey: award.intentKey }))).join("\n")}\n`,
    );
    /**
     * The same file, again and again, while the workers pay (and die): an intent not yet paid is
     * `not_found` and tried in the next run; one revoked must say `already_revoked` ever after.
     */
    const revokeWhileRunning = async (until: number) => {
      while (pendingRevocation.size > 0 && Date.now() < until) {
        await delay(200 + Math.floor(revokeRandom() * 300));
        revokeRuns++;
        const run = await runRevoke(revokeFile, workerEnv);
        for (const result of run) {
          if (!result.intentKey) continue;
          if (result.verdict === "revoked") {
            const before = revocations.get(result.intentKey) ?? 0;
            if (before > 0 || !pendingRevocation.has(result.intentKey)) revokedTwice++;
            revocations.set(result.intentKey, before + 1);
          }
          if (result.verdict === "revoked" || result.verdict === "already_revoked")
            pendingRevocation.delete(result.intentKey);
        }
      }
    };

    for (let i = 0; i < (options.workers ?? 2); i++) startWorker();
    // Until every chosen intent is revoked: the last ones paid may need a run after the drain.
    const revoking = revokeWhileRunning(Date.now() + 90_000 + options.events * 40);
    // The history's writer on its own schedule (its own random sequence), wherever it is: mid-batch
    // between a history put and its reader's progress, or between an achievement's put and its
    // listing. A new one resumes from the checkpoint; what the killed one wrote is written again.
    const historyRandom = seededRandom(options.seed * 7919 + 3);
    let historyKills = 0;
    const killingHistory = (async () => {
      for (; historyKills < (options.kills ?? 0); historyKills++) {
        await delay(1500 + Math.floor(historyRandom() * 2500));
        if (stopping) return;
        historyWriter.kill("SIGKILL");
        await exited(historyWriter);
        historyWriter = spawnHistory();
      }
    })();
    let kills = 0;
    for (; kills < (options.kills ?? 0); kills++) {
      await delay(1000 + Math.floor(random() * 2000));
      // Mid-batch: only while messages are in flight.
      while ((await queueCounts(sqs, stack.resources.queueUrl)).inFlight === 0) {
        if ((await queueCounts(sqs, stack.resources.queueUrl)).visible === 0) break;
        await delay(20);
      }
      const victims = [...workers];
      const victim = victims[Math.floor(random() * victims.length)];
      if (!victim) break;
      victim.kill("SIGKILL");
      await new Promise((resolve) => victim.once("exit", resolve));
      startWorker();
      // The announcer too, wherever it is: it resumes from its last checkpoint.
      announcer.kill("SIGKILL");
      await exited(announcer);
      announcer = spawnAnnouncer();
    }
    await killingHistory;
    const drained = await waitForDrain(sqs, stack.resources.queueUrl, 60_000 + options.events * 40);
    await revoking;
    await Promise.all(
      [...workers].map((worker) => {
        worker.kill("SIGTERM");
        return new Promise((resolve) => worker.once("exit", resolve));
      }),
    );
    // Every award and revocation is in the table now. First the history's writer catches up
    // (one last writer runs until it has written them all), and the batches it gave up are
    // replayed from the stream, as the demo does (`rewards history replay`): every history item,
    // kept day and achievement item is then written.
    const catchUpMs = 60_000 + options.events * 40;
    historyWriter.kill("SIGTERM");
    await exited(historyWriter);
    historyWriter = spawnHistory("--drain");
    const historyCaughtUp = await drainedBy(historyWriter, catchUpMs);
    const historyReplayed = await replayStreamFailures({
      sqs,
      streams: createStreamsClient({ ...direct }),
      target: historyReplayTarget(createHistoryDeps({ ...stack.env, LOG_LEVEL: "silent" })),
      queueUrl: stack.resources.historyFailureQueueUrl,
      max: 1000,
      dryRun: false,
    });
    // Only then the announcer: the achievement items it announces are the writer's. One last
    // announcer, started after them, runs until it has announced everything; then its given-up batches.
    announcer.kill("SIGTERM");
    await exited(announcer);
    announcer = spawnAnnouncer("--drain");
    const announcerCaughtUp = await drainedBy(announcer, catchUpMs);
    const history = await checkHistory(dynamo, stack.resources.tableName);
    const replayed = await replayStreamFailures({
      sqs,
      streams: createStreamsClient({ ...direct }),
      target: announcerReplayTarget(createAnnouncerDeps({ ...stack.env, LOG_LEVEL: "silent" })),
      queueUrl: stack.resources.announcerFailureQueueUrl,
      max: 1000,
      dryRun: false,
    });
    const bus = await receiveGrants(sqs, stack.resources.grantsQueueUrl, {
      max: Number.MAX_SAFE_INTEGER,
      waitSeconds: 0,
      keep: false,
    });
    const received = bus.announcements.map(({ announcement }) => announcement);
    const grants = await checkGrants(dynamo, stack.resources.tableName, grantsAmong(bus));
    // Every revoked intent's guard, and the reward.revoked it announces.
    const expectedRevocations = new Map<string, RewardRevoked>();
    for (const intentKey of revocations.keys()) {
      const { Item } = await dynamo.send(
        new GetCommand({
          TableName: stack.resources.tableName,
          Key: guardKey(intentKey),
          ConsistentRead: true,
        }),
      );
      const guard = guardImageSchema.safeParse(Item);
      if (!guard.success || guard.data.revokedAt === undefined || guard.data.revokedReason === undefined)
        continue;
      // Its id is the revocation's (docs/revoking.md): (intent key, awardedAt, "revoked").
      const revocation = rewardRevoked({
        ...guard.data,
        revokedAt: guard.data.revokedAt,
        revokedReason: guard.data.revokedReason,
      });
      if (revocation.id === revokeId(intentKey, guard.data.awardedAt))
        expectedRevocations.set(revocation.id, revocation);
    }
    const revokedSeen = new Map<string, RewardRevoked>();
    const inconsistentRevocations = new Set<string>();
    let revocationCopies = 0;
    for (const item of received) {
      if (item.type !== "reward.revoked") continue;
      revocationCopies++;
      const earlier = revokedSeen.get(item.id) ?? expectedRevocations.get(item.id);
      if (earlier && !isDeepStrictEqual(earlier, item)) inconsistentRevocations.add(item.id);
      revokedSeen.set(item.id, item);
    }
    const revokedXp = new Map<string, { xp: number; awards: number }>();
    // A revoked streak.day award un-keeps its day (docs/reading.md#streaks).
    const unkept = new Set<string>();
    for (const { award } of toRevoke) {
      if (pendingRevocation.has(award.intentKey)) continue;
      const taken = revokedXp.get(award.userId) ?? { xp: 0, awards: 0 };
      revokedXp.set(award.userId, { xp: taken.xp + award.amount, awards: taken.awards + 1 });
      const day = award.data.day ?? award.day;
      if (award.type === "streak.day" && day !== undefined) unkept.add(`${award.userId} ${day}`);
    }

    // Every reader's progress, exactly as the demo checks it: the kept days are the days of the
    // streak.day intents sent and paid, less those revoked; reward.achieved as heard on the bus.
    const achieved = achievedAmong(bus);
    const expectedKeptDays = Object.fromEntries(
      Object.entries(traffic.expectedKeptDays).map(([userId, days]) => [
        userId,
        days.filter((day) => !unkept.has(`${userId} ${day}`)),
      ]),
    );
    const progress = await checkProgress(dynamo, stack.resources.tableName, expectedKeptDays, achieved);
    // Every reader's weeks against their history, though the writer was killed; the board's pages.
    const board = await checkBoard(dynamo, stack.resources.tableName, {
      shards: DEFAULT_BOARD_SHARDS,
      keepWeeks: DEFAULT_BOARD_WEEKS,
    });
    // One achievement, one event: every copy of a reward.achieved id the same.
    const achievedSeen = new Map<string, RewardAchieved>();
    const inconsistentAchieved = new Set<string>();
    for (const event of achieved) {
      const earlier = achievedSeen.get(event.id);
      if (earlier && !isDeepStrictEqual(earlier, event)) inconsistentAchieved.add(event.id);
      achievedSeen.set(event.id, event);
    }

    const expectedAwards = new Map<string, number>();
    for (const message of traffic.messages) {
      if (message.kind !== "unique") continue;
      const userId = (JSON.parse(message.body) as { data: { userId: string } }).data.userId;
      expectedAwards.set(userId, (expectedAwards.get(userId) ?? 0) + 1);
    }
    const userIds = Object.keys(traffic.expectedXp);
    const profiles = await readProfiles(dynamo, stack.resources.tableName, userIds);
    let lost = 0;
    let doublePaid = 0;
    for (const userId of userIds) {
      // Paid − revoked.
      const taken = revokedXp.get(userId) ?? { xp: 0, awards: 0 };
      const want = {
        xp: (traffic.expectedXp[userId] ?? 0) - taken.xp,
        awards: (expectedAwards.get(userId) ?? 0) - taken.awards,
      };
      const got = profiles.get(userId) ?? { xp: 0, awards: 0 };
      lost += Math.max(0, want.awards - got.awards);
      doublePaid += Math.max(0, got.awards - want.awards);
      // Equal counts but other XP would be a wrong award: counted on both sides.
      if (got.awards === want.awards && got.xp !== want.xp) {
        lost++;
        doublePaid++;
      }
    }

    // Every intent paid by the version published at the start: its guard says so.
    const guardsOffVersion = (
      await batchGetAll(
        dynamo,
        stack.resources.tableName,
        uniques.map(({ award }) => guardKey(award.intentKey)),
        "guards",
      )
    ).filter((guard) => guard.rulesVersion !== published.version).length;

    // Poison, and events older than their rule's memory: both belong in the DLQ, never paid.
    const poisonBodies = new Set(
      traffic.messages.filter((m) => m.kind === "invalid" || m.kind === "stale").map((m) => m.body),
    );
    const dlq = await drain(sqs, stack.resources.dlqUrl);
    const parkedSources = new Set(
      dlq
        .filter((m) => m.MessageAttributes?.["rewards.error"]?.StringValue)
        .map((m) => m.MessageAttributes?.["rewards.sourceMessageId"]?.StringValue),
    );
    const dlqBodies = new Set(dlq.map((m) => m.Body ?? ""));
    const staleParked = new Set(
      dlq
        .filter((m) => m.MessageAttributes?.["rewards.error"]?.StringValue === "stale")
        .map((m) => m.MessageAttributes?.["rewards.sourceMessageId"]?.StringValue),
    ).size;
    const unparked = [...poisonBodies].filter((body) => !dlqBodies.has(body)).length;
    const misparked = dlq.filter(
      (m) => !poisonBodies.has(m.Body ?? "") || !m.MessageAttributes?.["rewards.reason"]?.StringValue,
    ).length;
    const proxies = [dynamoProxy, sqsProxy, streamProxy, busProxy, historyProxy].map((proxy) =>
      proxy.counts(),
    );
    const faults = Object.fromEntries(
      (Object.keys(proxies[0] ?? {}) as Array<FaultKind | "forwarded">)
        .filter((kind) => kind !== "forwarded")
        .map((kind) => [kind, proxies.reduce((sum, counts) => sum + counts[kind], 0)]),
    ) as Record<FaultKind, number>;
    const row: SoakRow = {
      seed: options.seed,
      events: options.events,
      uniqueIntents: traffic.uniqueIntents,
      duplicates: traffic.counts.duplicate,
      poison: traffic.counts.invalid,
      stale: traffic.counts.stale,
      staleParked,
      faults,
      redeliveries,
      parked: parkedSources.size,
      dlqCopies: dlq.length,
      kills,
      historyKills,
      historyCaughtUp,
      announcerCaughtUp,
      announced: grants.announced,
      grantCopies: grants.copies,
      unannounced: grants.missing.length,
      // Ids naming no award, and messages on the grants queue that hold no announcement.
      wronglyAnnounced: grants.unexpected.length + bus.unreadable.length,
      inconsistentGrants: grants.inconsistent.length,
      revoked: revocations.size - pendingRevocation.size,
      revokedXp: [...revokedXp.values()].reduce((sum, taken) => sum + taken.xp, 0),
      revokeRuns,
      revokedTwice,
      revocationsAnnounced: revokedSeen.size,
      revocationCopies,
      unannouncedRevocations:
        pendingRevocation.size + [...expectedRevocations.keys()].filter((id) => !revokedSeen.has(id)).length,
      wronglyAnnouncedRevocations: [...revokedSeen.keys()].filter((id) => !expectedRevocations.has(id))
        .length,
      inconsistentRevocations: inconsistentRevocations.size,
      historyItems: history.items,
      historyGuards: history.guards,
      historyMismatched: history.mismatched.length,
      givenUpBatches: replayed.length,
      historyGivenUpBatches: historyReplayed.length,
      unreplayedBatches: [...historyReplayed, ...replayed].filter((r) => r.outcome !== "replayed").length,
      keptDays: progress.keptDays,
      achievements: progress.achievements,
      stickyAchievements: progress.sticky,
      achievedAnnounced: progress.announced,
      achievedCopies: progress.copies,
      inconsistentAchieved: inconsistentAchieved.size,
      progressMismatched: progress.mismatched.length,
      progressProblems: progress.mismatched.slice(0, 10),
      boardReaderWeeks: board.readerWeeks,
      boardEntries: board.onBoard,
      boardMismatched: board.mismatched.length,
      boardProblems: board.mismatched.slice(0, 10),
      lost,
      doublePaid,
      unparked,
      misparked,
      drained,
      rulesVersion: published.version,
      guardsOffVersion,
      seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
      ok: false,
    };
    row.ok =
      drained &&
      guardsOffVersion === 0 &&
      lost === 0 &&
      doublePaid === 0 &&
      unparked === 0 &&
      misparked === 0 &&
      row.parked === row.poison + row.stale &&
      row.staleParked === row.stale &&
      row.announced === row.uniqueIntents &&
      row.unannounced === 0 &&
      row.wronglyAnnounced === 0 &&
      row.inconsistentGrants === 0 &&
      row.revoked === revocations.size &&
      row.revokedTwice === 0 &&
      row.revocationsAnnounced === row.revoked &&
      row.unannouncedRevocations === 0 &&
      row.wronglyAnnouncedRevocations === 0 &&
      row.inconsistentRevocations === 0 &&
      row.historyMismatched === 0 &&
      row.historyItems === row.uniqueIntents &&
      row.historyItems === row.historyGuards &&
      row.historyCaughtUp &&
      row.announcerCaughtUp &&
      row.unreplayedBatches === 0 &&
      row.progressMismatched === 0 &&
      row.boardMismatched === 0 &&
      row.inconsistentAchieved === 0 &&
      row.achievedAnnounced === row.achievements;
    return row;
  } finally {
    stopping = true;
    for (const worker of workers) worker.kill("SIGKILL");
    announcer.kill("SIGKILL");
    historyWriter.kill("SIGKILL");
    await rm(scratch, { recursive: true, force: true });
    await streamProxy.stop();
    await busProxy.stop();
    await historyProxy.stop();
    sqs.destroy();
    dynamo.destroy();
    await dynamoProxy.stop();
    await sqsProxy.stop();
    await stack.stop();
  }
}

/** `rewards revoke FILE --yes --json`, the real command in a child process (async: never blocks the emulator). */
function runRevoke(file: string, env: Record<string, string | undefined>): Promise<RevokeResult[]> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [REWARDS_BIN, "revoke", file, "--reason", "soak", "--yes", "--json"],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.once("exit", () => {
      try {
        resolve((JSON.parse(stdout) as { results: RevokeResult[] }).results);
      } catch {
        // Stopped before its report (a fault it could not get past): the next run tries again.
        resolve([]);
      }
    });
  });
}
