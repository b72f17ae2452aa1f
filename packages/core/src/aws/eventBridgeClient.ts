import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { withNamedCalls } from "./awsCall";
import { type ClientConfig, type ClientOptions, clientDefaults, credentials } from "./sdkClientOptions";

/** The rewards bus's client (PutEvents): bounded SDK retries and timeouts, failures naming their call, like every client of ours. */
export function createEventBridgeClient(
  config: ClientConfig,
  options: ClientOptions = {},
): EventBridgeClient {
  return withNamedCalls(
    new EventBridgeClient({
      region: config.AWS_REGION,
      endpoint: config.AWS_ENDPOINT_URL_EVENTBRIDGE,
      credentials: credentials(config),
      ...clientDefaults(options, 3),
    }),
  );
}
