import type { BatchReplay, BatchReplayOutcome } from "./batchReplay";

/**
 * How one function's replay names what it did (`grants replay`: published, republished;
 * `history replay`: written): the count of records done, and the outcomes that say it. Every
 * other outcome is the same word for both.
 */
export interface ReplayWords {
  /** The count of records done: `published`, `written`. */
  done: string;
  /** All done, the record deleted: `republished`, `written`. */
  replayed: string;
  /** --dry-run: `would republish`, `would write`. */
  wouldReplay: string;
  /** Not all done, the record kept: `not all published`, `not all written`. */
  notAllDone: string;
}

/** A replayed batch as `--json` prints it: `awards` handed, and the count done under its own name. */
export type ReplayInWords = {
  messageId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  awards: number;
  outcome: string;
  reason?: string | undefined;
} & Record<string, unknown>;

/** Pure: an outcome in the function's words (`--json`'s `outcome`). */
export function outcomeInWords(outcome: BatchReplayOutcome, words: ReplayWords): string {
  if (outcome === "replayed") return words.replayed;
  if (outcome === "would replay") return words.wouldReplay;
  if (outcome === "not all done") return words.notAllDone;
  return outcome;
}

/** The table's words for the outcomes every function shares; a kept record says so. */
const SHARED_TEXT: Record<
  Exclude<BatchReplayOutcome, "replayed" | "would replay" | "not all done">,
  string
> = {
  incomplete: "not all the batch's records found (kept)",
  failed: "failed (kept)",
  gone: "no longer in the stream (kept)",
  unreadable: "not a failure record (kept)",
  discarded: "discarded (printed above)",
  "would discard": "would discard",
};

/** Pure: an outcome as the table shows it. */
export function outcomeText(outcome: BatchReplayOutcome, words: ReplayWords): string {
  if (outcome === "not all done") return `${words.notAllDone} (kept)`;
  if (outcome === "replayed" || outcome === "would replay") return outcomeInWords(outcome, words);
  return SHARED_TEXT[outcome];
}

/** Pure: a replayed batch in the function's words, as `--json` prints it. */
export function replayInWords(
  { handed, done, outcome, ...rest }: BatchReplay,
  words: ReplayWords,
): ReplayInWords {
  return { ...rest, awards: handed, [words.done]: done, outcome: outcomeInWords(outcome, words) };
}
