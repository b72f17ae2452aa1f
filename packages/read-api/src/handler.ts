import { createHandler } from "./function/createHandler";
import { createReadApiDeps } from "./function/createReadApiDeps";

/**
 * The read API's Lambda entry point (a function URL, IAM auth). Its reader and configuration
 * are built when the module loads — Lambda's init phase — so a missing TABLE_NAME fails the
 * function at start, not on each request. Tests and tools build their own with
 * `createHandler(deps)`.
 */
export const handler = createHandler(createReadApiDeps(process.env));
