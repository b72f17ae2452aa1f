import { createHandler } from "./function/createHandler";
import { createWorkerDeps } from "./function/createWorkerDeps";

/**
 * The Lambda entry point (SQS event source with ReportBatchItemFailures). Its clients and
 * configuration are built when the module loads — Lambda's init phase — so a missing or
 * invalid variable fails the function at start with one message naming every bad one,
 * not on each batch. Tests and tools build their own with `createHandler(deps)`.
 */
export const handler = createHandler(createWorkerDeps(process.env));
