/// <reference path="./.sst/platform/config.d.ts" />

/**
 * The SST app (infra/rewards.ts): the events queue and its DLQ with the worker subscribed
 * (partial batch responses); the table with TTL and its stream, with the announcer subscribed
 * through the award filter, publishing to the RewardsBus and sending given-up batches to the
 * AnnouncerFailures queue; the alarms, the operator's dashboard (its console URL is the
 * `dashboardUrl` output), and the producers' access to the queue. Names and
 * settings come from `@rewards/core/deploy` (packages/core/src/deploy/resources.ts), the definition
 * the local stack provisions from too.
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
