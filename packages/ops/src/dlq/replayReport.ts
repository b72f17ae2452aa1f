import type { ParkedMessage } from "@rewards/core";
import { plural } from "@rewards/core";
import {
  type MessageVerdict,
  shownVerdicts,
  VERDICT_WORDS,
  type VerdictCounts,
  verdictWords,
} from "./replayVerdict";

/** A matching source message and what replaying it would do now. */
export interface ReportedMessage extends MessageVerdict {
  messageId: string;
  sourceMessageId: string;
  error: string;
  type?: string | undefined;
  userId?: string | undefined;
}

export interface ReplayReport {
  dryRun: boolean;
  /** Source messages sent back to the queue (or, with --dry-run, that would be). */
  replayed: number;
  /** Further copies of a source message already replayed in this pass: deleted, not sent. */
  copiesDeleted: number;
  failed: number;
  failures: Array<{ messageId: string; error: string }>;
  /** Left in the DLQ, visible again at once. */
  notMatching: number;
  /** Parked again while this replay ran (by the worker handling what it replayed): never looped over. */
  parkedDuringReplay: number;
  /** Held by another reader when the pass started: not in it; run again once they are visible. */
  inFlightAtStart: number;
  /** Matching source messages left because of --max. */
  overMax: number;
  /** Messages (copies) the DLQ holds after the pass, of those it read. */
  leftInDlq: number;
  /** With a judge: what a replay does now, per matching source message. */
  verdicts?: VerdictCounts;
  /** With --dry-run and a judge: each matching source message and its verdict. */
  judged?: ReportedMessage[];
  /** With --skip-paid: already-paid source messages deleted from the DLQ instead of sent (or, dry, that would be). */
  skippedPaid: number;
  skipped: Array<{ messageId: string; sourceMessageId: string; intentKey?: string | undefined }>;
  /** Held messages not made visible again at the end (they are when their hold ends): nothing is lost. */
  notReleased?: string;
}

export function emptyReport(dryRun: boolean, inFlightAtStart: number): ReplayReport {
  // In the order --json prints them.
  return {
    dryRun,
    replayed: 0,
    copiesDeleted: 0,
    failed: 0,
    failures: [],
    notMatching: 0,
    parkedDuringReplay: 0,
    inFlightAtStart,
    skippedPaid: 0,
    skipped: [],
    overMax: 0,
    leftInDlq: 0,
  };
}

export const judgedMessage = (parked: ParkedMessage, judged: MessageVerdict): ReportedMessage => ({
  messageId: parked.messageId,
  sourceMessageId: parked.sourceMessageId,
  error: parked.error,
  type: parked.type,
  userId: parked.userId,
  ...judged,
});

/** `  <message id>: <verdict> "<intent key>": <why>`, the key and the why where there is one. */
export function judgedLine(judged: ReportedMessage): string {
  const key = judged.intentKey === undefined ? "" : ` ${JSON.stringify(judged.intentKey)}`;
  return `  ${judged.messageId}: ${verdictWords(judged)}${key}${judged.reason === undefined ? "" : `: ${judged.reason}`}`;
}

/** One line for people, coherent whatever happened. */
export function describeReplay(report: ReplayReport): string {
  const parts = [
    report.dryRun
      ? `${report.replayed} would be replayed (dry run: nothing moved)`
      : `${report.replayed} replayed`,
    `${report.copiesDeleted} extra ${report.copiesDeleted === 1 ? "copy" : "copies"} ${report.dryRun ? "would be " : ""}deleted`,
    `${report.failed} failed`,
  ];
  const left = [
    report.overMax > 0 ? `${report.overMax} matching (over --max)` : "",
    report.notMatching > 0 ? `${report.notMatching} not matching the filter` : "",
    report.parkedDuringReplay > 0 ? `${report.parkedDuringReplay} parked again during the replay` : "",
  ].filter(Boolean);
  if (report.skippedPaid > 0) {
    parts.splice(
      1,
      0,
      `${report.skippedPaid} already paid ${report.dryRun ? "would be deleted" : "deleted"} instead of sent`,
    );
  }
  const leftTotal = left.length > 0 ? ` (${plural(report.leftInDlq, "message")} in all)` : "";
  const lines = [
    `${parts.join(", ")}${left.length > 0 ? `; left in the DLQ: ${left.join(", ")}${leftTotal}` : ""}.`,
  ];
  if (report.verdicts) {
    const verdicts = shownVerdicts(report.verdicts);
    lines.unshift(
      `Replayed now, the matching messages would: ${verdicts.map(([verdict, n]) => `${n} ${VERDICT_WORDS[verdict]}`).join(", ")}.`,
    );
  }
  // A dry run's verdicts message by message (the counts above only say how many), each whole.
  for (const judged of report.judged ?? []) lines.push(judgedLine(judged));
  if (report.inFlightAtStart > 0) {
    lines.push(
      `${plural(report.inFlightAtStart, "message was", "messages were")} being read elsewhere and not in this pass: run it again once they are visible.`,
    );
  }
  for (const failure of report.failures.slice(0, 10)) lines.push(`  ${failure.messageId}: ${failure.error}`);
  if (report.notReleased !== undefined)
    lines.push(`${report.notReleased} (nothing is lost: they stay in the DLQ).`);
  if (report.failures.length > 10)
    lines.push(`  … and ${report.failures.length - 10} more (--json lists all)`);
  return lines.join("\n");
}
