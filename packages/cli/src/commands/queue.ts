import type { Command } from "commander";
import { clientsFor, commandConfig } from "../cliConfig";
import { printJson, printPairs } from "../output";
import { cloudwatchFor, oldestMessageAge, queueCounts } from "../queues/queueCounts";

export function registerQueue(program: Command): void {
  const queue = program.command("queue").description("the main queue (QUEUE_URL)");
  queue
    .command("stats")
    .description("messages visible, in flight (being processed), delayed, and the age of the oldest")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const config = commandConfig("QUEUE_URL");
      const counts = await queueCounts(clientsFor(config).sqs, config.QUEUE_URL);
      const cloudwatch = cloudwatchFor(config);
      const age = cloudwatch
        ? await oldestMessageAge(cloudwatch, config.QUEUE_URL)
        : { unknown: "needs CloudWatch, which the local stack does not have" };
      const oldestAgeSeconds = "seconds" in age ? age.seconds : null;
      if (options.json) return printJson({ ...counts, oldestAgeSeconds });
      printPairs({
        visible: counts.visible,
        "in flight": counts.inFlight,
        delayed: counts.delayed,
        "oldest message": "seconds" in age ? `${age.seconds} s` : `unknown (${age.unknown})`,
      });
    });
}
