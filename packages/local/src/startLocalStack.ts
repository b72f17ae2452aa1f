import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import { LOCAL_CREDENTIALS, type LocalEndpointVariable, resources } from "@rewards/core/deploy";
import { type LocalBus, type LocalBusOptions, startLocalBus } from "./localBus";
import { type LocalConfig, readLocalConfig } from "./localConfig";
import { LocalStackError } from "./localStackError";
import { type Provisioned, type ProvisionOptions, provision } from "./provision";
import { startContainers } from "./startContainers";
import { pythonForMoto, startDynamo } from "./startDynamo";
import { type RunningService, startSqs } from "./startSqs";

export interface LocalStackOptions extends ProvisionOptions {
  region?: string;
  /** The local bus's name (default rewards-bus); the demo names its own. */
  busName?: string;
  /** Share of the bus's entries refused with ThrottlingException, drawn from `busSeed` (the soak's fault). */
  busEntryFailureRate?: number;
  busSeed?: number;
  /** Sees each event the bus accepts, when it arrives (benchmarks). */
  onBusEvent?: LocalBusOptions["onEvent"];
  /** Defaults to process.env: REWARDS_LOCAL and any AWS_ENDPOINT_URL_* already set. */
  env?: NodeJS.ProcessEnv;
}

export interface LocalStack {
  /** Everything a process needs to reach the stack: the configuration variables, endpoints, region, dummy credentials. */
  env: Record<string, string>;
  /** DynamoDB serves the table's stream too (DynamoDB Streams on the same endpoint). */
  endpoints: { sqs: string; dynamodb: string; eventbridge: string };
  resources: Provisioned & { busName: string; busArn: string };
  /** How each service is provided, for the start banner. */
  backends: { sqs: Backend; dynamodb: Backend; eventbridge: "local-bus" };
  bus: LocalBus;
  stop(): Promise<void>;
}

export type Backend = "fauxqs" | "moto" | "localstack-container" | "external";

const external = (endpoint: string): RunningService => ({ endpoint, stop: async () => {} });

async function startServices(env: NodeJS.ProcessEnv, config: LocalConfig) {
  if (config.REWARDS_LOCAL === "containers") {
    const localstack = await startContainers();
    const shared = { endpoint: localstack.endpoint, stop: async () => {} };
    return {
      sqs: { service: localstack, backend: "localstack-container" as const },
      dynamodb: { service: shared, backend: "localstack-container" as const },
    };
  }
  // An endpoint the user already set (a LocalStack of their own, say) is used as it is.
  const [sqs, dynamodb] = await Promise.allSettled([
    config.AWS_ENDPOINT_URL_SQS ? external(config.AWS_ENDPOINT_URL_SQS) : startSqs(),
    config.AWS_ENDPOINT_URL_DYNAMODB
      ? external(config.AWS_ENDPOINT_URL_DYNAMODB)
      : startDynamo({ python: pythonForMoto(env) }),
  ]);
  if (sqs.status === "rejected" || dynamodb.status === "rejected") {
    await Promise.all([sqs, dynamodb].map((s) => (s.status === "fulfilled" ? s.value.stop() : undefined)));
    throw sqs.status === "rejected" ? sqs.reason : (dynamodb as PromiseRejectedResult).reason;
  }
  return {
    sqs: {
      service: sqs.value,
      backend: config.AWS_ENDPOINT_URL_SQS ? ("external" as const) : ("fauxqs" as const),
    },
    dynamodb: {
      service: dynamodb.value,
      backend: config.AWS_ENDPOINT_URL_DYNAMODB ? ("external" as const) : ("moto" as const),
    },
  };
}

/**
 * The embedded local AWS: fauxqs in this process for SQS, the patched moto
 * server as a child process for DynamoDB, both on loopback ephemeral ports, provisioned
 * from the same definition as infra/. Several stacks can run side by side.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const env = options.env ?? process.env;
  const config = readLocalConfig(env);
  const region = options.region ?? config.AWS_REGION;
  const services = await startServices(env, config);
  const stop = async () => {
    await Promise.all([services.sqs.service.stop(), services.dynamodb.service.stop()]);
  };
  // The ones `rewards env` recognises (and unsets) in a shell pointed at a stage afterwards.
  const credentials = { ...LOCAL_CREDENTIALS };
  const sqs = new SQSClient({ region, endpoint: services.sqs.service.endpoint, credentials });
  const dynamo = new DynamoDBClient({ region, endpoint: services.dynamodb.service.endpoint, credentials });
  let provisioned: Provisioned;
  try {
    provisioned = await provision(sqs, dynamo, options);
  } catch (error) {
    sqs.destroy();
    await stop();
    throw new LocalStackError(
      "provisioning_failed",
      `could not create the queues and table: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  } finally {
    dynamo.destroy();
  }
  // The bus delivers as consumers' rules would, to two queues, so that `rewards grants tail`
  // and a consumer under development never take each other's events: the grants queue gets
  // EventBridge's envelope, the consumer queue the CloudEvent alone (InputPath=$.detail, the
  // recommended production rule's shape).
  const busName = options.busName ?? resources.bus.name;
  const bus = await startLocalBus({
    busName,
    region,
    sqs,
    rules: [
      {
        name: "grants-to-queue",
        pattern: { source: [resources.bus.source], "detail-type": [...resources.bus.detailTypes] },
        queueUrl: provisioned.grantsQueueUrl,
      },
      {
        name: "consumer-queue",
        pattern: { source: [resources.bus.source], "detail-type": [...resources.bus.detailTypes] },
        queueUrl: provisioned.consumerQueueUrl,
        inputPath: "$.detail",
      },
    ],
    ...(options.busEntryFailureRate
      ? { entryFailureRate: options.busEntryFailureRate, seed: options.busSeed ?? 1 }
      : {}),
    ...(options.onBusEvent ? { onEvent: options.onBusEvent } : {}),
  });
  // Every endpoint the stack serves, under LOCAL_ENDPOINT_VARIABLES' names (a name not in that
  // list fails to compile here), so `rewards env` unsets each in a shell pointed at a stage.
  const endpointEnv: Record<LocalEndpointVariable, string> = {
    AWS_ENDPOINT_URL_SQS: services.sqs.service.endpoint,
    AWS_ENDPOINT_URL_DYNAMODB: services.dynamodb.service.endpoint,
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: services.dynamodb.service.endpoint,
    AWS_ENDPOINT_URL_EVENTBRIDGE: bus.endpoint,
  };
  return {
    env: {
      AWS_REGION: region,
      // boto3 and the AWS CLI read this one, not AWS_REGION.
      AWS_DEFAULT_REGION: region,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      ...endpointEnv,
      TABLE_NAME: provisioned.tableName,
      QUEUE_URL: provisioned.queueUrl,
      DLQ_URL: provisioned.dlqUrl,
      BUS_NAME: busName,
      ANNOUNCER_FAILURE_QUEUE_URL: provisioned.announcerFailureQueueUrl,
      HISTORY_FAILURE_QUEUE_URL: provisioned.historyFailureQueueUrl,
      GRANTS_QUEUE_URL: provisioned.grantsQueueUrl,
      CONSUMER_QUEUE_URL: provisioned.consumerQueueUrl,
    },
    endpoints: {
      sqs: services.sqs.service.endpoint,
      dynamodb: services.dynamodb.service.endpoint,
      eventbridge: bus.endpoint,
    },
    resources: { ...provisioned, busName, busArn: bus.busArn },
    backends: { sqs: services.sqs.backend, dynamodb: services.dynamodb.backend, eventbridge: "local-bus" },
    bus,
    stop: async () => {
      await bus.stop();
      sqs.destroy();
      await stop();
    },
  };
}
