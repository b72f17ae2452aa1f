import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, logLevelSchema, readConfig, requiredText, sdkVariables, urlVariable } from "../src";

const schema = z.object({
  TABLE_NAME: requiredText().min(1, "must not be empty"),
  QUEUE_URL: urlVariable().optional(),
  ...sdkVariables,
  LOG_LEVEL: logLevelSchema.default("info"),
});

describe("readConfig", () => {
  it("reads only the schema's variables, with their defaults", () => {
    expect(readConfig(schema, { TABLE_NAME: "t", UNRELATED: "x", REWARDS_CONCURRENCY: "0" })).toEqual({
      TABLE_NAME: "t",
      AWS_REGION: "us-east-1",
      LOG_LEVEL: "info",
    });
  });

  it("names every bad variable in one error", () => {
    let error: unknown;
    try {
      readConfig(schema, { QUEUE_URL: "not a url", LOG_LEVEL: "loud", TABLE_NAME: "" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems.map((p) => p.variable).sort()).toEqual(["LOG_LEVEL", "QUEUE_URL", "TABLE_NAME"]);
    expect(message).toMatch(/^invalid configuration: /);
    expect(message).toContain("QUEUE_URL must be a URL");
    expect(message).toContain("TABLE_NAME is required");
  });

  it("a caller can require an optional variable", () => {
    expect(() => readConfig(schema, { TABLE_NAME: "t" }, ["QUEUE_URL"])).toThrow(
      "invalid configuration: QUEUE_URL is required",
    );
  });
});

describe("LOG_LEVEL", () => {
  it.each([
    ["TRACE", "trace"],
    ["debug", "debug"],
    ["INFO", "info"],
    ["Warn", "warn"],
    ["WARNING", "warn"],
    ["warning", "warn"],
    ["ERROR", "error"],
    ["CRITICAL", "fatal"],
    ["FATAL", "fatal"],
    ["SILENT", "silent"],
  ])("%s means pino's %s", (spelled, level) => {
    expect(logLevelSchema.parse(spelled)).toBe(level);
  });

  it("anything else names the spellings it takes", () => {
    expect(() => readConfig(schema, { TABLE_NAME: "t", LOG_LEVEL: "loud" })).toThrow(
      "LOG_LEVEL must be one of TRACE, DEBUG, INFO, WARN (or WARNING), ERROR, CRITICAL (or FATAL), SILENT, in any case",
    );
  });
});
