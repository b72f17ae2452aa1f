import { defineConfig } from "vitest/config";

/** `npm run check:infra`'s suite: the SST program under Pulumi mocks (needs `.sst/platform`). */
export default defineConfig({
  test: {
    include: ["infra/test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
