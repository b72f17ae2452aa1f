import { setTimeout as delay } from "node:timers/promises";
import { integer } from "../options/parsers";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText, pairsText } from "../runtime/text";

/** Seconds between redraws when --watch is given without a number. */
const WATCH_SECONDS = 5;

export default defineCommand<{ json?: boolean; watch?: number | true }>()({
  meta: {
    name: "status",
    description:
      "one screen for on call: the queue's depth and oldest message, the DLQ by reason, each stream consumer's lag (the announcer's, the history writer's), given-up batches, the alarms in ALARM, and a verdict; a part that cannot be read is unknown, with why (exit 1), the others still shown",
  },
  options: (command) =>
    command
      .option("--json", "print JSON: one document with every part (with --watch, one a line)")
      .option(
        "--watch [seconds]",
        `redraw every N seconds (${WATCH_SECONDS} if none) until Ctrl-C`,
        integer(1, 3600),
      ),
  // Every variable is optional: a part whose variable is unset is shown unknown, naming it.
  async run({ options, config, io }) {
    const { readStatus, statusPairs, statusSourcesFor, verdictText } = await import("@rewards/ops");
    const sources = statusSourcesFor(config);
    const shown = (report: Awaited<ReturnType<typeof readStatus>>) =>
      options.json
        ? options.watch === undefined
          ? jsonText(report)
          : `${JSON.stringify(report)}\n`
        : `${pairsText(statusPairs(report))}${verdictText(report)}`;
    // The exit code says whether every part was read; what was seen is the verdict's.
    const exitCode = (report: { verdict: string }) => (report.verdict === "incomplete" ? 1 : 0);
    if (options.watch === undefined) {
      const report = await readStatus(sources);
      return { out: shown(report), exitCode: exitCode(report) };
    }
    const every = options.watch === true ? WATCH_SECONDS : options.watch;
    const stopping = new AbortController();
    const stopped = io.untilSignal(() => stopping.abort());
    let report = await readStatus(sources);
    for (;;) {
      // Text redraws in place (cursor home, screen cleared); JSON is a line per reading, for a pipe.
      await io.out(
        options.json ? shown(report) : `\x1b[H\x1b[2J${shown(report)}every ${every} s; Ctrl-C stops\n`,
      );
      await delay(every * 1000, undefined, { signal: stopping.signal }).catch(() => {});
      // A reading Ctrl-C interrupted is not shown, so it does not decide the exit code either.
      const next = stopping.signal.aborted ? undefined : await readStatus(sources);
      if (next === undefined || stopping.signal.aborted) break;
      report = next;
    }
    await stopped;
    return { exitCode: exitCode(report) };
  },
});
