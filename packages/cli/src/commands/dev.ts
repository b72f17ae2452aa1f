import { integer } from "../options/parsers";
import {
  addPollerOptions,
  dailyCapEnv,
  dailyCapOption,
  type PollerCliOptions,
  pollerSettings,
} from "../options/pollerOptions";
import { defineCommand } from "../runtime/defineCommand";

interface DevOptions extends PollerCliOptions {
  visibilityTimeout?: number;
  announcer: boolean;
  history: boolean;
  readApi: boolean;
  site: boolean;
  json?: boolean;
  dailyCap?: number;
  rules?: string;
}

export default defineCommand<DevOptions>()({
  meta: {
    name: "dev",
    description:
      "start the local stack (queues, table and its stream, a local EventBridge bus), a poller running the worker, stream sources running the announcer and the history's writer, the HTTP read API on a loopback port (READER_URL) and the example reader's page over it (SITE_URL), and print the env to point other shells at them; Ctrl-C stops",
  },
  options: (command) =>
    addPollerOptions(command, { minPollers: 0 })
      .addOption(dailyCapOption())
      .option(
        "--visibility-timeout <seconds>",
        "the queue's visibility timeout: how soon a killed worker's messages come back (default: the deployed 211)",
        integer(1, 43_200),
      )
      .option("--no-announcer", "do not run the announcer (run `npx rewards announcer` yourself)")
      .option("--no-history", "do not run the history's writer (the reader's history stays empty)")
      .option("--no-read-api", "do not serve the HTTP read API (no READER_URL, no SITE_URL)")
      .option("--no-site", "do not serve the example reader's page (no SITE_URL)")
      .option(
        "--rules <file>",
        "publish this rules document (docs/rules.md) as version 1 once the table exists; a document the checks refuse stops it, exit 1",
      )
      .option("--json", "print the environment as one JSON object (on one line), for scripts"),
  async run({ options, config: shell, io }) {
    // The worker's cap (--daily-cap, else the shell's), printed with the env for the other shell's commands.
    const capEnv = dailyCapEnv(options.dailyCap, shell.REWARDS_DAILY_XP_CAP);
    const {
      deployedAnnouncerSettings,
      deployedHistorySettings,
      localFunctionSettings,
      startLocalAnnouncer,
      startLocalHistory,
      startLocalReadApi,
      startLocalSite,
      startLocalStack,
      startLocalWorker,
      streamCheckpointFiles,
    } = await import("@rewards/local");
    // The other stage settings, from the shell, defaults filled in (a bad one stops here, named):
    // every function gets them, and the env block prints them, so that a shell exporting it
    // reads what the functions write (`rewards board` as many shards as the writer fills).
    const settingsEnv = localFunctionSettings(shell);
    const logger = await io.logger("rewards-dev", shell.LOG_LEVEL ?? "info");
    const [{ toolConfigFrom }, { rulesProblemsError }] = await Promise.all([
      import("@rewards/core/deploy"),
      import("./rules/rulesProblems"),
    ]);
    // Read and checked before anything starts: a document the checks refuse stops here.
    const ops = options.rules === undefined ? undefined : await import("@rewards/ops");
    const rules =
      options.rules === undefined || ops === undefined ? undefined : await ops.readRulesFile(options.rules);
    if (rules !== undefined && !rules.ok) throw rulesProblemsError(String(options.rules), rules.problems);
    // The stream functions' places, in files `rewards status` reads (printed with the env).
    const checkpoints = await streamCheckpointFiles();
    const stack = await startLocalStack(
      options.visibilityTimeout ? { visibilityTimeoutSeconds: options.visibilityTimeout } : {},
    ).catch(async (error: unknown) => {
      await checkpoints.remove();
      throw error;
    });
    try {
      const config = toolConfigFrom(
        { ...stack.env, ...settingsEnv, ...capEnv },
        "QUEUE_URL",
        "TABLE_NAME",
        "BUS_NAME",
      );
      if (rules?.ok && ops !== undefined) {
        const published = await ops.publishRules(
          ops.clientsFor(config).dynamo,
          config.TABLE_NAME,
          rules.document,
          {
            note: `rewards dev --rules ${options.rules}`,
          },
        );
        if (published.kind === "refused")
          throw rulesProblemsError(`${options.rules} against version 0`, published.problems);
        logger.info({ rules: options.rules }, ops.describePublish(published));
      }
      // stdout is for the env block; the functions' logs go to stderr, their metrics at debug.
      const onOutput = (line: string) => {
        if (line.startsWith('{"_aws"')) logger.debug({ emf: line }, "metrics");
        else io.err(`${line}\n`);
      };
      const worker =
        options.pollers === 0
          ? undefined
          : await startLocalWorker({
              config,
              code: options.function,
              settings: pollerSettings(options),
              logger,
              onOutput,
            });
      const announcer = options.announcer
        ? await startLocalAnnouncer({
            config,
            code: options.function,
            settings: deployedAnnouncerSettings(),
            checkpointFile: checkpoints.env.ANNOUNCER_CHECKPOINT_FILE,
            logger,
            onOutput,
          })
        : undefined;
      const history = options.history
        ? await startLocalHistory({
            config,
            code: options.function,
            settings: deployedHistorySettings(),
            failureQueueUrl: config.HISTORY_FAILURE_QUEUE_URL,
            checkpointFile: checkpoints.env.HISTORY_CHECKPOINT_FILE,
            logger,
            onOutput,
          })
        : undefined;
      // The function URL's stand-in, with the worker's cap: `today` is read where the worker writes it.
      const readApi = options.readApi
        ? await startLocalReadApi({ config, code: options.function, onOutput })
        : undefined;
      // The example reader's page (examples/site), a site's backend over the read API.
      const site =
        readApi && options.site
          ? await startLocalSite({
              readerUrl: readApi.url,
              onReadFailure: (error) =>
                logger.warn({ err: error }, "the reader's page could not read the API"),
            })
          : undefined;
      // Listening before the env is printed: a script that stops it on reading the env is heard.
      const stopped = io.untilSignal(() => logger.info("stopping"));
      const printed = {
        ...stack.env,
        ...settingsEnv,
        ...capEnv,
        ...checkpoints.env,
        ...(readApi ? { READER_URL: readApi.url } : {}),
        ...(site ? { SITE_URL: site.url } : {}),
      };
      if (options.json) {
        await io.out(`${JSON.stringify(printed)}\n`);
      } else {
        const exports = Object.entries(printed)
          .map(([name, value]) => `export ${name}=${value}`)
          .join("\n");
        await io.out(
          `Local stack running (SQS: ${stack.backends.sqs}, DynamoDB and its stream: ${stack.backends.dynamodb}, EventBridge: ${stack.backends.eventbridge}); ` +
            `${worker ? `a poller is processing ${config.QUEUE_URL}` : "no poller (--pollers 0): run `npx rewards worker` to process"}; ` +
            `${announcer ? `the announcer publishes every award to ${config.BUS_NAME}` : "no announcer (--no-announcer): run `npx rewards announcer`"}; ` +
            `${history ? `the history's writer records every award in ${config.TABLE_NAME}` : "no history's writer (--no-history)"}; ` +
            `${readApi ? `the read API answers at READER_URL (curl "$READER_URL/users/<id>")` : "no read API (--no-read-api)"}; ` +
            `${site ? `the reader's page is at ${site.url}?user=<id> (SITE_URL)` : "no reader's page (--no-site or --no-read-api)"}.\n` +
            `Paste this into another shell in this repository, then try \`npx rewards publish\`, \`npx rewards user <id>\`, \`npx rewards grants tail\`, \`npx rewards dlq peek\`.\n` +
            "Every announcement goes to two queues, so that `grants tail` and a consumer under development never take each other's events: " +
            "GRANTS_QUEUE_URL holds EventBridge's envelope (what `npx rewards grants tail` reads), " +
            "CONSUMER_QUEUE_URL the CloudEvent alone, as a production rule with InputPath=$.detail delivers it (point your consumer there; see examples/python/consume.py):\n\n" +
            `${exports}\n\nCtrl-C to stop.\n`,
        );
      }
      await stopped;
      await Promise.all([worker?.stop(), announcer?.stop(), history?.stop(), site?.stop(), readApi?.stop()]);
    } finally {
      await stack.stop();
      await checkpoints.remove();
    }
    return undefined;
  },
});
