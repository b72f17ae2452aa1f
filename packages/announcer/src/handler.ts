import { createAnnouncer } from "./createAnnouncer";
import { createAnnouncerDeps } from "./createAnnouncerDeps";

/**
 * The announcer's Lambda entry point (the table's stream, ReportBatchItemFailures). Its
 * client and configuration are built when the module loads — Lambda's init phase — so a
 * missing BUS_NAME fails the function at start, not on each batch. Tests and tools build
 * their own with `createAnnouncer(deps)`.
 */
export const handler = createAnnouncer(createAnnouncerDeps(process.env));
