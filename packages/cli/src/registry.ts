import type { AnyCommand } from "./runtime/defineCommand";

type Load = () => Promise<{ default: AnyCommand }>;

export interface RegistryEntry {
  name: string;
  /** The command itself: a group's own meta (and run, if it has one). */
  load: Load;
  /** A group's subcommands, in the order its help lists them. */
  verbs?: readonly Load[];
}

/**
 * Every `rewards` command, in the order `rewards --help` lists them, each loaded only when
 * it is named (or for the list, which loads the top level alone). A command's help is its
 * own meta; a new command is one file and one line here (docs/architecture.md).
 */
export const REGISTRY: readonly RegistryEntry[] = [
  { name: "demo", load: () => import("./commands/demo") },
  { name: "dev", load: () => import("./commands/dev") },
  { name: "publish", load: () => import("./commands/publish") },
  { name: "load", load: () => import("./commands/load") },
  { name: "verify", load: () => import("./commands/verify") },
  { name: "worker", load: () => import("./commands/worker") },
  { name: "announcer", load: () => import("./commands/announcer") },
  {
    name: "history",
    load: () => import("./commands/history/history"),
    verbs: [
      () => import("./commands/history/failures"),
      () => import("./commands/history/replay"),
      () => import("./commands/history/rebuild"),
    ],
  },
  { name: "status", load: () => import("./commands/status") },
  {
    name: "queue",
    load: () => import("./commands/queue/queue"),
    verbs: [() => import("./commands/queue/stats")],
  },
  {
    name: "dlq",
    load: () => import("./commands/dlq/dlq"),
    verbs: [
      () => import("./commands/dlq/stats"),
      () => import("./commands/dlq/peek"),
      () => import("./commands/dlq/replay"),
      () => import("./commands/dlq/purge"),
    ],
  },
  {
    name: "grants",
    load: () => import("./commands/grants/grants"),
    verbs: [
      () => import("./commands/grants/tail"),
      () => import("./commands/grants/failures"),
      () => import("./commands/grants/replay"),
      () => import("./commands/grants/republish"),
    ],
  },
  { name: "backfill", load: () => import("./commands/backfill") },
  { name: "guard", load: () => import("./commands/guard") },
  { name: "awards", load: () => import("./commands/awards") },
  { name: "revoke", load: () => import("./commands/revoke") },
  { name: "user", load: () => import("./commands/user") },
  { name: "board", load: () => import("./commands/board") },
  {
    name: "rules",
    load: () => import("./commands/rules/rules"),
    verbs: [
      () => import("./commands/rules/check"),
      () => import("./commands/rules/diff"),
      () => import("./commands/rules/publish"),
      () => import("./commands/rules/rollback"),
      () => import("./commands/rules/show"),
      () => import("./commands/rules/history"),
    ],
  },
  { name: "schema", load: () => import("./commands/schema") },
  { name: "env", load: () => import("./commands/env") },
];

/**
 * Which command `argv` (process.argv) runs: its first word after the options, or after
 * `help` (`rewards help dlq`). Undefined for `rewards`, `rewards --help`, a misspelling.
 */
export function chosenCommand(argv: readonly string[]): RegistryEntry | undefined {
  const words = argv.slice(2).filter((word) => !word.startsWith("-"));
  const name = words[0] === "help" ? words[1] : words[0];
  return REGISTRY.find((entry) => entry.name === name);
}
