import type { AnnouncingKind } from "@rewards/ops";
import { Option } from "commander";
import { instant } from "../../options/instant";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText, pairsText } from "../../runtime/text";

export default defineCommand<{
  since: Date;
  until?: Date;
  user?: string;
  kind: AnnouncingKind;
  dryRun?: boolean;
  json?: boolean;
}>()({
  meta: {
    name: "republish",
    description:
      "announce again, from the table, every award committed and every achievement earned in a time window (a scan of TABLE_NAME): an award's reward.granted, and for a revoked award its reward.revoked after it; an achievement's reward.achieved; for batches the stream no longer holds; each event keeps its id",
  },
  options: (command) =>
    command
      .requiredOption(
        "--since <time>",
        "awards committed (achievements earned) at or after this instant (RFC 3339, or a date)",
        instant,
      )
      .option("--until <time>", "and at or before this one (default: now)", instant)
      .option("--user <userId>", "only this user's awards and achievements")
      .addOption(
        new Option("--kind <kind>", "what to announce: awards (and revocations), achievements, or both")
          .choices(["grants", "achievements", "all"])
          .default("all"),
      )
      .option("--dry-run", "publish nothing; count what would be published")
      .option("--json", "print JSON"),
  needs: ["TABLE_NAME"],
  async run({ options, config: tableOnly, configWith, io }) {
    const config = options.dryRun ? tableOnly : configWith("BUS_NAME");
    const { announcerDepsFrom, clientsFor, republishFromTable } = await import("@rewards/ops");
    const { dynamo } = clientsFor(config);
    const deps =
      options.dryRun || !config.BUS_NAME
        ? undefined
        : announcerDepsFrom(
            { ...config, BUS_NAME: config.BUS_NAME },
            await io.logger("rewards-announcer", config.LOG_LEVEL ?? "warn"),
          );
    const report = await republishFromTable({
      dynamo,
      tableName: config.TABLE_NAME,
      since: options.since,
      until: options.until ?? new Date(),
      userId: options.user,
      kind: options.kind,
      publish: deps ? { client: deps.eventBridge, busName: deps.busName, clock: Date.now } : undefined,
    });
    return {
      out: options.json
        ? jsonText(report)
        : pairsText({
            ...(options.kind === "achievements"
              ? {}
              : { "awards in the window": report.found, "of them revoked": report.revoked }),
            ...(options.kind === "grants" ? {} : { "achievements in the window": report.achievements }),
            [options.dryRun ? "would publish" : "to publish"]: report.events,
            ...(options.dryRun ? {} : { published: report.published, "not published": report.failed.length }),
            "unreadable items": report.unreadable.length,
            ...(report.failed[0] ? { "first failure": report.failed[0].reason } : {}),
          }),
      ...(report.failed.length > 0 || report.unreadable.length > 0 ? { exitCode: 1 as const } : {}),
    };
  },
});
