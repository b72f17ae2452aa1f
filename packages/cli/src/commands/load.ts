import { type WaitOptions, waitForQueue, waitOption, waitTimeoutOption } from "../options/drainOptions";
import { integer, rate } from "../options/parsers";
import { addTrafficOptions, checkTrafficShares, type TrafficOptionValues } from "../options/trafficOptions";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText, pairsText } from "../runtime/text";

interface LoadOptions extends TrafficOptionValues, WaitOptions {
  seed: number;
  rate?: number;
  expect?: string;
  json?: boolean;
}

export default defineCommand<LoadOptions>()({
  meta: {
    name: "load",
    description: "send reproducible synthetic traffic (all four types, duplicates, poison) to QUEUE_URL",
  },
  options: (command) =>
    addTrafficOptions(command, { events: 1000, old: 0 })
      .option("--seed <n>", "seed: the same seed sends the same traffic", integer(0), 1)
      .option("--rate <n/s>", "at most this many messages per second", rate)
      .option("--expect <file>", "write each user's expected XP here, for rewards verify")
      .addOption(waitOption())
      .addOption(waitTimeoutOption())
      .option("--json", "print JSON"),
  needs: ["QUEUE_URL"],
  async run({ options, config, io }) {
    checkTrafficShares(options);
    const { generateTraffic, sendTraffic, writeExpectation } = await import("@rewards/scenario");
    const { clientsFor } = await import("@rewards/ops");
    const { sqs } = clientsFor(config);
    const traffic = generateTraffic(options);
    if (options.expect) {
      await writeExpectation(options.expect, {
        seed: options.seed,
        events: options.events,
        uniqueIntents: traffic.uniqueIntents,
        duplicates: traffic.counts.duplicate,
        invalid: traffic.counts.invalid,
        stale: traffic.counts.stale,
        users: traffic.expectedXp,
      });
    }
    // The bar shows with --json too: it is on stderr, a terminal's only.
    const total = traffic.messages.length;
    const bar = io.progress(false, "load");
    bar.onProgress?.(0, total);
    const started = Date.now();
    const report = await sendTraffic(traffic.messages, {
      sqs,
      queueUrl: config.QUEUE_URL,
      rate: options.rate,
      onProgress: (done) => bar.onProgress?.(done, total),
    });
    bar.stop();
    const seconds = (Date.now() - started) / 1000;
    const summary = {
      sent: report.sent,
      failed: report.failed.length,
      unique: traffic.counts.unique,
      duplicates: traffic.counts.duplicate,
      invalid: traffic.counts.invalid,
      stale: traffic.counts.stale,
      users: Object.keys(traffic.expectedXp).length,
      expectedXp: Object.values(traffic.expectedXp).reduce((a, b) => a + b, 0),
      seconds: Number(seconds.toFixed(2)),
      eventsPerSecond: Math.round(report.sent / Math.max(seconds, 0.001)),
    };
    if (options.wait) await waitForQueue(io, sqs, config.QUEUE_URL, options.timeout, options.json);
    return {
      out: options.json ? jsonText({ ...summary, failures: report.failed }) : pairsText(summary),
      ...(report.failed.length > 0 ? { exitCode: 1 as const } : {}),
    };
  },
});
