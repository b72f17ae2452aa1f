import { integer, ratio } from "../options/parsers";
import { addTrafficOptions, checkTrafficShares, type TrafficOptionValues } from "../options/trafficOptions";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText, pairsText, tableText } from "../runtime/text";

interface DemoCommandOptions extends TrafficOptionValues {
  seed: number;
  faultRate: number;
  dailyCap: number;
  timeout?: number;
  json?: boolean;
}

/**
 * The demo's cap: its traffic (2,000 events over 100 users, about 20 intents each, all of one
 * day) asks about 200 XP a user, so a cap of 150 cuts some awards and leaves others at 0.
 */
const DEMO_DAILY_CAP = 150;

export default defineCommand<DemoCommandOptions>()({
  meta: {
    name: "demo",
    description:
      "run the whole system locally: publish a mixed stream, process it under injected faults, replay the DLQ, announce every award on the local bus, verify every intent paid exactly once and announced by one id",
  },
  options: (command) =>
    addTrafficOptions(command, { events: 2000, old: 0.02 })
      .option("--seed <n>", "seed for traffic and faults", integer(0), 1)
      .option(
        "--fault-rate <ratio>",
        "share of DynamoDB transactions that meet a fault (throttling, conflict, 5xx, answer lost after commit)",
        ratio,
        0.1,
      )
      .option(
        "--daily-cap <xp>",
        "the worker's REWARDS_DAILY_XP_CAP for the run, so some awards are cut or capped; 0: no cap",
        integer(0),
        DEMO_DAILY_CAP,
      )
      .option(
        "--timeout <seconds>",
        "give up draining after this long (default: 60 s + 20 ms an event)",
        integer(1),
      )
      .option("--json", "print JSON"),
  async run({ options, config, io }) {
    checkTrafficShares(options);
    const logger = await io.logger("rewards-demo", config.LOG_LEVEL ?? "warn");
    const { runDemo } = await import("@rewards/scenario");
    const progress = io.progress(options.json, "processed", { linesEveryMs: 5000 });
    const { dailyCap, ...rest } = options;
    const report = await runDemo({
      ...rest,
      ...(dailyCap > 0 ? { dailyCap } : {}),
      ...(options.timeout ? { timeoutMs: options.timeout * 1000 } : {}),
      logger,
      onPhase: options.json
        ? undefined
        : (phase) => {
            progress.stop();
            io.err(`• ${phase}\n`);
          },
      onProgress: progress.onProgress,
    });
    progress.stop();
    const exitCode = report.ok ? undefined : { exitCode: 1 as const };
    if (options.json) return { out: jsonText(report), ...exitCode };
    const pairs = pairsText({
      published: `${report.published} (${report.duplicatesSent} repeating an intent, ${report.poisonSent} poison, ${report.staleSent} stale)`,
      "unique intents": report.uniqueIntents,
      "paid (table)": report.paid,
      "outcomes: awarded / duplicate / capped": `${report.awarded} / ${report.duplicates} / ${report.capped}`,
      "daily cap":
        report.dailyCap === null ? "none" : `${report.dailyCap} XP (${report.overCap} days above it)`,
      "in the DLQ after processing": `${report.parked} (${report.poisonSent} poison + ${report.staleSent} stale sent)`,
      "replayed / back in the DLQ": `${report.replayed} / ${report.parkedAgain}`,
      "faults injected": Object.entries(report.faults)
        .filter(([, n]) => n > 0)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(", "),
      redelivered: `${report.redelivered} (${report.transientFailures} failed attempts)`,
      "reward.granted: ids / copies": `${report.grants.announced} / ${report.grants.copies} (${report.grants.missing.length} missing, ${report.grants.unexpected.length} for no award)`,
      "history: items / guards": `${report.history.items} / ${report.history.guards}`,
      "progress: kept days, achievements": `${report.progress.keptDays} days, ${report.progress.achievements} achievements over ${report.progress.readers} readers${report.progress.mismatched.length === 0 ? " (exact)" : ` (${report.progress.mismatched.length} not exact)`}`,
      "reward.achieved: ids / copies": `${report.progress.announced} / ${report.progress.copies}`,
      "board: this week's entries": `${report.board.onBoard} ranked, ${report.board.readerWeeks} readers' weeks = history${report.board.mismatched.length === 0 ? " (exact)" : ` (${report.board.mismatched.length} not exact)`}`,
      "read API: one user": `${report.readApi.userId}: ${report.readApi.xp} XP, ${report.readApi.awards} awards, ${report.readApi.listed} listed${report.readApi.problems.length === 0 ? " (= table)" : " (≠ table)"}`,
      "site's rules: what they paid": `version ${report.rules.version}: ${report.rules.awards} podcasts, ${report.rules.xp} XP (${report.rules.campaignAwards} doubled by the campaign), ${report.rules.achievers} listeners earned podcasts-3${report.rules.mismatched.length === 0 ? " (exact)" : ` (${report.rules.mismatched.length} not as the rules say)`}`,
      "faults on the bus": Object.entries(report.busFaults)
        .filter(([kind, n]) => n > 0 && kind !== "forwarded")
        .map(([kind, n]) => `${kind} ${n}`)
        .join(", "),
      users: report.users,
      "expected XP": report.expectedXp,
      "actual XP": report.actualXp,
      time: `${report.seconds} s`,
    });
    const mismatches =
      report.mismatches.length > 0 ? tableText(report.mismatches.slice(0, 20).map((m) => ({ ...m }))) : "";
    const verdict = report.ok
      ? `OK: every intent paid exactly once${report.dailyCap === null ? "" : " and never past the daily cap"}, and announced once by one id.\n`
      : `FAILED: ${report.problems.join("; ")}\n`;
    return { out: pairs + mismatches + verdict, ...exitCode };
  },
});
