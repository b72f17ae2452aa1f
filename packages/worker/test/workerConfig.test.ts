import { ConfigError } from "@rewards/core/deploy";
import { describe, expect, it } from "vitest";
import { createWorkerDeps } from "../src/function/createWorkerDeps";
import { readWorkerConfig } from "../src/function/workerConfig";

describe("the worker's configuration", () => {
  it("has the documented defaults and reads nothing it does not use", () => {
    const config = readWorkerConfig({ TABLE_NAME: "t", QUEUE_URL: "not a url", REWARDS_LOCAL: "nope" });
    expect(config).toEqual({
      TABLE_NAME: "t",
      AWS_REGION: "us-east-1",
      REWARDS_CONCURRENCY: 100,
      REWARDS_STAGE: "local",
      REWARDS_RULES_REFRESH_SECONDS: 30,
      logLevel: "info",
    });
  });

  it("REWARDS_STAGE: the stage its metrics carry, as given; unset outside a deploy, `local`", () => {
    expect(createWorkerDeps({ TABLE_NAME: "t", REWARDS_STAGE: "pr-42" }).stage).toBe("pr-42");
    expect(createWorkerDeps({ TABLE_NAME: "t" }).stage).toBe("local");
    // What CloudWatch would refuse as a dimension value (and so drop the metrics) stops the function at start.
    expect(() => readWorkerConfig({ TABLE_NAME: "t", REWARDS_STAGE: "   " })).toThrow(
      "invalid configuration: REWARDS_STAGE must be printable ASCII, not only spaces (a CloudWatch dimension value)",
    );
    expect(() => readWorkerConfig({ TABLE_NAME: "t", REWARDS_STAGE: "prød" })).toThrow(
      "invalid configuration: REWARDS_STAGE must be printable ASCII, not only spaces (a CloudWatch dimension value)",
    );
    expect(() => readWorkerConfig({ TABLE_NAME: "t", REWARDS_STAGE: "s".repeat(1025) })).toThrow(
      "invalid configuration: REWARDS_STAGE must be at most 1,024 characters (a CloudWatch dimension value)",
    );
    expect(readWorkerConfig({ TABLE_NAME: "t", REWARDS_STAGE: "s".repeat(1024) }).REWARDS_STAGE).toHaveLength(
      1024,
    );
  });

  it("names every bad variable at once", () => {
    let error: unknown;
    try {
      readWorkerConfig({ DLQ_URL: "not a url", REWARDS_CONCURRENCY: "ten", LOG_LEVEL: "loud" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.variable).sort()).toEqual([
      "DLQ_URL",
      "LOG_LEVEL",
      "REWARDS_CONCURRENCY",
      "TABLE_NAME",
    ]);
    expect((error as ConfigError).message).toContain("TABLE_NAME is required");
    expect((error as ConfigError).message).toContain("DLQ_URL must be a URL");
  });

  it("rejects a concurrency that is not a positive whole number", () => {
    expect(() => readWorkerConfig({ TABLE_NAME: "t", REWARDS_CONCURRENCY: "0" })).toThrow(
      /REWARDS_CONCURRENCY must be at least 1/,
    );
    expect(() => readWorkerConfig({ TABLE_NAME: "t", REWARDS_CONCURRENCY: "2.5" })).toThrow(
      /REWARDS_CONCURRENCY must be a whole number/,
    );
    expect(() => readWorkerConfig({ TABLE_NAME: "t", REWARDS_CONCURRENCY: "1001" })).toThrow(
      "invalid configuration: REWARDS_CONCURRENCY must be at most 1000",
    );
    expect(readWorkerConfig({ TABLE_NAME: "t", REWARDS_CONCURRENCY: "1000" }).REWARDS_CONCURRENCY).toBe(1000);
  });

  it("logs at LOG_LEVEL in any spelling, else at Lambda's AWS_LAMBDA_LOG_LEVEL, else at info", () => {
    const levelOf = (env: Record<string, string>) =>
      createWorkerDeps({ TABLE_NAME: "t", ...env }).logger.level;
    expect(levelOf({ LOG_LEVEL: "DEBUG" })).toBe("debug");
    expect(levelOf({ AWS_LAMBDA_LOG_LEVEL: "WARN" })).toBe("warn");
    expect(levelOf({ LOG_LEVEL: "error", AWS_LAMBDA_LOG_LEVEL: "DEBUG" })).toBe("error");
    expect(levelOf({ LOG_LEVEL: "CRITICAL" })).toBe("fatal");
    expect(levelOf({})).toBe("info");
    expect(createWorkerDeps({ TABLE_NAME: "t" }).logger.bindings()).toEqual({ name: "rewards-worker" });
  });
});
