import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src";

describe("loadConfig", () => {
  it("applies SPEC §6 defaults", () => {
    expect(loadConfig({ TABLE_NAME: "t" }, ["TABLE_NAME"])).toEqual({
      TABLE_NAME: "t",
      AWS_REGION: "us-east-1",
      LOG_LEVEL: "info",
      REWARDS_CONCURRENCY: 10,
    });
  });

  it("names every bad variable in one error", () => {
    let error: unknown;
    try {
      loadConfig({ QUEUE_URL: "not a url", REWARDS_CONCURRENCY: "ten", LOG_LEVEL: "loud", TABLE_NAME: "" }, [
        "TABLE_NAME",
      ]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems.map((p) => p.variable).sort()).toEqual([
      "LOG_LEVEL",
      "QUEUE_URL",
      "REWARDS_CONCURRENCY",
      "TABLE_NAME",
    ]);
    expect(message).toMatch(/^invalid configuration: /);
    expect(message).toContain("QUEUE_URL must be a URL");
    expect(message).toContain("TABLE_NAME is required");
  });

  it("rejects a concurrency that is not a positive whole number", () => {
    expect(() => loadConfig({ REWARDS_CONCURRENCY: "0" })).toThrow(/REWARDS_CONCURRENCY must be at least 1/);
    expect(() => loadConfig({ REWARDS_CONCURRENCY: "2.5" })).toThrow(
      /REWARDS_CONCURRENCY must be a whole number/,
    );
  });
});
