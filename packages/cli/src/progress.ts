import { SingleBar } from "cli-progress";

export interface Progress {
  update(done: number): void;
  stop(): void;
}

/** A progress bar on a terminal (stderr, so stdout stays clean for --json); silent otherwise. */
export function progressBar(label: string, total: number, enabled = process.stderr.isTTY === true): Progress {
  if (!enabled) return { update: () => {}, stop: () => {} };
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left`,
    stream: process.stderr,
    hideCursor: true,
  });
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}

export interface ProgressReport {
  /** What a long operation calls as it goes; undefined when quiet (--json), so it reports nothing. */
  onProgress: ((done: number, total: number) => void) | undefined;
  /** Ends the bar drawn so far (if any); the next progress starts a new one. */
  stop(): void;
}

/**
 * Progress for an operation whose total is known only once it starts: the bar (see
 * progressBar) appears at the first report, with that report's total. Off a terminal it is
 * silent, or with `linesEveryMs` a line `  <label> <done> of <total>` at most that often.
 */
export function progressFor(
  quiet: boolean | undefined,
  label: string,
  options: { linesEveryMs?: number; terminal?: boolean } = {},
): ProgressReport {
  const terminal = options.terminal ?? process.stderr.isTTY === true;
  let bar: Progress | undefined;
  let lastLine = 0;
  const onProgress = (done: number, total: number) => {
    if (terminal) {
      bar ??= progressBar(label, total, true);
      bar.update(done);
    } else if (options.linesEveryMs !== undefined && Date.now() - lastLine >= options.linesEveryMs) {
      lastLine = Date.now();
      process.stderr.write(`  ${label} ${done} of ${total}\n`);
    }
  };
  return {
    onProgress: quiet ? undefined : onProgress,
    stop: () => {
      bar?.stop();
      bar = undefined;
    },
  };
}
