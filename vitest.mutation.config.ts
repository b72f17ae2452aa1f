import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

const packages = fileURLToPath(new URL("./packages/", import.meta.url));

/**
 * The tests the mutation run (`npm run mutation`) measures the award path (and its
 * announcement) with: every test
 * that runs the award path's code in the test's own process. Tests that drive it only
 * through child processes (the CLI, the soak, the packed producer) cannot see a mutant, which
 * is switched on in this process alone, so they are left out; they run in `npm test`.
 */
// Stryker runs one list of files, in the machine's zone: the time-zone projects are `npm test`'s.
const { projects: _projects, ...baseTest } = base.test ?? {};

export default defineConfig({
  ...base,
  // Stryker mutates a copy of the repository (its sandbox), whose node_modules is the
  // original's: there `@rewards/core` would resolve to the unmutated packages. These send
  // each workspace import to the sandbox's own sources.
  resolve: {
    alias: [
      {
        find: /^@rewards\/(worker|announcer|history)\/handler$/,
        replacement: `${packages}$1/src/handler.ts`,
      },
      { find: /^@rewards\/core$/, replacement: `${packages}core/src/domain/index.ts` },
      { find: /^@rewards\/core\/(aws|deploy)$/, replacement: `${packages}core/src/$1/index.ts` },
      {
        find: /^@rewards\/core\/rules-text$/,
        replacement: `${packages}core/src/domain/rules/parseRulesText.ts`,
      },
      {
        find: /^@rewards\/(worker|announcer|history|reader|ops|producer|local|testing)$/,
        replacement: `${packages}$1/src/index.ts`,
      },
    ],
  },
  test: {
    ...baseTest,
    include: [
      "packages/core/test/**/*.test.ts",
      "packages/worker/test/**/*.test.ts",
      "packages/announcer/test/**/*.test.ts",
      "packages/history/test/**/*.test.ts",
      "packages/reader/test/**/*.test.ts",
      "tests/timeline.test.ts",
      "tests/progress.test.ts",
      "tests/history.test.ts",
      "tests/board.test.ts",
      "tests/worker.test.ts",
      "tests/coalesce.test.ts",
      "tests/faultProxy.test.ts",
      "tests/contract.test.ts",
      "tests/publisher.test.ts",
      "tests/poller.test.ts",
      "tests/eventTime.test.ts",
      "tests/commitOrder.test.ts",
      "tests/rulesSource.test.ts",
    ],
  },
});
