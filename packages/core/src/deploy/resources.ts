import type { EventPattern } from "../domain/announce/eventPattern";
import {
  ACHIEVEMENT_SK_PREFIX,
  BOARD_INDEX,
  BOARD_PARTITION_KEY,
  BOARD_SORT_KEY,
  GUARD_SK,
  PARTITION_KEY,
  SORT_KEY,
  TTL_ATTRIBUTE,
} from "../domain/table/tableLayout";

/**
 * The one definition of the AWS resources, read by both the SST app (infra/) and the
 * local stack (packages/local), so what runs locally is what deploys.
 */
const worker = {
  timeoutSeconds: 30,
  batchSize: 10,
  maximumBatchingWindowSeconds: 1,
  memoryMb: 512,
  runtime: "nodejs22.x",
  /**
   * Concurrent invocations the event source mapping may run (its ScalingConfig), so a
   * backlog cannot flood the table or what reads it. AWS's minimum is 2. Override per
   * deploy with REWARDS_MAXIMUM_CONCURRENCY.
   */
  maximumConcurrency: 10,
  /**
   * User groups one invocation processes at once (the function's REWARDS_CONCURRENCY), each
   * one transaction in flight on a socket of its own: a batch of up to 100 users sends all its
   * transactions in one wave. Each user's items are their own partition keys, so DynamoDB's
   * per-partition limits (1,000 WCU/s) are not what bounds it; 100 idle keep-alive sockets
   * cost a few MiB of the function's memory.
   */
  concurrency: 100,
  logRetention: "1 month",
} as const;

/**
 * Guard writes that can be awards or revocations (Lambda's filter syntax): an INSERT (a new
 * guard) or a MODIFY (a guard that replaced an expired one, or its revocation), never a profile
 * update or a REMOVE (the TTL sweeper).
 */
const guardWrites = {
  eventName: ["INSERT", "MODIFY"],
  dynamodb: { Keys: { sk: { S: [GUARD_SK] } } },
} as const satisfies EventPattern;

/** An achievement earned: the INSERT of an achievement item (put once, never changed nor deleted). */
const achievementInserts = {
  eventName: ["INSERT"],
  dynamodb: { Keys: { sk: { S: [{ prefix: ACHIEVEMENT_SK_PREFIX }] } } },
} as const satisfies EventPattern;

/**
 * The announcer: the table's stream in, `reward.granted`, `reward.revoked` and `reward.achieved`
 * out (its event source mapping's settings; the local stream source applies the same ones).
 */
const announcer = {
  timeoutSeconds: 30,
  memoryMb: 256,
  runtime: "nodejs22.x",
  /** Records per invocation: up to 10 PutEvents calls of 10 entries. */
  batchSize: 100,
  /** Retries of a failing batch (bisected first) before its place goes to the failure queue. */
  maximumRetryAttempts: 10,
  /**
   * Records older than this are given up (to the failure queue) rather than retried: 6 hours,
   * so an operator still has 18 of the stream's 24 hours to replay them from the stream.
   */
  maximumRecordAgeSeconds: 6 * 60 * 60,
  /** A failing batch is halved until the record that fails is alone: the others go through. */
  bisectBatchOnFunctionError: true,
  /** A new mapping reads what the stream already holds: no award made before it existed is missed. */
  startingPosition: "TRIM_HORIZON",
  /**
   * The mapping's filters (Lambda's filter syntax; a record matching any one is delivered): guard
   * writes that can be awards or revocations, and achievements' INSERTs — never a profile
   * update, a history item or a REMOVE (the TTL sweeper).
   */
  filterPatterns: [guardWrites, achievementInserts],
  logRetention: "1 month",
} as const;

/**
 * The history's writer: the table's stream in, one history item per award out (docs/history.md). Its own
 * event source mapping (its own retries, iterator age, failure queue), with the announcer's
 * guard filter: the same guard writes, so every award (0 XP included) reaches it (and not the
 * achievements it writes itself).
 */
const history = {
  /** The function's name locally (SST derives its own per stage). */
  name: "rewards-history",
  timeoutSeconds: 30,
  memoryMb: 256,
  runtime: "nodejs22.x",
  /** Records per invocation: up to 100 PutItem calls, a few at once. */
  batchSize: 100,
  /** Retries of a failing batch (bisected first) before its place goes to the failure queue. */
  maximumRetryAttempts: 10,
  /** As the announcer's: 6 hours, leaving 18 of the stream's 24 hours to replay from the stream. */
  maximumRecordAgeSeconds: 6 * 60 * 60,
  /** A failing batch is halved until the record that fails is alone: the others go through. */
  bisectBatchOnFunctionError: true,
  /** A new mapping reads what the stream already holds: no award made before it existed is missed. */
  startingPosition: "TRIM_HORIZON",
  /** Guard INSERTs and MODIFYs only (the announcer's first filter): every award and revocation. */
  filterPatterns: [guardWrites],
  /** PutItem calls one invocation has in flight at once (distinct item keys). */
  concurrency: 10,
  logRetention: "1 month",
} as const;

/**
 * The HTTP read API (docs/reading.md#the-http-read-api): a Lambda function URL over the
 * reader library. Each request is one or two reads of the table, so a small function with a
 * short timeout.
 */
const readApi = {
  /** The function's name locally (SST derives its own per stage). */
  name: "rewards-read-api",
  /** A request is at most two strongly consistent reads; 10 s leaves the SDK room for its retries. */
  timeoutSeconds: 10,
  memoryMb: 256,
  runtime: "nodejs22.x",
  logRetention: "1 month",
} as const;

/**
 * AWS advises a visibility timeout of at least six times the function timeout plus the
 * batch window, so a message is not redelivered while a retried invocation still holds
 * it; 30 s more on top as headroom.
 */
const VISIBILITY_HEADROOM_SECONDS = 30;

export const resources = {
  table: {
    /** Local name; SST derives its own per stage. */
    name: "rewards",
    partitionKey: PARTITION_KEY,
    sortKey: SORT_KEY,
    billing: "PAY_PER_REQUEST",
    ttlAttribute: TTL_ATTRIBUTE,
    /** The announcer reads each award's guard as written: the new image is all it needs. */
    streamViewType: "NEW_IMAGE",
    /**
     * The week's board (docs/board.md#sharding): sparse (only week items carry its keys, and only
     * the history's writer writes them) and keys only, since an entry's sort key holds its XP and
     * user, so a shard's top 20 is about 2 KB: half a read unit.
     */
    boardIndex: {
      name: BOARD_INDEX,
      partitionKey: BOARD_PARTITION_KEY,
      sortKey: BOARD_SORT_KEY,
      projection: "KEYS_ONLY",
    },
  },
  queue: {
    name: "rewards-events",
    visibilityTimeoutSeconds:
      6 * worker.timeoutSeconds + worker.maximumBatchingWindowSeconds + VISIBILITY_HEADROOM_SECONDS,
    retentionSeconds: 4 * 24 * 60 * 60,
    receiveWaitTimeSeconds: 20,
  },
  deadLetterQueue: {
    name: "rewards-events-dlq",
    /** Longer than the queue's, so a redriven message never expires sooner than it would have. */
    retentionSeconds: 14 * 24 * 60 * 60,
  },
  redrive: { maxReceiveCount: 5 },
  worker,
  announcer,
  history,
  readApi,
  /** Where `reward.granted`, `reward.revoked` and `reward.achieved` go. Local name; SST derives its own per stage. */
  bus: {
    name: "rewards-bus",
    source: "rewards",
    detailTypes: ["reward.granted", "reward.revoked", "reward.achieved"],
  },
  /** The announcer's on-failure destination: batches given up, by their place in the stream. */
  announcerFailureQueue: {
    name: "rewards-announcer-failures",
    retentionSeconds: 14 * 24 * 60 * 60,
  },
  /** The history writer's on-failure destination: batches given up, by their place in the stream. */
  historyFailureQueue: {
    name: "rewards-history-failures",
    retentionSeconds: 14 * 24 * 60 * 60,
  },
  /** Locally only: the queue a rule on the bus fills with EventBridge's envelope (`rewards grants tail` reads it). */
  grantsQueue: { name: "rewards-grants" },
  /**
   * Locally only: a consumer under development's own queue, filled by a second rule with
   * `InputPath=$.detail` (the CloudEvent alone, as the recommended production rule delivers).
   */
  consumerQueue: { name: "rewards-consumer" },
  alarms: {
    /** The queue's oldest message older than this means the worker is not keeping up. */
    oldestMessageAgeSeconds: 10 * 60,
    /** `failed` above zero for this many 1-minute periods in a row: a real outage, not a blip. */
    failedPeriods: 5,
    /** The announcer's oldest unread award older than this (IteratorAge, 3 minutes in a row): it is falling behind. */
    iteratorAgeMs: 5 * 60 * 1000,
    iteratorAgePeriods: 3,
    /** The history writer's oldest unread award older than this (IteratorAge, 3 minutes in a row). */
    historyIteratorAgeMs: 5 * 60 * 1000,
    historyIteratorAgePeriods: 3,
    /** The read API's 5xx answers in a minute, this many minutes in a row: readers see errors. */
    readApi5xxPerMinute: 5,
    readApi5xxPeriods: 3,
    /** The read API's p99 latency above this (ms), this many 1-minute periods in a row. */
    readApiP99Ms: 1000,
    readApiP99Periods: 5,
  },
} as const;

export type Resources = typeof resources;
