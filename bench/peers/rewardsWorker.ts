import { SQSClient } from "@aws-sdk/client-sqs";
import { createLogger } from "@rewards/core";
import { createHandler } from "@rewards/worker";
import { documentClient, type Peer } from "./peer";

/** This project's worker: the guard put and the XP update in one TransactWriteItems. */
export const rewardsWorker: Peer = {
  name: "rewards (this worker)",
  sequence: ["TransactWriteItems (guard put + profile update)"],
  create: (setup) =>
    createHandler({
      tableName: setup.tableName,
      concurrency: 10,
      dynamo: documentClient(setup.client),
      // The benchmark's workload has no poison: nothing is ever sent to a DLQ.
      sqs: new SQSClient({ region: "us-east-1" }),
      logger: createLogger({ level: "silent" }),
      emitMetrics: () => {},
    }),
};
