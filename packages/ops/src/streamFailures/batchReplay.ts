/** What became of one failure record in a replay (`grants replay`, `history replay`). */
export type BatchReplayOutcome =
  /** Every record the function is handed done; the failure record deleted. */
  | "replayed"
  /** --dry-run: what a replay would hand the function. */
  | "would replay"
  /** The function did not do all of them: the record stays. */
  | "not all done"
  /** The stream gave back neither count of the batch's batchSize: the record stays. */
  | "incomplete"
  /** The stream no longer holds the records (or the stream is gone): the record stays. */
  | "gone"
  /** Not a failure record: it stays. */
  | "unreadable"
  /** --discard-unreplayable: gone or unreadable, printed, then deleted. */
  | "discarded"
  /** --discard-unreplayable --dry-run: gone or unreadable, printed, not deleted. */
  | "would discard"
  /** A call failed (reading the stream, the function's code, deleting the record): the record stays; harmless to run again. */
  | "failed";

export interface BatchReplay {
  messageId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Records of the range the mapping's filter passes: what the function is handed. */
  handed: number;
  /** Of those, done by the function now. */
  done: number;
  outcome: BatchReplayOutcome;
  reason?: string;
  /** A record discarded (or that would be): why no replay could do it. */
  was?: "gone" | "unreadable";
}

/**
 * Pure: whether no replay can ever do this record, however often it runs: its records are no
 * longer in the stream (24 hours' retention, or the stream is gone), or it is not a failure
 * record at all. Only these may be discarded; a record kept for any other reason (not all its
 * records found, not all done, a failed call) may replay later.
 */
export const isUnreplayable = (outcome: BatchReplayOutcome): outcome is "gone" | "unreadable" =>
  outcome === "gone" || outcome === "unreadable";
