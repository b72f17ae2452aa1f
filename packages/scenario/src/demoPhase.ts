import { describeError } from "@rewards/core/aws";

/** A phase of the demo that failed: the message names the phase and its cause, never a bare SDK line. */
export class DemoPhaseError extends Error {
  override readonly name = "DemoPhaseError";
  constructor(
    readonly phase: string,
    cause: unknown,
  ) {
    super(`${phase}: ${describeError(cause)}`, { cause });
  }
}

/**
 * Announces a phase, runs it, and says a failure in it as that phase's ("verifying the history:
 * TimeoutError: …"). A phase inside another keeps the inner name: it is the more precise.
 */
export async function runPhase<T>(
  name: string,
  onPhase: (phase: string) => void,
  run: () => Promise<T>,
): Promise<T> {
  onPhase(name);
  try {
    return await run();
  } catch (error) {
    throw error instanceof DemoPhaseError ? error : new DemoPhaseError(name, error);
  }
}
