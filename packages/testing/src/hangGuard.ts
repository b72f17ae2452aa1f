/**
 * The limit for a test, hook or wait on something that runs to completion (a child process,
 * a queue draining): it has no condition to poll but its end, so the limit only catches a
 * hang. It is no expectation of speed: on a loaded machine (load 10 on 2 cores) work takes
 * several times as long as on an idle one, and a test must not fail for that.
 */
export const HANG_GUARD_MS = 10 * 60_000;
