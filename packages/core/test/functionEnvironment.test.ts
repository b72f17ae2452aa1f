import { describe, expect, it } from "vitest";
import { announcerEnvironment, resources, workerEnvironment } from "../src/deploy";

describe("the functions' environments", () => {
  it("give the worker its table, DLQ, concurrency and log level, with the deployment's defaults", () => {
    expect(workerEnvironment({ tableName: "t", dlqUrl: "d" })).toEqual({
      TABLE_NAME: "t",
      DLQ_URL: "d",
      REWARDS_CONCURRENCY: String(resources.worker.concurrency),
      LOG_LEVEL: "info",
    });
    expect(workerEnvironment({ tableName: "t", dlqUrl: "d" }, { concurrency: 3, logLevel: "debug" })).toEqual(
      {
        TABLE_NAME: "t",
        DLQ_URL: "d",
        REWARDS_CONCURRENCY: "3",
        LOG_LEVEL: "debug",
      },
    );
  });

  it("give the announcer its bus and log level", () => {
    expect(announcerEnvironment({ busName: "b" })).toEqual({ BUS_NAME: "b", LOG_LEVEL: "info" });
    expect(announcerEnvironment({ busName: "b" }, { logLevel: "warn" })).toEqual({
      BUS_NAME: "b",
      LOG_LEVEL: "warn",
    });
  });
});
