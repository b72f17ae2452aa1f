import { createEventBridgeClient, createLogger } from "@rewards/core/aws";
import type { Environment } from "@rewards/core/deploy";
import { readAnnouncerConfig } from "./announcerConfig";
import type { AnnouncerDeps } from "./announcerDeps";

/** The announcer's dependencies from its variables; throws ConfigError naming every bad one. */
export function createAnnouncerDeps(env: Environment = process.env): AnnouncerDeps {
  const config = readAnnouncerConfig(env);
  return {
    busName: config.BUS_NAME,
    stage: config.REWARDS_STAGE,
    eventBridge: createEventBridgeClient(config),
    logger: createLogger({ level: config.logLevel, name: "rewards-announcer" }),
  };
}
