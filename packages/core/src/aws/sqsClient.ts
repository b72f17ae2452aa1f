import { SQSClient } from "@aws-sdk/client-sqs";
import { withNamedCalls } from "./awsCall";
import { type ClientConfig, type ClientOptions, clientDefaults, credentials } from "./sdkClientOptions";

/**
 * The endpoint is passed explicitly (not left to the SDK's env lookup) because the SQS
 * client otherwise sends each request to its QueueUrl's host, which for an emulator
 * need not be the endpoint.
 */
export function createSqsClient(config: ClientConfig, options: ClientOptions = {}): SQSClient {
  return withNamedCalls(
    new SQSClient({
      region: config.AWS_REGION,
      endpoint: config.AWS_ENDPOINT_URL_SQS,
      credentials: credentials(config),
      ...clientDefaults(options, 3),
    }),
  );
}
