import type { Command } from "commander";

/**
 * Every `rewards` command: its name and help line, and how to load it. A command's module
 * (and the SDK clients, the local stack… behind it) is loaded only when that command runs,
 * so `rewards --version` and `--help` load none of them. The help lines are checked against
 * the commands themselves (packages/cli/test/commandList.test.ts); a new command is one
 * entry here.
 */
export interface CommandEntry {
  name: string;
  /** How `rewards --help` lists it: its name, `[options]` and its arguments. */
  term: string;
  description: string;
  load: () => Promise<(program: Command) => void>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "demo",
    term: "demo [options]",
    description:
      "run the whole system locally: publish a mixed stream, process it under injected faults, replay the DLQ, announce every award on the local bus, verify every intent paid exactly once and announced by one id",
    load: async () => (await import("./commands/demo")).registerDemo,
  },
  {
    name: "dev",
    term: "dev [options]",
    description:
      "start the local stack (queues, table and its stream, a local EventBridge bus), a poller running the worker, stream sources running the announcer and the history's writer, and the HTTP read API on a loopback port (READER_URL), and print the env to point other shells at them; Ctrl-C stops",
    load: async () => (await import("./commands/dev")).registerDev,
  },
  {
    name: "publish",
    term: "publish [options] [file]",
    description:
      "publish NDJSON events (one CloudEvent per line) to QUEUE_URL; bad lines are reported, good ones still sent",
    load: async () => (await import("./commands/publish")).registerPublish,
  },
  {
    name: "load",
    term: "load [options]",
    description: "send reproducible synthetic traffic (all four types, duplicates, poison) to QUEUE_URL",
    load: async () => (await import("./commands/load")).registerLoad,
  },
  {
    name: "verify",
    term: "verify [options]",
    description:
      "compare users' XP with an expectation file (hand-written, or `rewards load --expect FILE`'s)",
    load: async () => (await import("./commands/verify")).registerVerify,
  },
  {
    name: "worker",
    term: "worker [options]",
    description: "run the Lambda handler against QUEUE_URL with Lambda's SQS semantics, until SIGINT/SIGTERM",
    load: async () => (await import("./commands/worker")).registerWorker,
  },
  {
    name: "announcer",
    term: "announcer [options]",
    description:
      "run the announcer on TABLE_NAME's stream with Lambda's stream semantics and the deployed mapping's filter: every award becomes one reward.granted on BUS_NAME; given-up batches go to ANNOUNCER_FAILURE_QUEUE_URL (exit 1 if any). Until SIGINT/SIGTERM",
    load: async () => (await import("./commands/announcer")).registerAnnouncer,
  },
  {
    name: "history",
    term: "history [options]",
    description:
      "run the history's writer on TABLE_NAME's stream with Lambda's stream semantics and the deployed mapping's filter: every award becomes one history item (docs/history.md); given-up batches go to HISTORY_FAILURE_QUEUE_URL (exit 1 if any). Until SIGINT/SIGTERM. `failures` and `replay` operate those batches; `rebuild` rewrites users' history from the guards",
    load: async () => (await import("./commands/history")).registerHistory,
  },
  {
    name: "queue",
    term: "queue",
    description: "the main queue (QUEUE_URL)",
    load: async () => (await import("./commands/queue")).registerQueue,
  },
  {
    name: "dlq",
    term: "dlq",
    description: "inspect and replay the dead-letter queue (DLQ_URL)",
    load: async () => (await import("./commands/dlq")).registerDlq,
  },
  {
    name: "grants",
    term: "grants",
    description: "reward.granted events: read them, and replay the announcer's given-up batches",
    load: async () => (await import("./commands/grants")).registerGrants,
  },
  {
    name: "guard",
    term: "guard [options] <type> <fields...>",
    description: "show the guard item of an intent: who was paid, how much, for which event, when",
    load: async () => (await import("./commands/guard")).registerGuard,
  },
  {
    name: "revoke",
    term: "revoke [options] [file]",
    description:
      'take back awards that should never have been paid (docs/revoking.md): NDJSON lines, each an event or {"intentKey": "…"}; a dry run unless --yes',
    load: async () => (await import("./commands/revoke")).registerRevoke,
  },
  {
    name: "user",
    term: "user [options] <userId>",
    description:
      "show a user's profile (XP, level, today's XP against the daily cap) and last awards, through the reader library; or repair its XP",
    load: async () => (await import("./commands/user")).registerUser,
  },
  {
    name: "schema",
    term: "schema [options] [type]",
    description:
      "print the JSON Schema (draft 2020-12) of the events: any reading event, one type, reward.granted or reward.revoked (the files in schemas/, docs/events.md)",
    load: async () => (await import("./commands/schema")).registerSchema,
  },
  {
    name: "env",
    term: "env [options]",
    description:
      "print the variables that point this CLI at a deployed stage, from its outputs (.sst/outputs.json after `sst deploy`)",
    load: async () => (await import("./commands/env")).registerEnv,
  },
];

/**
 * Which command `argv` (process.argv) runs: its first word after the options, or after
 * `help` (`rewards help dlq`). Undefined for `rewards`, `rewards --help`, a misspelling.
 */
export function chosenCommand(argv: readonly string[]): CommandEntry | undefined {
  const words = argv.slice(2).filter((word) => !word.startsWith("-"));
  const name = words[0] === "help" ? words[1] : words[0];
  return COMMANDS.find((command) => command.name === name);
}
