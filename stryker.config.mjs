// @ts-check
/**
 * Mutation testing of the award path, its announcement, the history's writer (where every
 * derived number is written) and the reader's streak and board arithmetic (`npm run mutation`;
 * docs/testing.md, "Mutation testing").
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  mutate: [
    "packages/core/src/**/*.ts",
    "packages/worker/src/function/**/*.ts",
    "packages/worker/src/handler.ts",
    "packages/announcer/src/**/*.ts",
    "packages/history/src/**/*.ts",
    "packages/reader/src/today.ts",
    "packages/reader/src/boardReads.ts",
    "packages/reader/src/boardCursor.ts",
  ],
  // Each mutant runs only the tests that reach it.
  coverageAnalysis: "perTest",
  // A static mutant (a module-level constant: a condition expression, a Set of codes) is reached
  // by every test, so each one reruns the whole mutation suite (a minute): 238 of them took two
  // thirds of the run. They are left out of the score; the semantic mutants
  // (npm run mutation:semantic) plant the realistic bugs in those constants instead.
  ignoreStatic: true,
  // The sandbox is a copy without what the run never reads (vitest.mutation.config.ts
  // points workspace imports at the copy's sources).
  ignorePatterns: [".sst", "bench", "infra", "reports", "dist", ".venv"],
  concurrency: 2,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 95, low: 90, break: 90 },
  // Results are kept in a committed file: a run re-tests only the mutants whose code or
  // tests changed since (`npm run mutation:full` re-tests all of them).
  incremental: true,
  incrementalFile: "stryker-incremental.json",
  tempDirName: ".stryker-tmp",
};
