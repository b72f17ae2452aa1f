import { createSqsClient, loadConfig } from "@rewards/core";
import { startLocalStack } from "@rewards/local";
import { createWorkerDeps, processBatch, startPoller } from "@rewards/worker";
import type { Command } from "commander";
import { cliLogger } from "../stdErrLogger";
import { untilSignal } from "../untilSignal";
import { addPollerOptions, type PollerCliOptions, pollerSettings } from "./worker";

export function registerDev(program: Command): void {
  addPollerOptions(
    program
      .command("dev")
      .description(
        "start the local stack and a poller, and print the env to point other shells at them; Ctrl-C stops",
      ),
  ).action(async (options: PollerCliOptions) => {
    const logger = cliLogger("rewards-dev");
    const stack = await startLocalStack();
    try {
      const config = loadConfig(stack.env, ["QUEUE_URL"]);
      const deps = {
        ...createWorkerDeps({ ...stack.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "info" }),
        emitMetrics: (line: string) => logger.debug({ emf: line }, "metrics"),
      };
      const poller = await startPoller({
        sqs: createSqsClient(config, { requestTimeoutMs: (options.wait + 10) * 1000 }),
        queueUrl: config.QUEUE_URL,
        logger,
        handler: async (event, context) => (await processBatch(deps, event, context)).response,
        ...pollerSettings(options),
      });
      const exports = Object.entries(stack.env)
        .map(([name, value]) => `export ${name}=${value}`)
        .join("\n");
      process.stdout.write(
        `Local stack running (SQS: ${stack.backends.sqs}, DynamoDB: ${stack.backends.dynamodb}); the poller is processing ${config.QUEUE_URL}.\n` +
          `Paste this into another shell, then try \`rewards publish\`, \`rewards user <id>\`, \`rewards dlq peek\`:\n\n${exports}\n\nCtrl-C to stop.\n`,
      );
      await untilSignal(() => logger.info("stopping"));
      await poller.stop();
    } finally {
      await stack.stop();
    }
  });
}
