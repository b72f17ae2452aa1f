import { defineConfig } from "vitest/config";
import { env, FAR_EAST_TZ, HANG_GUARD_MS } from "./vitest.config";

/**
 * `npm run test:browser` (scripts/testBrowser.mjs): the reader's page in a real Chromium (the
 * system's, driven by playwright-core) over `rewards dev`. Apart from `npm test`, which needs no
 * browser; one file at a time, as each starts its own stack and browser.
 */
export default defineConfig({
  test: {
    include: ["examples/site/browser/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    env: { ...env, TZ: FAR_EAST_TZ },
  },
});
