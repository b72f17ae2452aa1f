import type { ReplayFilter } from "@rewards/ops";
import { integer } from "../../options/parsers";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";
import { checkErrorCode, ERROR_OPTION_HELP } from "./errorCode";

export default defineCommand<{ max: number; json?: boolean } & ReplayFilter>()({
  meta: {
    name: "peek",
    description:
      "show parked messages and the whole reason each was parked, wrapped to the terminal's width, without removing them",
  },
  options: (command) =>
    command
      .option("--max <n>", "at most this many", integer(1, 1000), 10)
      .option("--type <type>", "only events of this type")
      .option("--error <code>", ERROR_OPTION_HELP)
      .option("--user <userId>", "only events of this user")
      .option("--json", "print JSON (with full bodies)"),
  needs: ["DLQ_URL"],
  async run({ options, config, io }) {
    checkErrorCode(options.error);
    const { clientsFor, peekDlq, peekText } = await import("@rewards/ops");
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
    return { ...failed, out: peekText(parked, io.columns) };
  },
});
