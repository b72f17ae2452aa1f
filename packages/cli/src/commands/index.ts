/**
 * The top-level commands, in one module: `rewards --help` lists every one, and one file loads
 * much faster than twenty. Each is light (what it runs, it imports in its run or its options:
 * tests/cliStartup.test.ts); a group's verbs load on their own (registry.ts).
 */

export { default as announcer } from "./announcer";
export { default as awards } from "./awards";
export { default as backfill } from "./backfill";
export { default as board } from "./board";
export { default as demo } from "./demo";
export { default as dev } from "./dev";
export { default as dlq } from "./dlq/dlq";
export { default as env } from "./env";
export { default as grants } from "./grants/grants";
export { default as guard } from "./guard";
export { default as history } from "./history/history";
export { default as load } from "./load";
export { default as publish } from "./publish";
export { default as queue } from "./queue/queue";
export { default as revoke } from "./revoke";
export { default as rules } from "./rules/rules";
export { default as schema } from "./schema";
export { default as status } from "./status";
export { default as user } from "./user";
export { default as verify } from "./verify";
export { default as worker } from "./worker";
