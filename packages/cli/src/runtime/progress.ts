import { SingleBar } from "cli-progress";

export interface Progress {
  update(done: number): void;
  stop(): void;
}

export interface ProgressReport {
  /** What a long operation calls as it goes; undefined when quiet (--json), so it reports nothing. */
  onProgress: ((done: number, total: number) => void) | undefined;
  /** Ends the bar drawn so far (if any); the next progress starts a new one. */
  stop(): void;
}

export interface ProgressOptions {
  /** Off a terminal, a line `  <label> <done> of <total>` at most this often (none without it). */
  linesEveryMs?: number;
  /** Whether `stream` is a terminal (a bar) or not (lines, or nothing). */
  terminal: boolean;
  /** Where the bar or the lines go: stderr, so stdout stays clean for --json. */
  stream: NodeJS.WritableStream;
}

/** A bar on the terminal for `total` steps. */
function progressBar(label: string, total: number, stream: NodeJS.WritableStream): Progress {
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left`,
    stream,
    hideCursor: true,
  });
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}

/**
 * Progress for an operation whose total is known only once it starts: the bar appears at the
 * first report, with that report's total. Off a terminal it is silent, or with `linesEveryMs`
 * a line at most that often. The runtime's io hands it stderr (runtime/io.ts).
 */
export function progressFor(
  quiet: boolean | undefined,
  label: string,
  options: ProgressOptions,
): ProgressReport {
  let bar: Progress | undefined;
  let lastLine = 0;
  const onProgress = (done: number, total: number) => {
    if (options.terminal) {
      bar ??= progressBar(label, total, options.stream);
      bar.update(done);
    } else if (options.linesEveryMs !== undefined && Date.now() - lastLine >= options.linesEveryMs) {
      lastLine = Date.now();
      options.stream.write(`  ${label} ${done} of ${total}\n`);
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
