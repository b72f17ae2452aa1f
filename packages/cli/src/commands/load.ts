import type { Command } from "commander";
import { clientsFor, commandConfig } from "../cliConfig";
import { writeExpectation } from "../expectations";
import { integer, rate } from "../options";
import { printJson, printPairs } from "../output";
import { progressBar } from "../progress";
import { type WaitOptions, waitForQueue, waitOption, waitTimeoutOption } from "../queues/drainOptions";
import { generateTraffic } from "../traffic/generateTraffic";
import { sendTraffic } from "../traffic/sendTraffic";
import { addTrafficOptions, checkTrafficShares, type TrafficOptionValues } from "../traffic/trafficOptions";

interface LoadOptions extends TrafficOptionValues {
  seed: number;
  rate?: number;
  expect?: string;
  json?: boolean;
}

type LoadCommandOptions = LoadOptions & WaitOptions;

export function registerLoad(program: Command): void {
  addTrafficOptions(
    program
      .command("load")
      .description("send reproducible synthetic traffic (all four types, duplicates, poison) to QUEUE_URL"),
    { events: 1000, old: 0 },
  )
    .option("--seed <n>", "seed: the same seed sends the same traffic", integer(0), 1)
    .option("--rate <n/s>", "at most this many messages per second", rate)
    .option("--expect <file>", "write each user's expected XP here, for rewards verify")
    .addOption(waitOption())
    .addOption(waitTimeoutOption())
    .option("--json", "print JSON")
    .action(async (options: LoadCommandOptions) => {
      checkTrafficShares(options);
      const config = commandConfig("QUEUE_URL");
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
      const bar = progressBar("load", traffic.messages.length);
      const started = Date.now();
      const report = await sendTraffic(traffic.messages, {
        sqs: clientsFor(config).sqs,
        queueUrl: config.QUEUE_URL,
        rate: options.rate,
        onProgress: (done) => bar.update(done),
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
      if (options.wait)
        await waitForQueue(clientsFor(config).sqs, config.QUEUE_URL, options.timeout, options.json);
      if (options.json) printJson({ ...summary, failures: report.failed });
      else printPairs(summary);
      if (report.failed.length > 0) process.exitCode = 1;
    });
}
