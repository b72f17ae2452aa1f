/**
 * Replaying the DLQ, two ways: message by message (filteredReplay: filters, --max, --rate,
 * --dry-run, --skip-paid) or all at once by SQS's own redrive (nativeRedrive, --native);
 * replayReport says what a message-by-message pass did.
 */
export { type ReplayOptions, replayDlq } from "./filteredReplay";
export { replayNative } from "./nativeRedrive";
export { matches, type ReplayFilter } from "./replayFilter";
export { describeReplay, type JudgedMessage, type ReplayReport } from "./replayReport";
