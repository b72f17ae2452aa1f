/**
 * `npm run soak -- --seeds N --events M [--kill] [--artifact] [--revoke R] [--first-seed S] [--json]`: seeded soak
 * runs, one row per seed; exit 1 on any lost or double-paid award, unparked poison,
 * undrained queue, award or revocation announced wrongly, history item wrong, or reader's
 * progress (kept days, counts, achievements, reward.achieved) not exact. See runSoak.ts for what a run does.
 */
import { parseArgs } from "node:util";
import Table from "cli-table3";
import { runSoak, type SoakRow } from "./runSoak";

const { values } = parseArgs({
  options: {
    seeds: { type: "string", default: "3" },
    events: { type: "string", default: "1000" },
    "first-seed": { type: "string", default: "1" },
    kill: { type: "boolean", default: false },
    /** Run the deployable bundle (npm run build:function) instead of the TypeScript source. */
    artifact: { type: "boolean", default: false },
    /** The share of unique intents revoked while the workers run (default 0.1). */
    revoke: { type: "string", default: "0.1" },
    json: { type: "boolean", default: false },
  },
});
const count = (name: string, value: string | undefined, min: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`soak: --${name} must be a whole number of at least ${min}\n`);
    process.exit(2);
  }
  return n;
};
const seeds = count("seeds", values.seeds, 1);
const events = count("events", values.events, 10);
const firstSeed = count("first-seed", values["first-seed"], 0);
const revoke = Number(values.revoke);
if (!(revoke >= 0 && revoke <= 1)) {
  process.stderr.write("soak: --revoke must be a share from 0 to 1\n");
  process.exit(2);
}

const rows: SoakRow[] = [];
for (let seed = firstSeed; seed < firstSeed + seeds; seed++) {
  process.stderr.write(`seed ${seed}: ${events} events${values.kill ? ", with kills" : ""}…\n`);
  rows.push(
    await runSoak({
      seed,
      events,
      kills: values.kill ? 4 : 0,
      function: values.artifact ? "artifact" : "source",
      revoke,
    }),
  );
}
if (values.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
else {
  const table = new Table({
    head: [
      "seed",
      "events",
      "unique",
      "dups",
      "poison",
      "stale (parked stale)",
      "faults",
      "redelivered",
      "parked (copies)",
      "kills (writer)",
      "granted ids (copies)",
      "unannounced",
      "revoked (XP, runs)",
      "revoked ids (copies)",
      "revoked twice",
      "history (wrong)",
      "kept days",
      "achievements (sticky)",
      "achieved ids (copies)",
      "progress wrong",
      "given up (writer, announcer)",
      "lost",
      "double-paid",
      "s",
      "ok",
    ],
    style: { head: [], border: [] },
  });
  for (const r of rows) {
    const faults = Object.entries(r.faults)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(", ");
    table.push([
      r.seed,
      r.events,
      r.uniqueIntents,
      r.duplicates,
      r.poison,
      `${r.stale} (${r.staleParked})`,
      faults,
      r.redeliveries,
      `${r.parked} (${r.dlqCopies})`,
      `${r.kills} (${r.historyKills})`,
      `${r.announced} (${r.grantCopies})`,
      r.unannounced + r.wronglyAnnounced + r.inconsistentGrants,
      `${r.revoked} (${r.revokedXp}, ${r.revokeRuns})`,
      `${r.revocationsAnnounced} (${r.revocationCopies})${r.unannouncedRevocations + r.wronglyAnnouncedRevocations + r.inconsistentRevocations > 0 ? " WRONG" : ""}`,
      r.revokedTwice,
      `${r.historyItems} (${r.historyMismatched})${r.historyItems !== r.historyGuards ? ` of ${r.historyGuards} guards` : ""}${r.historyCaughtUp ? "" : " BEHIND"}`,
      r.keptDays,
      `${r.achievements} (${r.stickyAchievements})`,
      `${r.achievedAnnounced} (${r.achievedCopies})${r.inconsistentAchieved > 0 ? " WRONG" : ""}${r.announcerCaughtUp ? "" : " BEHIND"}`,
      r.progressMismatched,
      `${r.historyGivenUpBatches}, ${r.givenUpBatches}${r.unreplayedBatches > 0 ? ` (${r.unreplayedBatches} unreplayed)` : ""}`,
      r.lost,
      r.doublePaid,
      r.seconds,
      r.ok ? "yes" : "NO",
    ]);
  }
  process.stdout.write(`${table.toString()}\n`);
}
const bad = rows.filter((r) => !r.ok);
process.stdout.write(
  bad.length === 0
    ? `${rows.length} seed(s): 0 lost, 0 double-paid, every poison and stale message parked, no stale one paid, every award announced by one id and nothing else; every revocation made once, taken back from its user (XP = paid − revoked) and announced by one id; every award has exactly one history item with its XP and revocation; every reader's kept days are the streak days paid and not revoked, their counts their history's, their achievements those their state earns (or earned before a revocation), each held once and announced as reward.achieved by one id, and nothing else.\n`
    : `${bad.length} seed(s) failed: ${bad.map((r) => `seed ${r.seed} (lost ${r.lost}, double-paid ${r.doublePaid}, unparked ${r.unparked}, misparked ${r.misparked}, drained ${r.drained}, unannounced ${r.unannounced}, wrongly announced ${r.wronglyAnnounced}, inconsistent ${r.inconsistentGrants}, revoked ${r.revoked}, revoked twice ${r.revokedTwice}, revocations unannounced ${r.unannouncedRevocations}, wrongly announced ${r.wronglyAnnouncedRevocations}, inconsistent ${r.inconsistentRevocations}, history items wrong ${r.historyMismatched} (${r.historyItems} items, ${r.historyGuards} guards), writer caught up ${r.historyCaughtUp}, announcer caught up ${r.announcerCaughtUp}, batches unreplayed ${r.unreplayedBatches}, progress not exact ${r.progressMismatched}${r.progressProblems.length > 0 ? ` [${r.progressProblems.join("; ")}]` : ""}, reward.achieved copies differing ${r.inconsistentAchieved})`).join("; ")}\n`,
);
process.exit(bad.length === 0 ? 0 : 1);
