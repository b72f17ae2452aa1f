import type { ReplayFilter } from "@rewards/ops";
import { integer } from "../../options/parsers";
import { defineCommand } from "../../runtime/defineCommand";
import { clip, jsonText, tableText } from "../../runtime/text";
import { checkErrorCode, ERROR_OPTION_HELP } from "./errorCode";

export default defineCommand<{ max: number; json?: boolean } & ReplayFilter>()({
  meta: { name: "peek", description: "show parked messages and why they were parked, without removing them" },
  options: (command) =>
    command
      .option("--max <n>", "at most this many", integer(1, 1000), 10)
      .option("--type <type>", "only events of this type")
      .option("--error <code>", ERROR_OPTION_HELP)
      .option("--user <userId>", "only events of this user")
      .option("--json", "print JSON (with full bodies)"),
  needs: ["DLQ_URL"],
  async run({ options, config }) {
    checkErrorCode(options.error);
    const { clientsFor, peekDlq } = await import("@rewards/ops");
    const { parked, notReleased } = await peekDlq(
      clientsFor(config).sqs,
      config.DLQ_URL,
      options.max,
      options,
    );
    const failed =
      notReleased === undefined
        ? {}
        : {
            warning: `rewards: ${notReleased} (nothing is lost: peek deletes nothing)\n`,
            exitCode: 1 as const,
          };
    if (options.json) return { ...failed, out: jsonText(parked) };
    if (parked.length === 0) {
      const filtered = options.type || options.error || options.user;
      return { ...failed, out: filtered ? "no parked message matches\n" : "the DLQ is empty\n" };
    }
    return {
      ...failed,
      out: tableText(
        parked.map((p) => ({ ...p, reason: clip(p.reason, 100), body: clip(p.body, 60) })),
        ["sourceMessageId", "error", "type", "userId", "reason", "parkedAt", "body"],
      ),
    };
  },
});
