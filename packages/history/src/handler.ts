import { createHandler } from "./function/createHandler";
import { createHistoryDeps } from "./function/createHistoryDeps";

/**
 * The history writer's Lambda entry point (the table's stream, ReportBatchItemFailures). Its
 * client and configuration are built when the module loads — Lambda's init phase — so a
 * missing TABLE_NAME fails the function at start, not on each batch. Tests and tools build
 * their own with `createHandler(deps)`.
 */
export const handler = createHandler(createHistoryDeps(process.env));
