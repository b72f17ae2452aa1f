/// <reference path="./.sst/platform/config.d.ts" />

/**
 * The SST app: the events queue and its DLQ, the table with TTL, and the worker subscribed
 * with partial batch responses. Names and settings come from packages/core/src/resources.ts,
 * the definition the local stack provisions from too.
 */
export default $config({
  app(input) {
    return {
      name: "rewards",
      home: "aws",
      // Production data outlives a mistaken `sst remove`; other stages clean up after themselves.
      removal: input?.stage === "production" ? "retain" : "remove",
      protect: input?.stage === "production",
    };
  },
  async run() {
    const { createRewards } = await import("./infra/rewards");
    return createRewards();
  },
});
