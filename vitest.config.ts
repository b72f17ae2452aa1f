import { defineConfig } from "vitest/config";

/** @rewards/testing's HANG_GUARD_MS (packages/testing/src/hangGuard.ts); Vite's config loader cannot import it. */
const HANG_GUARD_MS = 10 * 60_000;

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "tests/**/*.test.ts"],
    // Each integration file starts its own local stack (one moto child each): two cores,
    // so two files at a time keeps the machine responsive and the run predictable.
    pool: "forks",
    maxWorkers: 2,
    // Tests wait on conditions (waitFor, a queue draining, a child's exit), each bounded where
    // it waits; the per-test limit only catches a hang, so a loaded machine does not fail them.
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", LOG_LEVEL: "silent" },
  },
});
