import { ConfigError } from "@rewards/core/deploy";
import { describe, expect, it } from "vitest";
import { createAnnouncerDeps } from "../src";
import { readAnnouncerConfig } from "../src/function/announcerConfig";

describe("the announcer's configuration", () => {
  it("needs BUS_NAME and reads nothing it does not use", () => {
    expect(readAnnouncerConfig({ BUS_NAME: "rewards-bus", TABLE_NAME: "t", QUEUE_URL: "not a url" })).toEqual(
      {
        BUS_NAME: "rewards-bus",
        AWS_REGION: "us-east-1",
        REWARDS_STAGE: "local",
        logLevel: "info",
      },
    );
    expect(() => readAnnouncerConfig({})).toThrow(ConfigError);
    const bad = () => readAnnouncerConfig({ AWS_ENDPOINT_URL_EVENTBRIDGE: "bus" });
    expect(bad).toThrow(/BUS_NAME is required/);
    expect(bad).toThrow(/AWS_ENDPOINT_URL_EVENTBRIDGE must be a URL/);
  });

  it("points the client at AWS_ENDPOINT_URL_EVENTBRIDGE and logs as rewards-announcer", async () => {
    const deps = createAnnouncerDeps({
      BUS_NAME: "b",
      AWS_ENDPOINT_URL_EVENTBRIDGE: "http://127.0.0.1:4010",
      AWS_REGION: "eu-west-1",
      AWS_LAMBDA_LOG_LEVEL: "DEBUG",
    });
    expect(deps.busName).toBe("b");
    // No REWARDS_STAGE: not a deployed stage's (the deploy always sets it).
    expect(deps.stage).toBe("local");
    expect(createAnnouncerDeps({ BUS_NAME: "b", REWARDS_STAGE: "prod" }).stage).toBe("prod");
    expect(await deps.eventBridge.config.region()).toBe("eu-west-1");
    expect((await deps.eventBridge.config.endpoint?.())?.hostname).toBe("127.0.0.1");
    expect(deps.logger.level).toBe("debug");
    expect(deps.logger.bindings()).toEqual({ name: "rewards-announcer" });
  });
});
