import { describe, expect, it } from "vitest";
import {
  announcerEnvironment,
  historyEnvironment,
  readApiEnvironment,
  resources,
  workerEnvironment,
} from "../src/deploy";

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

  it("give the worker the daily cap only when there is one (unset: no variable at all)", () => {
    expect(workerEnvironment({ tableName: "t", dlqUrl: "d" }, { dailyCap: 150 })).toMatchObject({
      REWARDS_DAILY_XP_CAP: "150",
    });
    expect(workerEnvironment({ tableName: "t", dlqUrl: "d" })).not.toHaveProperty("REWARDS_DAILY_XP_CAP");
  });

  it("give the announcer its bus and log level", () => {
    expect(announcerEnvironment({ busName: "b" })).toEqual({ BUS_NAME: "b", LOG_LEVEL: "info" });
    expect(announcerEnvironment({ busName: "b" }, { logLevel: "warn" })).toEqual({
      BUS_NAME: "b",
      LOG_LEVEL: "warn",
    });
  });

  it("give the history writer its table, retention (400 days unless set), the board's weeks (8) and shards (32), and log level", () => {
    expect(historyEnvironment({ tableName: "t" })).toEqual({
      TABLE_NAME: "t",
      REWARDS_HISTORY_DAYS: "400",
      REWARDS_BOARD_WEEKS: "8",
      REWARDS_BOARD_SHARDS: "32",
      LOG_LEVEL: "info",
    });
    expect(
      historyEnvironment(
        { tableName: "t" },
        { historyDays: 0, boardWeeks: 3, boardShards: 7, logLevel: "warn" },
      ),
    ).toEqual({
      TABLE_NAME: "t",
      REWARDS_HISTORY_DAYS: "0",
      REWARDS_BOARD_WEEKS: "3",
      REWARDS_BOARD_SHARDS: "7",
      LOG_LEVEL: "warn",
    });
  });

  it("give the read API its table, log level, the board's shards (the writer's), and the worker's cap only when there is one", () => {
    expect(readApiEnvironment({ tableName: "t" })).toEqual({
      TABLE_NAME: "t",
      LOG_LEVEL: "info",
      REWARDS_BOARD_SHARDS: "32",
    });
    expect(
      readApiEnvironment({ tableName: "t" }, { dailyCap: 150, logLevel: "debug", boardShards: 7 }),
    ).toEqual({
      TABLE_NAME: "t",
      LOG_LEVEL: "debug",
      REWARDS_BOARD_SHARDS: "7",
      REWARDS_DAILY_XP_CAP: "150",
    });
  });
});
