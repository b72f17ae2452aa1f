import { describe, expect, it } from "vitest";
import {
  announcerEnvironment,
  historyEnvironment,
  readApiEnvironment,
  resources,
  workerEnvironment,
} from "../src/deploy";

describe("the functions' environments", () => {
  it("give the worker its table, DLQ, stage, concurrency and log level, with the deployment's defaults", () => {
    expect(workerEnvironment({ tableName: "t", dlqUrl: "d" }, { stage: "prod" })).toEqual({
      TABLE_NAME: "t",
      DLQ_URL: "d",
      REWARDS_STAGE: "prod",
      REWARDS_CONCURRENCY: String(resources.worker.concurrency),
      LOG_LEVEL: "info",
      REWARDS_RULES_REFRESH_SECONDS: "30",
    });
    expect(
      workerEnvironment(
        { tableName: "t", dlqUrl: "d" },
        { stage: "pr-42", concurrency: 3, logLevel: "debug", rulesRefreshSeconds: 2 },
      ),
    ).toEqual({
      TABLE_NAME: "t",
      DLQ_URL: "d",
      REWARDS_STAGE: "pr-42",
      REWARDS_CONCURRENCY: "3",
      LOG_LEVEL: "debug",
      REWARDS_RULES_REFRESH_SECONDS: "2",
    });
  });

  it("give the worker the daily cap only when there is one (unset: no variable at all)", () => {
    expect(workerEnvironment({ tableName: "t", dlqUrl: "d" }, { stage: "s", dailyCap: 150 })).toMatchObject({
      REWARDS_DAILY_XP_CAP: "150",
    });
    expect(workerEnvironment({ tableName: "t", dlqUrl: "d" }, { stage: "s" })).not.toHaveProperty(
      "REWARDS_DAILY_XP_CAP",
    );
  });

  it("give the announcer its bus, stage and log level", () => {
    expect(announcerEnvironment({ busName: "b" }, { stage: "prod" })).toEqual({
      BUS_NAME: "b",
      REWARDS_STAGE: "prod",
      LOG_LEVEL: "info",
    });
    expect(announcerEnvironment({ busName: "b" }, { stage: "dev", logLevel: "warn" })).toEqual({
      BUS_NAME: "b",
      REWARDS_STAGE: "dev",
      LOG_LEVEL: "warn",
    });
  });

  it("give the history writer its table, stage, retention (400 days unless set), the board's weeks (8) and shards (32), and log level", () => {
    expect(historyEnvironment({ tableName: "t" }, { stage: "prod" })).toEqual({
      TABLE_NAME: "t",
      REWARDS_STAGE: "prod",
      REWARDS_HISTORY_DAYS: "400",
      REWARDS_BOARD_WEEKS: "8",
      REWARDS_BOARD_SHARDS: "32",
      REWARDS_RULES_REFRESH_SECONDS: "30",
      LOG_LEVEL: "info",
    });
    expect(
      historyEnvironment(
        { tableName: "t" },
        { stage: "dev", historyDays: 0, boardWeeks: 3, boardShards: 7, logLevel: "warn" },
      ),
    ).toEqual({
      TABLE_NAME: "t",
      REWARDS_STAGE: "dev",
      REWARDS_HISTORY_DAYS: "0",
      REWARDS_BOARD_WEEKS: "3",
      REWARDS_BOARD_SHARDS: "7",
      REWARDS_RULES_REFRESH_SECONDS: "30",
      LOG_LEVEL: "warn",
    });
  });

  it("give the read API its table, stage, log level, the board's shards (the writer's), and the worker's cap only when there is one", () => {
    expect(readApiEnvironment({ tableName: "t" }, { stage: "prod" })).toEqual({
      TABLE_NAME: "t",
      REWARDS_STAGE: "prod",
      LOG_LEVEL: "info",
      REWARDS_BOARD_SHARDS: "32",
      REWARDS_RULES_REFRESH_SECONDS: "30",
    });
    expect(
      readApiEnvironment(
        { tableName: "t" },
        { stage: "dev", dailyCap: 150, logLevel: "debug", boardShards: 7 },
      ),
    ).toEqual({
      TABLE_NAME: "t",
      REWARDS_STAGE: "dev",
      LOG_LEVEL: "debug",
      REWARDS_BOARD_SHARDS: "7",
      REWARDS_RULES_REFRESH_SECONDS: "30",
      REWARDS_DAILY_XP_CAP: "150",
    });
  });
});
