import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { withNamedCalls } from "./awsCall";
import { type ClientConfig, type ClientOptions, clientDefaults, credentials } from "./sdkClientOptions";

/**
 * The plain client, for code that marshals its own items (`@rewards/reader` takes one), with
 * the same bounded retries and timeouts as the document client below; a failed call names
 * itself (`withNamedCalls`), and so does every call of a document client built on it.
 */
export function createDynamoBaseClient(config: ClientConfig, options: ClientOptions = {}): DynamoDBClient {
  return withNamedCalls(
    new DynamoDBClient({
      region: config.AWS_REGION,
      endpoint: config.AWS_ENDPOINT_URL_DYNAMODB,
      credentials: credentials(config),
      ...clientDefaults(options, 2),
    }),
  );
}

/** Bounded SDK retries and timeouts, so a dead endpoint cannot hang a batch. */
export function createDynamoClient(
  config: ClientConfig,
  options: ClientOptions = {},
): DynamoDBDocumentClient {
  // Every item and value we write is built without undefined fields, which marshalling refuses.
  return DynamoDBDocumentClient.from(createDynamoBaseClient(config, options));
}
