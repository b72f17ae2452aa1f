import { SQSClient } from "@aws-sdk/client-sqs";
import { createLogger } from "@rewards/core/aws";
import { resources } from "@rewards/core/deploy";
import { createHandler } from "@rewards/worker";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { documentClient, type Peer } from "./peer";

/** This project's worker: one TransactWriteItems per user per batch (its guards, then its profile). */
export const rewardsWorker: Peer = {
  name: "rewards (this worker)",
  sequence: ["TransactWriteItems (guard puts + profile update)"],
  create: (setup) =>
    createHandler({
      tableName: setup.tableName,
      stage: "bench",
      // The deployed defaults: REWARDS_CONCURRENCY and a socket per user group (createWorkerDeps).
      concurrency: resources.worker.concurrency,
      dynamo: documentClient({
        ...setup.client,
        requestHandler: new NodeHttpHandler({
          httpAgent: { maxSockets: resources.worker.concurrency, keepAlive: true },
        }),
      }),
      // The benchmark's workload has no poison: nothing is ever sent to a DLQ.
      sqs: new SQSClient({ region: "us-east-1" }),
      logger: createLogger({ level: "silent" }),
      emitMetrics: () => {},
    }),
};
