import type { AnyCommand } from "./runtime/defineCommand";

type Load = () => Promise<{ default: AnyCommand }>;

/** A top-level command, from the one module that holds them all (commands/index.ts). */
const topLevel =
  (name: keyof typeof import("./commands")): Load =>
  async () => ({ default: (await import("./commands"))[name] });

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
  { name: "demo", load: topLevel("demo") },
  { name: "dev", load: topLevel("dev") },
  { name: "publish", load: topLevel("publish") },
  { name: "load", load: topLevel("load") },
  { name: "verify", load: topLevel("verify") },
  { name: "worker", load: topLevel("worker") },
  { name: "announcer", load: topLevel("announcer") },
  {
    name: "history",
    load: topLevel("history"),
    verbs: [
      () => import("./commands/history/failures"),
      () => import("./commands/history/replay"),
      () => import("./commands/history/rebuild"),
    ],
  },
  { name: "status", load: topLevel("status") },
  {
    name: "queue",
    load: topLevel("queue"),
    verbs: [() => import("./commands/queue/stats")],
  },
  {
    name: "dlq",
    load: topLevel("dlq"),
    verbs: [
      () => import("./commands/dlq/stats"),
      () => import("./commands/dlq/peek"),
      () => import("./commands/dlq/replay"),
      () => import("./commands/dlq/purge"),
    ],
  },
  {
    name: "grants",
    load: topLevel("grants"),
    verbs: [
      () => import("./commands/grants/tail"),
      () => import("./commands/grants/failures"),
      () => import("./commands/grants/replay"),
      () => import("./commands/grants/republish"),
    ],
  },
  { name: "backfill", load: topLevel("backfill") },
  { name: "guard", load: topLevel("guard") },
  { name: "awards", load: topLevel("awards") },
  { name: "revoke", load: topLevel("revoke") },
  { name: "user", load: topLevel("user") },
  { name: "board", load: topLevel("board") },
  {
    name: "rules",
    load: topLevel("rules"),
    verbs: [
      () => import("./commands/rules/check"),
      () => import("./commands/rules/diff"),
      () => import("./commands/rules/publish"),
      () => import("./commands/rules/rollback"),
      () => import("./commands/rules/show"),
      () => import("./commands/rules/history"),
    ],
  },
  { name: "schema", load: topLevel("schema") },
  { name: "env", load: topLevel("env") },
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
