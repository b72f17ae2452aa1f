import { defineConfig } from "vitest/config";

/**
 * Time zones far from UTC on both sides: a local-time parse or a local calendar date (a
 * streak day's start read as local midnight, say) is hours off there, so it fails here
 * rather than in production. UTC and the US zones hide such bugs: a day's start parsed as
 * local time lands on the same UTC date in both, and only a zone ahead of UTC by more than
 * the test's margin moves it. Node honours TZ set in the environment of each test fork.
 */
export const FAR_EAST_TZ = "Pacific/Kiritimati"; // UTC+14, the furthest ahead
export const FAR_WEST_TZ = "Etc/GMT+12"; // UTC−12, the furthest behind (POSIX sign: GMT+12 is 12 h west)

/**
 * The pure unit tests (in-process, seconds in all) run twice, once in each far zone; the
 * integration tests (local stack, child processes: most of `npm test`'s minutes) run once,
 * in the far-east zone. So every test runs far from UTC, the cheap ones on both sides,
 * and CI's time grows by the unit tests' few seconds, not by a second full run.
 */
const UNIT = [
  "packages/core/test/**/*.test.ts",
  "packages/worker/test/**/*.test.ts",
  "packages/announcer/test/**/*.test.ts",
  "packages/history/test/**/*.test.ts",
  "packages/producer/test/**/*.test.ts",
  "packages/reader/test/**/*.test.ts",
  "packages/read-api/test/**/*.test.ts",
  "packages/ops/test/**/*.test.ts",
  "packages/scenario/test/**/*.test.ts",
  "packages/cli/test/**/*.test.ts",
  "examples/site/test/**/*.test.ts",
];
const INTEGRATION = ["packages/local/test/**/*.test.ts", "tests/**/*.test.ts"];

export const env = { LOG_LEVEL: "silent" };
/** @rewards/testing's HANG_GUARD_MS (packages/testing/src/hangGuard.ts); Vite's config loader cannot import it. */
export const HANG_GUARD_MS = 10 * 60_000;

export default defineConfig({
  test: {
    // Each integration file starts its own local stack (one moto child each): two cores,
    // so two files at a time keeps the machine responsive and the run predictable.
    pool: "forks",
    maxWorkers: 2,
    // Tests wait on conditions (waitFor, a queue draining, a child's exit), each bounded where
    // it waits; the per-test limit only catches a hang, so a loaded machine does not fail them.
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    env,
    // No root `include`: a project that extends the root would add it to its own.
    projects: [
      // The unit tests share one fork per worker (no isolation): each file in a fork of its own
      // spent ~1 s importing the SDK and zod again, 100 s in all against 18 s shared. They hold
      // no process state between files (no stack, no env writes outside vitest's stubs), and
      // each project still runs in its own forks, so each keeps its zone.
      {
        extends: true,
        test: { name: "unit-far-east", include: UNIT, isolate: false, env: { ...env, TZ: FAR_EAST_TZ } },
      },
      {
        extends: true,
        test: { name: "unit-far-west", include: UNIT, isolate: false, env: { ...env, TZ: FAR_WEST_TZ } },
      },
      {
        extends: true,
        test: {
          name: "integration-far-east",
          include: INTEGRATION,
          // Shared forks here too (6m17 → 5m11 of vitest, 9.7 → 8.1 CPU-minutes): each file
          // starts and stops its own stack and restores what it sets in process.env, so what
          // it leaves in a shared fork is only the modules it imported.
          isolate: false,
          env: { ...env, TZ: FAR_EAST_TZ },
          // After the unit tests (group 0): run beside them, the shared unit forks held a
          // worker back and the integration files ran one at a time for minutes.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
