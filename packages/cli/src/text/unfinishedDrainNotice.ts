/**
 * Pure: the line a `--drain` run ends with when it stopped before catching up with the stream
 * (a signal while its function still retried a batch, say: nothing given up, nothing
 * checkpointed past it), or undefined when it caught up or was not draining. The command then
 * exits 1: a drain is everything the stream held at the start, and that is not all through.
 */
export function unfinishedDrainNotice(
  run: { drain: boolean; caughtUp: boolean; stoppedBy: string },
  what: string,
  checkpoint: string | undefined,
): string | undefined {
  if (!run.drain || run.caughtUp) return undefined;
  const resume = checkpoint === undefined ? "" : ` (it resumes from ${checkpoint})`;
  return `--drain stopped by ${run.stoppedBy} before the ${what} caught up with the stream; run it again to go on${resume}`;
}
