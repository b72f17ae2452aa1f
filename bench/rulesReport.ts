/**
 * The "site's own rules" section of bench/REPORT.md, rendered from bench/results.rules.json
 * (written by bench/rulesCost.ts, which puts the section in place; bench/peersReport.ts appends
 * it when it renders the whole report).
 */

export const RULES_REPORT_HEADING = "## The site's own rules: what they cost";

export interface RulesCostResults {
  generatedAt: string;
  node: string;
  refreshSeconds: number;
  worker: Array<{
    rules: string;
    batches: number;
    events: number;
    secondsSimulated: number;
    transactWriteItemsPerEvent: number;
    rulesGetItemPerEvent: number;
    rulesQueryPerEvent: number;
    callsPerEvent: number;
    otherCalls: number;
    coldBatchRulesReads: string[];
  }>;
  hour: Array<{
    rules: string;
    refreshSeconds: number;
    batches: number;
    versionsPublishedInTheHour: number;
    versionsUsed: number[];
    currentReads: number;
    versionReads: number;
    lastPublishedQueries: number;
    rulesCalls: number;
  }>;
  profile: Array<{
    rules: string;
    when: string;
    roundTrips: number;
    calls: number;
    batchGetItem: number;
    batchGetItemUnits: number;
    versionGetItem: number;
    queries: number;
    queryUnits: number;
    reportedUnits: number;
    callsWithoutUnits: string[];
  }>;
  versions: Array<{
    rules: string;
    types: number;
    achievements: number;
    documentJsonBytes: number;
    versionItemBytes: number;
    versionGetItemUnitsReported: number | null;
    versionGetItemUnitsComputed: number;
  }>;
}

function table(header: string[], rows: Array<Array<string | number>>): string[] {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(3, ...cells.map((row) => (row[i] ?? "").length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...cells.slice(1).map(line)];
}

export function rulesSection(results: RulesCostResults): string[] {
  const [none, published] = results.worker;
  const date = results.generatedAt.slice(0, 10);
  const versionGet = results.versions.find((v) => v.types >= 100);
  return [
    RULES_REPORT_HEADING,
    "",
    `One run of \`npm run bench:rules\` (\`bench/rulesCost.ts\`) on ${date}, Node ${results.node}, against the local`,
    "stack. Everything here is a **count** (calls the SDK sent, read units DynamoDB reported, items' sizes), not a",
    `time: the machine's load does not move it. \`REWARDS_RULES_REFRESH_SECONDS\` = ${results.refreshSeconds}; the clocks are the tests' own.`,
    "",
    `**The worker, per new event** — ${none?.batches ?? 0} batches of 10 events of distinct users, one batch a second, the rules`,
    "source warm (a first batch read the rules and is not counted); every HTTP attempt on the worker's client:",
    "",
    ...table(
      [
        "rules",
        "events",
        "calls / event",
        "TransactWriteItems / event",
        "rules GetItem / event",
        "rules Query / event",
      ],
      results.worker.map((w) => [
        w.rules,
        w.events,
        w.callsPerEvent,
        w.transactWriteItemsPerEvent,
        w.rulesGetItemPerEvent,
        w.rulesQueryPerEvent,
      ]),
    ),
    "",
    `The award path stays one \`TransactWriteItems\` per user group (here one per event) with a version published; the`,
    `rules add a \`CURRENT\` read every refresh period, behind a batch, amortised over the period's events. The cold batch`,
    `read ${published?.coldBatchRulesReads.join(" + ") ?? "—"} with a version published, ${none?.coldBatchRulesReads.join(" + ") ?? "—"} with none.`,
    "",
    "**Rules reads per function per hour** — the rules source's `forBatch` once a second for an hour of test clock, each",
    "batch's read (behind it) finished before the next second:",
    "",
    ...table(
      ["rules", "CURRENT GetItem", "V# GetItem", "Query (last V#)", "rules calls / hour", "versions used"],
      results.hour.map((h) => [
        h.rules,
        h.currentReads,
        h.versionReads,
        h.lastPublishedQueries,
        h.rulesCalls,
        h.versionsUsed.join(", "),
      ]),
    ),
    "",
    `A read is due once \`CURRENT\` is more than ${results.refreshSeconds} s old, so at one batch a second it is read every ${results.refreshSeconds + 1} s`,
    `(3600 / ${results.refreshSeconds + 1} ≈ ${Math.ceil(3600 / (results.refreshSeconds + 1))}), plus one \`V#\` \`GetItem\` per version new to the function. With nothing published,`,
    "each read is a `GetItem` of `CURRENT` that finds none, then a `Query` for the last `V#` (never version 0 again once",
    "anything was published): two calls a period.",
    "",
    "**The reader's `profile()`** — with a daily cap (the day's total is a key of the same `BatchGetItem`), the board's",
    "queries beside it. _Round trips_: calls in sequence (a call sent after another's answer), counted from the",
    "calls' order, not timed. Read units as moto reports them (`ReturnConsumedCapacity: TOTAL`, every call but the",
    "`V#` `GetItem`, which does not ask): moto counts 1 unit per item a consistent `BatchGetItem` returns and",
    "0.5 per `GetItem` whatever the item's size or `ConsistentRead`, so the `V#` item's units are also computed from",
    "its size (DynamoDB: 1 unit per 4 KB, consistent):",
    "",
    ...table(
      [
        "rules",
        "when",
        "round trips",
        "calls",
        "BatchGetItem read units",
        "V# GetItem",
        "Query read units (board)",
      ],
      results.profile.map((p) => [
        p.rules,
        p.when,
        p.roundTrips,
        p.calls,
        p.batchGetItemUnits,
        p.versionGetItem,
        p.queryUnits,
      ]),
    ),
    "",
    ...table(
      [
        "version",
        "types",
        "achievements",
        "document (JSON)",
        "V# item",
        "V# GetItem read units (moto / computed)",
      ],
      results.versions.map((v) => [
        v.rules,
        v.types,
        v.achievements,
        `${(v.documentJsonBytes / 1024).toFixed(1)} KB`,
        `${(v.versionItemBytes / 1024).toFixed(1)} KB`,
        `${v.versionGetItemUnitsReported ?? "not reported"} / ${v.versionGetItemUnitsComputed}`,
      ]),
    ),
    "",
    "`CURRENT` in the `BatchGetItem` adds one consistent read unit (an item under 4 KB) when due and no round trip;",
    `a version new to the reader adds one \`GetItem\` in sequence after it${versionGet ? ` (${versionGet.versionGetItemUnitsComputed} read unit${versionGet.versionGetItemUnitsComputed === 1 ? "" : "s"} for ${versionGet.types} types and ${versionGet.achievements} achievements, computed from the item's size at 1 unit per 4 KB, consistent)` : ""},`,
    "once per version. Not due, the profile reads exactly what it reads without rules.",
    "",
    "Raw numbers: `bench/results.rules.json`. Rerun: `npm run bench:rules`.",
  ];
}
