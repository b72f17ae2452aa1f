import { createSqsClient, loadConfig } from "@rewards/core";
import { startLocalStack } from "@rewards/local";
import { createHandler, createWorkerDeps, startPoller } from "@rewards/worker";
import type { Command } from "commander";
import { integer } from "../options";
import { cliLogger } from "../stdErrLogger";
import { untilSignal } from "../untilSignal";
import { addPollerOptions, type PollerCliOptions, pollerSettings } from "./worker";

interface DevOptions extends PollerCliOptions {
  visibilityTimeout?: number;
  json?: boolean;
}

export function registerDev(program: Command): void {
  addPollerOptions(
    program
      .command("dev")
      .description(
        "start the local stack and a poller, and print the env to point other shells at them; Ctrl-C stops",
      ),
    { minPollers: 0 },
  )
    .option(
      "--visibility-timeout <seconds>",
      "the queue's visibility timeout: how soon a killed worker's messages come back (default: the deployed 211)",
      integer(1, 43_200),
    )
    .option("--json", "print the environment as one JSON object (on one line), for scripts")
    .action(async (options: DevOptions) => {
      const logger = cliLogger("rewards-dev");
      const stack = await startLocalStack(
        options.visibilityTimeout ? { visibilityTimeoutSeconds: options.visibilityTimeout } : {},
      );
      try {
        const config = loadConfig(stack.env, ["QUEUE_URL"]);
        const poller =
          options.pollers === 0
            ? undefined
            : await startPoller({
                sqs: createSqsClient(config, { requestTimeoutMs: (options.wait + 10) * 1000 }),
                queueUrl: config.QUEUE_URL,
                logger,
                handler: createHandler({
                  ...createWorkerDeps({ ...stack.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "info" }),
                  emitMetrics: (line: string) => logger.debug({ emf: line }, "metrics"),
                }),
                ...pollerSettings(options),
              });
        if (options.json) {
          process.stdout.write(`${JSON.stringify(stack.env)}\n`);
        } else {
          const exports = Object.entries(stack.env)
            .map(([name, value]) => `export ${name}=${value}`)
            .join("\n");
          process.stdout.write(
            `Local stack running (SQS: ${stack.backends.sqs}, DynamoDB: ${stack.backends.dynamodb}); ` +
              `${poller ? `a poller is processing ${config.QUEUE_URL}` : "no poller (--pollers 0): run `npx rewards worker` to process"}.\n` +
              `Paste this into another shell in this repository, then try \`npx rewards publish\`, \`npx rewards user <id>\`, \`npx rewards dlq peek\`:\n\n${exports}\n\nCtrl-C to stop.\n`,
          );
        }
        await untilSignal(() => logger.info("stopping"));
        await poller?.stop();
      } finally {
        await stack.stop();
      }
    });
}
