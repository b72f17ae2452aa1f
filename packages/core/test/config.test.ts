import { freshModule } from "@rewards/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type * as Config from "../src/deploy/config";

// Loaded afresh in each test (@rewards/testing freshModule): its level names and schemas are module-level constants.
let ConfigError: typeof Config.ConfigError;
let logLevelSchema: typeof Config.logLevelSchema;
let readConfig: typeof Config.readConfig;
let requiredText: typeof Config.requiredText;
let sdkVariables: typeof Config.sdkVariables;
let urlVariable: typeof Config.urlVariable;
beforeEach(async () => {
  ({ ConfigError, logLevelSchema, readConfig, requiredText, sdkVariables, urlVariable } = await freshModule(
    () => import("../src/deploy/config"),
  ));
});

// Built inside each test: a schema helper that cannot build fails a test, not the whole file.
const schema = () =>
  z.object({
    TABLE_NAME: requiredText(),
    QUEUE_URL: urlVariable().optional(),
    ...sdkVariables,
    LOG_LEVEL: logLevelSchema.default("info"),
  });

describe("readConfig", () => {
  it("reads only the schema's variables, with their defaults", () => {
    expect(readConfig(schema(), { TABLE_NAME: "t", UNRELATED: "x", REWARDS_CONCURRENCY: "0" })).toEqual({
      TABLE_NAME: "t",
      AWS_REGION: "us-east-1",
      LOG_LEVEL: "info",
    });
  });

  it("names every bad variable in one error", () => {
    let error: unknown;
    try {
      readConfig(schema(), { QUEUE_URL: "not a url", LOG_LEVEL: "loud", TABLE_NAME: "" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as Config.ConfigError;
    expect(problems.map((p) => p.variable).sort()).toEqual(["LOG_LEVEL", "QUEUE_URL", "TABLE_NAME"]);
    expect(message).toMatch(/^invalid configuration: /);
    expect(message).toContain("QUEUE_URL must be a URL");
    expect(message).toContain("TABLE_NAME is required");
  });

  it("an empty value counts as unset", () => {
    expect(readConfig(schema(), { TABLE_NAME: "t", QUEUE_URL: "", LOG_LEVEL: "" })).toEqual({
      TABLE_NAME: "t",
      AWS_REGION: "us-east-1",
      LOG_LEVEL: "info",
    });
  });

  it("a required variable that is present but bad, or required twice, is named once", () => {
    const problems = (env: Record<string, string>, required: Array<"QUEUE_URL" | "TABLE_NAME">) => {
      try {
        readConfig(schema(), env, required);
        return [];
      } catch (error) {
        return (error as Config.ConfigError).problems;
      }
    };
    expect(problems({ TABLE_NAME: "t", QUEUE_URL: "bad" }, ["QUEUE_URL"])).toEqual([
      { variable: "QUEUE_URL", problem: "must be a URL" },
    ]);
    expect(problems({}, ["TABLE_NAME"])).toEqual([{ variable: "TABLE_NAME", problem: "is required" }]);
    expect(problems({ TABLE_NAME: "t", LOG_LEVEL: "loud" }, ["QUEUE_URL"]).map((p) => p.variable)).toEqual([
      "LOG_LEVEL",
      "QUEUE_URL",
    ]);
    expect(problems({ TABLE_NAME: "t", QUEUE_URL: "https://q" }, ["QUEUE_URL", "TABLE_NAME"])).toEqual([]);
  });

  it("a caller can require an optional variable", () => {
    expect(() => readConfig(schema(), { TABLE_NAME: "t" }, ["QUEUE_URL"])).toThrow(
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
    expect(() => readConfig(schema(), { TABLE_NAME: "t", LOG_LEVEL: "loud" })).toThrow(
      "LOG_LEVEL must be one of TRACE, DEBUG, INFO, WARN (or WARNING), ERROR, CRITICAL (or FATAL), SILENT, in any case",
    );
  });
});
