import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { clientDefaults, createLogger, credentials } from "@rewards/core/aws";
import type { Environment } from "@rewards/core/deploy";
import { readAnnouncerConfig } from "./announcerConfig";
import type { AnnouncerDeps } from "./announcerDeps";

/** The announcer's dependencies from its variables; throws ConfigError naming every bad one. */
export function createAnnouncerDeps(env: Environment = process.env): AnnouncerDeps {
  const config = readAnnouncerConfig(env);
  return {
    busName: config.BUS_NAME,
    eventBridge: new EventBridgeClient({
      region: config.AWS_REGION,
      endpoint: config.AWS_ENDPOINT_URL_EVENTBRIDGE,
      credentials: credentials(config),
      ...clientDefaults({}, 3),
    }),
    logger: createLogger({ level: config.logLevel, name: "rewards-announcer" }),
  };
}
