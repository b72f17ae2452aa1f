import { startLocalStack } from "@rewards/local";
import type { Command } from "commander";
import { commandConfig, configFrom } from "../cliConfig";
import { startLocalWorker } from "../localWorker";
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
      const { LOG_LEVEL, REWARDS_CONCURRENCY } = commandConfig();
      const logger = cliLogger("rewards-dev", LOG_LEVEL ?? "info");
      const stack = await startLocalStack(
        options.visibilityTimeout ? { visibilityTimeoutSeconds: options.visibilityTimeout } : {},
      );
      try {
        const config = configFrom(
          { ...stack.env, LOG_LEVEL, REWARDS_CONCURRENCY },
          "QUEUE_URL",
          "TABLE_NAME",
        );
        const worker =
          options.pollers === 0
            ? undefined
            : await startLocalWorker({
                config,
                code: options.function,
                settings: pollerSettings(options),
                logger,
                // stdout is for the env block; the function's logs go to stderr, its metrics at debug.
                onOutput: (line) => {
                  if (line.startsWith('{"_aws"')) logger.debug({ emf: line }, "metrics");
                  else process.stderr.write(`${line}\n`);
                },
              });
        if (options.json) {
          process.stdout.write(`${JSON.stringify(stack.env)}\n`);
        } else {
          const exports = Object.entries(stack.env)
            .map(([name, value]) => `export ${name}=${value}`)
            .join("\n");
          process.stdout.write(
            `Local stack running (SQS: ${stack.backends.sqs}, DynamoDB: ${stack.backends.dynamodb}); ` +
              `${worker ? `a poller is processing ${config.QUEUE_URL}` : "no poller (--pollers 0): run `npx rewards worker` to process"}.\n` +
              `Paste this into another shell in this repository, then try \`npx rewards publish\`, \`npx rewards user <id>\`, \`npx rewards dlq peek\`:\n\n${exports}\n\nCtrl-C to stop.\n`,
          );
        }
        await untilSignal(() => logger.info("stopping"));
        await worker?.stop();
      } finally {
        await stack.stop();
      }
    });
}
