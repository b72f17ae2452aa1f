import { integer } from "../../options/parsers";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText, pairsText } from "../../runtime/text";

export default defineCommand<{ sample: number; json?: boolean }>()({
  meta: {
    name: "stats",
    description:
      "how many messages are parked (copies, and distinct source messages), by rewards.error, by event type, and by what a replay would do now (reads the guards in TABLE_NAME)",
  },
  options: (command) =>
    command
      .option(
        "--sample <n>",
        "read at most this many for the breakdown (nothing is consumed)",
        integer(1, 100_000),
        1000,
      )
      .option("--json", "print JSON"),
  needs: ["DLQ_URL", "TABLE_NAME"],
  async run({ options, config }) {
    const { clientsFor, dlqStats, shownVerdicts, VERDICT_WORDS } = await import("@rewards/ops");
    const { sqs, dynamo } = clientsFor(config);
    const stats = await dlqStats(sqs, config.DLQ_URL, options.sample, {
      dynamo,
      tableName: config.TABLE_NAME,
      now: Date.now(),
      dailyCap: config.REWARDS_DAILY_XP_CAP,
    });
    if (options.json) return { out: jsonText(stats) };
    const counts = (byKey: Record<string, number>) =>
      Object.entries(byKey)
        .map(([key, n]) => `${key} ${n}`)
        .join(", ");
    return {
      out: pairsText({
        "parked (copies)": stats.visible,
        "distinct messages": `${stats.distinct}${stats.sampled < stats.visible ? ` (in a sample of ${stats.sampled})` : ""}`,
        "being read now": stats.inFlight,
        delayed: stats.delayed,
        "by rewards.error": counts(stats.byError),
        "by event type": counts(stats.byType),
        "a replay now would": shownVerdicts(stats.byVerdict)
          .map(([verdict, n]) => `${VERDICT_WORDS[verdict]} ${n}`)
          .join(", "),
      }),
    };
  },
});
