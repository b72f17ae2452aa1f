/**
 * Renders bench/REPORT.md from bench/results.json (written by bench/peersBench.ts) and
 * bench/results.coldstart.json (bench/coldStart.ts), so the report always shows one run's
 * numbers, never a hand edit.
 */
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { type RulesCostResults, rulesSection } from "./rulesReport";

/** `--results FILE --coldstart FILE --out FILE`: other paths (the CI smoke renders a smoke run). */
const { values: paths } = parseArgs({
  options: { results: { type: "string" }, coldstart: { type: "string" }, out: { type: "string" } },
});
const here = (file: string) => new URL(file, import.meta.url);

interface Latency {
  roundTripMs: number;
  size: number;
  pattern: "distinct" | "repeating" | "mixed";
  batches: number;
  p50Ms: number;
  p99Ms: number;
  p50RoundTrips: number;
}
interface ColdStartRow {
  name: string;
  bundleKiB: number | null;
  readyMedianMs: number;
  readyP90Ms: number;
  initOverBareNodeMs: number;
  firstBatchMedianMs: number | null;
  firstBatchP90Ms: number | null;
}
interface Crash {
  diesAfter: string;
  doubleAwards: number;
  lostAwards: number;
}
interface Drop {
  where: "above" | "below";
  deliveries: number;
  doubleAwards: number;
  lostAwards: number;
}
interface Depth {
  size: number;
  pattern: Latency["pattern"];
  users: number;
  roundTripMs: number;
  calls: number;
  byOperation: Record<string, number>;
  measuredDepth: number;
  /** Older runs lack it. */
  waveSpreadMs?: number;
  computedDepth: number;
  batchRoundTrips: number;
}
interface ServiceTime {
  samples: number;
  p50Ms: number;
  p90Ms: number;
}
interface PeerResult {
  sequence: string[];
  callsPerNewEvent: number;
  callsPerDuplicate: number;
  itemBytes: { profile: number; guard: number; idempotencyRecord: number };
  /** Older runs: one award alone (k = 1), before per-user transactions. */
  writeUnitsPerNewEvent?: number;
  readUnitsPerNewEvent?: number;
  writeUnitsPerAward?: { k1: number; k5: number };
  readUnitsPerAward?: { k1: number; k5: number };
  writeUnitsPerDuplicate: number;
  readUnitsPerDuplicate: number;
  writeUnitsPerRecordMixed?: number;
  readUnitsPerRecordMixed?: number;
  criticalPath?: Depth[];
  msPerEventSequential: number;
  msPerEventFourInFlight: number;
  timeRatioSequential: number;
  timeRatioFourInFlight: number;
  batchLatency: Latency[];
  concurrentCopies: {
    intents: number;
    copies: number;
    doubleAwards: number;
    lostAwards: number;
    failedDeliveries: number;
  };
  crashWindows: Crash[];
  commitThenDrop: Drop[];
}
interface Results {
  generatedAt: string;
  seconds: number;
  workload: Record<string, number>;
  versions: Record<string, string>;
  peers: Record<string, PeerResult>;
  emulatorServiceTime?: {
    transaction2Items: ServiceTime;
    transaction100Items: ServiceTime;
    updateItem: ServiceTime;
  };
}

const results = JSON.parse(await readFile(paths.results ?? here("./results.json"), "utf8")) as Results;
const names = Object.keys(results.peers);
const peer = (name: string) => results.peers[name] as PeerResult;
const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;
const header = (cells: string[]) => [row(cells), row(cells.map(() => "---"))].join("\n");
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const w = results.workload;

const NOT_MEASURED = "not measured in this run";
const patternLabel: Record<Latency["pattern"], string> = {
  distinct: "distinct users",
  repeating: "five records per user",
  mixed: "five per user, half paid before",
};
const latencyLabel = (l: Pick<Latency, "size" | "pattern" | "roundTripMs">) =>
  `batch of ${l.size}, ${patternLabel[l.pattern]}, ${l.roundTripMs} ms a call`;
const shapeLabel = (d: Pick<Depth, "size" | "pattern">) => `batch of ${d.size}, ${patternLabel[d.pattern]}`;
const SIZES = [10, 100] as const;
const PATTERNS: Array<Latency["pattern"]> = ["distinct", "repeating", "mixed"];
const ROUND_TRIPS: number[] = (w.roundTripsMs as unknown as number[] | undefined) ?? [25, 50];
/** Every latency shape the report shows, measured in this run or not. */
const shapes = ROUND_TRIPS.flatMap((roundTripMs) =>
  SIZES.flatMap((size) => PATTERNS.map((pattern) => ({ roundTripMs, size, pattern }))),
);
const latencyOf = (name: string, shape: { size: number; pattern: string; roundTripMs: number }) =>
  peer(name).batchLatency.find(
    (l) => l.size === shape.size && l.pattern === shape.pattern && l.roundTripMs === shape.roundTripMs,
  );
const depthOf = (name: string, size: number, pattern: string) =>
  peer(name).criticalPath?.find((d) => d.size === size && d.pattern === pattern);
const ours = names[0] as string;
const others = names.slice(1);
const holds = (ok: boolean | undefined) =>
  ok === undefined ? NOT_MEASURED : ok ? "**holds**" : "**does not hold**";

/** p50 of this worker against each peer for one shape: "2.3× Powertools, 1.9× check-then-write", and whether all are ≥ 2×. */
function speedups(shape: { size: number; pattern: Latency["pattern"]; roundTripMs: number }) {
  const mine = latencyOf(ours, shape);
  if (!mine) return { text: `${latencyLabel(shape)}: ${NOT_MEASURED}`, twice: undefined };
  const ratios = others.map((name) => {
    const theirs = latencyOf(name, shape)?.p50Ms ?? Number.NaN;
    return { name, theirs, ratio: theirs / mine.p50Ms };
  });
  const twice = ratios.some((r) => Number.isNaN(r.ratio)) ? undefined : ratios.every((r) => r.ratio >= 2);
  return {
    text: `${shape.roundTripMs} ms: ${mine.p50Ms} ms (${mine.p50RoundTrips} RT), against ${ratios.map((r) => `${r.name} ${r.theirs} ms (speed-up ${round1(r.ratio)}×)`).join(", ")}`,
    twice,
    roundTrips: mine.p50RoundTrips,
  };
}

/** Issue 27's targets, one line each, from this run's numbers. */
function targets(): string[] {
  const lines: string[] = [];
  const at = (size: 10 | 100, pattern: Latency["pattern"]) =>
    ROUND_TRIPS.map((roundTripMs) => speedups({ size, pattern, roundTripMs }));
  const ten = at(10, "repeating");
  const ten50 = latencyOf(ours, { size: 10, pattern: "repeating", roundTripMs: 50 });
  lines.push(
    `- Batch of 10, five records per user, ≤ 1.5 round trips at 50 ms: ${holds(ten50 ? ten50.p50RoundTrips <= 1.5 : undefined)}` +
      (ten50 ? ` (${ten50.p50RoundTrips} RT).` : "."),
  );
  lines.push(
    `- Batch of 10, five records per user, ≥ 2× faster than both peers at ${ROUND_TRIPS.join(" and ")} ms: ` +
      `${holds(ten.every((t) => t.twice !== undefined) ? ten.every((t) => t.twice) : undefined)} (${ten.map((t) => t.text).join("; ")}).`,
  );
  for (const pattern of ["repeating", "distinct"] as const) {
    const hundred = at(100, pattern);
    const depth = depthOf(ours, 100, pattern);
    lines.push(
      `- Batch of 100, ${patternLabel[pattern]}, ≥ 2× faster than both peers at ${ROUND_TRIPS.join(" and ")} ms: ` +
        `${holds(hundred.every((t) => t.twice !== undefined) ? hundred.every((t) => t.twice) : undefined)} (${hundred.map((t) => t.text).join("; ")}).`,
    );
    lines.push(
      `- Batch of 100, ${patternLabel[pattern]}, critical-path depth ≤ 2: ${holds(depth ? depth.measuredDepth <= 2 : undefined)}` +
        (depth
          ? ` (${depth.measuredDepth} measured${blurred(depth) ? ", † possibly overcounted" : ""}, ${depth.computedDepth} by design).`
          : "."),
    );
  }
  const k5 = peer(ours).writeUnitsPerAward?.k5;
  lines.push(
    `- Write units per award with five per user ≤ 2.5: ${holds(k5 === undefined ? undefined : k5 <= 2.5)}` +
      (k5 === undefined
        ? "."
        : ` (${k5}; ${others.map((n) => `${n} ${peer(n).writeUnitsPerAward?.k5 ?? "?"}`).join(", ")}).`),
  );
  const worse = worseRows().filter((f) => f.time);
  lines.push(
    `- No row where a peer is better on time, other than write units for one award alone: ${worse.length === 0 ? "**holds**" : `**does not hold** (${worse.length} row${worse.length === 1 ? "" : "s"}, listed under *What the numbers show*)`}.`,
  );
  return lines;
}
const round1 = (n: number) => Math.round(n * 10) / 10;

const coldStart = await readFile(paths.coldstart ?? here("./results.coldstart.json"), "utf8")
  .then(
    (text) => JSON.parse(text) as { generatedAt: string; runs: number; node: string; rows: ColdStartRow[] },
  )
  .catch(() => undefined);

function coldStartSection(): string[] {
  if (!coldStart)
    return [
      "## Cold start",
      "",
      "No `bench/results.coldstart.json`: run `npx tsx bench/coldStart.ts --out bench/results.coldstart.json`.",
      "",
    ];
  const deployed = coldStart.rows.find((r) => r.name.startsWith("deployed"));
  return [
    "## Cold start",
    "",
    `One run of \`npx tsx bench/coldStart.ts\` on ${coldStart.generatedAt.slice(0, 10)}: ${coldStart.runs} fresh \`node\` processes (${coldStart.node}) per`,
    "variant, taking turns. *Ready*: from spawn until the bundle's module has loaded and its handler is built",
    "(Lambda's init, clients and configuration included); *first batch*: 10 new awards against the local stack, in the",
    "same fresh process (the first calls open connections and warm the SDK).",
    "",
    header(["", "bundle", "ready p50 / p90", "init over bare node (p50)", "first batch p50 / p90"]),
    ...coldStart.rows.map((r) =>
      row([
        r.name,
        r.bundleKiB === null ? "—" : `${r.bundleKiB} KiB`,
        `${r.readyMedianMs} / ${r.readyP90Ms} ms`,
        r.name === "bare node" ? "—" : `${r.initOverBareNodeMs} ms`,
        r.firstBatchMedianMs === null ? "—" : `${r.firstBatchMedianMs} / ${r.firstBatchP90Ms} ms`,
      ]),
    ),
    "",
    deployed
      ? `Goal: the deployed bundle's init within 100 ms of bare node startup — ${deployed.initOverBareNodeMs <= 100 ? "met" : "not met"} (${deployed.initOverBareNodeMs} ms).`
      : "",
    "",
  ];
}

interface Worse {
  line: string;
  /** A time row (latency, ms per event) rather than units. */
  time: boolean;
  /** Write units for one award alone: a transaction's floor, 2 WCU per item. */
  floor: boolean;
}

/** Every measured cost where a peer did better than this worker in this run (lower is better). */
function worseRows(): Worse[] {
  type Metric = [label: string, value: (p: PeerResult) => number | undefined, time: boolean, floor?: boolean];
  const metrics: Metric[] = [
    [
      "write units per award, one award of a user alone (k = 1)",
      (p) => p.writeUnitsPerAward?.k1,
      false,
      true,
    ],
    ["write units per award, five awards of one user (k = 5)", (p) => p.writeUnitsPerAward?.k5, false],
    ["write units per duplicate delivered alone", (p) => p.writeUnitsPerDuplicate, false],
    ["write units per record, five per user with half paid before", (p) => p.writeUnitsPerRecordMixed, false],
    ["read units per award (k = 1)", (p) => p.readUnitsPerAward?.k1 ?? p.readUnitsPerNewEvent, false],
    ["read units per duplicate", (p) => p.readUnitsPerDuplicate, false],
    ["ms per event, sequential", (p) => p.msPerEventSequential, true],
    ["ms per event, 4 in flight", (p) => p.msPerEventFourInFlight, true],
    ...shapes.flatMap((shape): Metric[] => [
      [`p50 ms, ${latencyLabel(shape)}`, (p) => p.batchLatency.find((l) => same(l, shape))?.p50Ms, true],
      [`p99 ms, ${latencyLabel(shape)}`, (p) => p.batchLatency.find((l) => same(l, shape))?.p99Ms, true],
    ]),
  ];
  return others.flatMap((name) =>
    metrics.flatMap(([label, value, time, floor]) => {
      const theirs = value(peer(name));
      const mine = value(peer(ours));
      if (theirs === undefined || mine === undefined || !(theirs < mine)) return [];
      const note = floor ? " (the transactional floor: one guard and one profile, 2 WCU each)" : "";
      return [{ line: `${label}: ${name} ${theirs} against ${mine}${note}`, time, floor: floor ?? false }];
    }),
  );
}
const same = (l: Latency, shape: { size: number; pattern: string; roundTripMs: number }) =>
  l.size === shape.size && l.pattern === shape.pattern && l.roundTripMs === shape.roundTripMs;

/** The rows where a peer measured better, time rows first; the one-award floor labelled as such. */
function betterElsewhere(): string[] {
  const found = worseRows();
  return found.length === 0
    ? ["- No row of this run where a peer measured better."]
    : [
        "- Every row where a peer measured better in this run:",
        ...[...found.filter((f) => f.time), ...found.filter((f) => !f.time)].map((f) => `  - ${f.line}`),
      ];
}

const service = results.emulatorServiceTime;
const cell = (value: number | string | undefined, unit = "") =>
  value === undefined ? NOT_MEASURED : `${value}${unit}`;

/** The emulator's serial time, and how to read the round-trip counts with it. */
function serviceTimeSection(): string[] {
  if (!service)
    return [
      "## The emulator's serial service time",
      "",
      `${NOT_MEASURED[0]?.toUpperCase()}${NOT_MEASURED.slice(1)}.`,
      "",
    ];
  const t2 = service.transaction2Items.p50Ms;
  return [
    "## The emulator's serial service time",
    "",
    "Sequential calls straight to the local DynamoDB (no proxy, no injected latency), as the SDK client sees them",
    "(signing and JSON included), p50 / p90:",
    "",
    header(["call", "samples", "p50 / p90"]),
    row([
      "`TransactWriteItems`, 1 guard + 1 profile",
      service.transaction2Items.samples,
      `${t2} / ${service.transaction2Items.p90Ms} ms`,
    ]),
    row([
      "`TransactWriteItems`, 99 guards + 1 profile (100 items)",
      service.transaction100Items.samples,
      `${service.transaction100Items.p50Ms} / ${service.transaction100Items.p90Ms} ms`,
    ]),
    row([
      "`UpdateItem` (profile `ADD`)",
      service.updateItem.samples,
      `${service.updateItem.p50Ms} / ${service.updateItem.p90Ms} ms`,
    ]),
    "",
    "moto serves one request at a time (the launcher's lock), so concurrent calls queue: a batch of 100 distinct users is",
    `100 transactions that arrive together and are served one after another — about 100 × ${t2} ms ≈ ${Math.round(100 * t2)} ms`,
    "on top of one injected round trip — while on AWS they run in parallel and the batch takes about one round trip",
    "plus one service time. The same holds for the peers' calls (three per record: 300 for a batch of 100). Read a",
    "round-trip count in the latency table as: critical-path depth (below) + (calls in the batch × service time) ÷ round",
    "trip; the last term is this emulator's, not DynamoDB's.",
    "",
  ];
}

/** A wave whose answers spread over most of the round trip: the emulator's queue may have split it. */
const blurred = (d: Depth) => (d.waveSpreadMs ?? 0) >= 0.8 * d.roundTripMs;

/** Transactions (calls) in sequence for each batch shape, measured and by design, and what they cost where calls run in parallel. */
function depthSection(): string[] {
  const measured = names.some((n) => (peer(n).criticalPath?.length ?? 0) > 0);
  const first = names.flatMap((n) => peer(n).criticalPath ?? [])[0];
  return [
    "## Critical-path depth",
    "",
    "Calls in sequence per batch, counting waves of the concurrency limit. *Measured*: one batch of each shape with",
    `${first ? `${first.roundTripMs} ms` : "a long round trip"} injected on every call (long against one wave's serial time here), every call's arrival and`,
    "answer noted by a hop in front of the fault proxy; a wave is a maximal run of calls that arrive before the first of",
    `them is answered. *By design*: this worker ⌈users ÷ REWARDS_CONCURRENCY (${w.concurrency ?? "?"})⌉ × (1, or 2 when some`,
    "intents were paid before: the cancelled transaction, then the rest); the peers, their calls per record in sequence",
    "(their SDK's default pool of 50 sockets can add waves for a batch of 100, which the measurement shows). *Where calls",
    "run in parallel*: measured depth × round trip (what the batch would take on DynamoDB itself, service time aside).",
    "A dependent call arrives after the answer it waits for, so waves never merge: the measured depth is never below",
    "the true one, but it can be above it when the emulator's queue spreads one wave's answers over the round trip",
    "(late members look like a new wave; marked † where the widest spread within a wave reached 80% of the round trip:",
    "read the figure by design there). Cells: measured (by design) · calls in the batch.",
    "",
    header([
      "batch",
      ...names.map((n) => `${n}: measured (by design) · calls`),
      ...ROUND_TRIPS.map((rt) => `where calls run in parallel, ${rt} ms (${names.join(" / ")})`),
    ]),
    ...(measured
      ? SIZES.flatMap((size) =>
          PATTERNS.map((pattern) =>
            row([
              shapeLabel({ size, pattern }),
              ...names.map((n) => {
                const d = depthOf(n, size, pattern);
                return d
                  ? `${d.measuredDepth}${blurred(d) ? "†" : ""} (${d.computedDepth}) · ${d.calls}`
                  : NOT_MEASURED;
              }),
              ...ROUND_TRIPS.map((rt) =>
                names
                  .map((n) => {
                    const d = depthOf(n, size, pattern);
                    return d ? `${d.measuredDepth * rt} ms` : "—";
                  })
                  .join(" / "),
              ),
            ]),
          ),
        )
      : [row([NOT_MEASURED, ...names.map(() => ""), ...ROUND_TRIPS.map(() => "")])]),
    "",
  ];
}

const lines = [
  "# Benchmark: this worker against Powertools idempotency and check-then-write",
  "",
  `One run of \`npm run bench:peers\` on ${results.generatedAt.slice(0, 10)} (${results.seconds} s), on the 2-core build machine.`,
  `Workload: seed ${w.seed}, ${w.deliveries} deliveries, ${w.users} users, ${Math.round((w.duplicateShare ?? 0) * 100)}% duplicate deliveries`,
  `(${w.uniqueIntents} unique intents), Lambda-shaped batches of ${w.batchSize} fed to each handler. Every worker uses the`,
  "project's decoder, rules and intent keys on the same table layout: only the idempotency mechanism differs.",
  "Absolute times are the local DynamoDB's (moto serialises every request); read the ratios.",
  "",
  "## Correctness under failure (the numbers that matter)",
  "",
  header(["", ...names]),
  row([
    "double awards, 200 intents × 5 copies in concurrent batches",
    ...names.map((n) => peer(n).concurrentCopies.doubleAwards),
  ]),
  row(["lost awards, same", ...names.map((n) => peer(n).concurrentCopies.lostAwards)]),
  row([
    "deliveries failed and redelivered, same",
    ...names.map((n) => peer(n).concurrentCopies.failedDeliveries),
  ]),
  row([
    "double awards, process dies after each call (sum over the sequence)",
    ...names.map((n) => sum(peer(n).crashWindows.map((c) => c.doubleAwards))),
  ]),
  row(["lost awards, same", ...names.map((n) => sum(peer(n).crashWindows.map((c) => c.lostAwards)))]),
  row([
    "double awards, write commits + answer lost, above the SDK's retries",
    ...names.map((n) => peer(n).commitThenDrop.find((d) => d.where === "above")?.doubleAwards ?? ""),
  ]),
  row([
    "double awards, same, below the SDK's retries (the SDK resends)",
    ...names.map((n) => peer(n).commitThenDrop.find((d) => d.where === "below")?.doubleAwards ?? ""),
  ]),
  row(["lost awards, either", ...names.map((n) => sum(peer(n).commitThenDrop.map((d) => d.lostAwards)))]),
  "",
  "## Cost and speed",
  "",
  header(["", ...names]),
  row(["DynamoDB calls per new event (every HTTP attempt)", ...names.map((n) => peer(n).callsPerNewEvent)]),
  row(["DynamoDB calls per duplicate", ...names.map((n) => peer(n).callsPerDuplicate)]),
  row([
    "write units per award, one award of a user alone (k = 1)",
    ...names.map((n) => cell(peer(n).writeUnitsPerAward?.k1 ?? peer(n).writeUnitsPerNewEvent)),
  ]),
  row([
    "write units per award, five awards of one user in a batch (k = 5)",
    ...names.map((n) => cell(peer(n).writeUnitsPerAward?.k5)),
  ]),
  row(["write units per duplicate delivered alone", ...names.map((n) => peer(n).writeUnitsPerDuplicate)]),
  row([
    "write units per record, five per user with half paid before (the mixed batch)",
    ...names.map((n) => cell(peer(n).writeUnitsPerRecordMixed)),
  ]),
  row([
    "read units per award / per duplicate / per record of the mixed batch",
    ...names.map(
      (n) =>
        `${peer(n).readUnitsPerAward?.k1 ?? peer(n).readUnitsPerNewEvent ?? "?"} / ${peer(n).readUnitsPerDuplicate} / ${cell(peer(n).readUnitsPerRecordMixed)}`,
    ),
  ]),
  row([
    "time per event, sequential, relative to this worker (median of 3 rotated runs)",
    ...names.map((n) => `${peer(n).timeRatioSequential}×`),
  ]),
  row([
    "time per event, 4 batches in flight, relative",
    ...names.map((n) => `${peer(n).timeRatioFourInFlight}×`),
  ]),
  row([
    "ms per event, sequential / 4 in flight",
    ...names.map((n) => `${peer(n).msPerEventSequential} / ${peer(n).msPerEventFourInFlight}`),
  ]),
  "",
  "## Batch latency at real round trips",
  "",
  "Every DynamoDB call of every worker is delayed by a fixed round trip (a fault proxy in front of the local DynamoDB),",
  "large against the emulator's own few milliseconds a request (but the emulator serves requests one at a time: see",
  "its service time below). *Distinct*: each record a user of its own; *five records per user*: other intents of one",
  "user; *half paid before*: five records per user, the odd positions (2 or 3 of each user's five) paid by an earlier",
  "untimed batch, so the batch mixes duplicates and new intents. Cells: p50 / p99 ms per batch, and p50 in round trips.",
  "",
  header(["", ...names]),
  ...shapes.map((shape) => {
    const mine = latencyOf(ours, shape);
    return row([
      `${latencyLabel(shape)}${mine ? ` (${mine.batches} batches)` : ""}`,
      ...names.map((n) => {
        const theirs = latencyOf(n, shape);
        return theirs ? `${theirs.p50Ms} / ${theirs.p99Ms} ms (${theirs.p50RoundTrips} RT)` : NOT_MEASURED;
      }),
    ]);
  }),
  "",
  ...serviceTimeSection(),
  ...depthSection(),
  "## Targets",
  "",
  "p50 of this run, side by side.",
  "",
  ...targets(),
  "",
  ...coldStartSection(),
  "## Crash windows, call by call",
  "",
  "The process dies right after the named call took effect (nothing more reaches DynamoDB); SQS redelivers the",
  "message after its visibility timeout, by which time Powertools' in-progress record has expired (its 1 s budget).",
  "",
  header(["worker", "dies after", "double awards", "lost awards"]),
  ...names.flatMap((n) =>
    peer(n).crashWindows.map((c) => row([n, c.diesAfter, c.doubleAwards, c.lostAwards])),
  ),
  "",
  "## State machines",
  "",
  ...names.flatMap((n) => [`- **${n}**: ${peer(n).sequence.join(" → ")}`]),
  "",
  "- This worker: one `TransactWriteItems` per user per batch — that user's guard puts, in input order (each with",
  "  condition `attribute_not_exists(pk) OR expiresAt < :now`), then one profile update (`ADD xp :xp, awards :awards` and a count per event type),",
  "  at most 100 items — commit together or not at all, so there is no moment at which a guard is written without its",
  "  XP. Guards whose condition fails (already paid) come back as per-item `ConditionalCheckFailed` reasons: those",
  "  records are duplicates and the rest goes again as a second transaction. A resend with the same",
  "  `ClientRequestToken` is answered with the first success.",
  "- Powertools: `INPROGRESS` record → the award → `COMPLETED` record. A crash or a lost answer between the award and",
  "  `COMPLETED` leaves a record that expires (or is deleted on error) while the award stands: the redelivery pays again.",
  "  Concurrent copies meet `INPROGRESS` and fail (`IdempotencyAlreadyInProgressError`) until SQS redelivers them.",
  '- check-then-write: nothing joins the read to the writes; concurrent copies all read "absent" and all pay.',
  "",
  "## How the units are computed",
  "",
  `Item sizes as stored: profile ${peer(names[0] as string).itemBytes.profile} B, guard ${peer(names[0] as string).itemBytes.guard} B, Powertools record ${peer(names[1] as string)?.itemBytes.idempotencyRecord ?? "?"} B`,
  "(names plus values; strings as UTF-8, numbers ≈ 1 byte per 2 digits + 1). DynamoDB's published rules: a standard",
  "write is 1 WCU per KB (an update: the larger of before and after), also when its condition fails; a transactional",
  "write is 2 WCUs per KB per item; a strongly consistent read 1 RCU per 4 KB. Per user per batch, k awards cost:",
  "this worker one transaction of k guards + 1 profile, 2(k + 1) WCU with items ≤ 1 KB (4 per award at k = 1, 2.4 at",
  "k = 5); Powertools 3 standard writes per award (its record put, the award, the `COMPLETED` update) whatever k;",
  "check-then-write 2 writes and 1 read per award. A duplicate: Powertools' failed conditional put (1 WCU),",
  "check-then-write's read (0 WCU, 1 RCU); for this worker the cancelled transaction, and in a mixed batch the",
  "cancelled transaction plus the second one for the rest. AWS does not publish what a cancelled transaction",
  "consumes: it is counted here as if written (this worker's worst case), so a duplicate delivered alone shows 4 WCU.",
  "These are computed from the measured item sizes and the published rules, not read from DynamoDB.",
  "",
  "## What the numbers show",
  "",
  "- Only this worker pays exactly once in every failure case measured: concurrent copies, a crash after any call, and",
  "  a lost answer above or below the SDK's retries. Powertools prevents concurrent double payment (at the price of",
  "  failed deliveries that SQS must redeliver) but pays twice when the process dies, or the answer is lost, between",
  "  its award and its `COMPLETED` write — and the SDK's own resend of a lost `UpdateItem ADD` pays twice too.",
  "  Check-then-write pays twice in every one of those cases.",
  `- Write units: a transaction item costs twice a standard write, so one award alone costs ${cell(peer(ours).writeUnitsPerAward?.k1 ?? peer(ours).writeUnitsPerNewEvent)} WCU here`,
  `  against ${others.map((n) => `${n}'s ${cell(peer(n).writeUnitsPerAward?.k1 ?? peer(n).writeUnitsPerNewEvent)}`).join(" and ")} (the transactional floor); five awards of one user in a batch share one`,
  `  profile update and cost ${cell(peer(ours).writeUnitsPerAward?.k5)} per award against ${others.map((n) => `${cell(peer(n).writeUnitsPerAward?.k5)}`).join(" and ")}. Duplicates cost most here`,
  "  under the worst-case convention for a cancelled transaction (counted as written): that is the price of the",
  "  guarantee, and an upper bound. Check-then-write is cheaper at every k because it guards nothing (its",
  "  concurrent copies, crashes and lost answers all pay twice). One transaction per user instead of three calls per record is why this worker's",
  "  batches are faster when each call has latency.",
  ...betterElsewhere(),
  "",
  "Versions: " +
    Object.entries(results.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join("; ") +
    ".",
  "Raw numbers: `bench/results.json`. Rerun: `npm run bench:peers` (about 8 minutes on a quiet 2-core machine).",
  "",
];
// The rules' figures (bench/rulesCost.ts), when they were measured, follow as a section of their own.
const rulesResults = await readFile(here("./results.rules.json"), "utf8").then(
  (text) => JSON.parse(text) as RulesCostResults,
  () => undefined,
);
if (rulesResults !== undefined) lines.push(...rulesSection(rulesResults), "");
await writeFile(paths.out ?? here("./REPORT.md"), lines.join("\n"));
process.stderr.write(`wrote ${paths.out ?? "bench/REPORT.md"}\n`);
