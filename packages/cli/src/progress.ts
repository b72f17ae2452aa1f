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
