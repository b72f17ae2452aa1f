import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { deploySettings } from "../deploySettings";
import { all, HISTORY, named, one, roleStatements } from "./helpers";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

/**
 * The weekly board's part of the program: production with neither setting, and production
 * whose settings file sets both (so a value can only have come from the stage's setting).
 */
let run: ProgramRun;
let set: ProgramRun;

beforeAll(async () => {
  run = await runSstProgram("production");
  const dir = await mkdtemp(join(tmpdir(), "rewards-board-"));
  const file = join(dir, "production.json");
  await writeFile(file, JSON.stringify({ REWARDS_BOARD_WEEKS: 3, REWARDS_BOARD_SHARDS: "64" }));
  set = await runSstProgram("production", { REWARDS_STAGE_SETTINGS: file });
});

const READ_API = "ReadApiFunction";
const variablesOf = (r: ProgramRun, prefix: string) =>
  (
    named(r, "aws:lambda/function:Function", prefix).inputs.environment as {
      variables: Record<string, string>;
    }
  ).variables;
/** Every function's value of `name`, for the ones that have it, by function. */
const holders = (r: ProgramRun, name: string) =>
  Object.fromEntries(
    all(r, "aws:lambda/function:Function").flatMap((fn) => {
      const value = (fn.inputs.environment as { variables: Record<string, string> }).variables[name];
      return value === undefined ? [] : [[fn.name, value]];
    }),
  );

describe("the weekly board", () => {
  it("the table has one global index, board: boardPk / boardSk, both strings, keys only", () => {
    const table = one(run, "aws:dynamodb/table:Table").inputs;
    expect(table.globalSecondaryIndexes).toEqual([
      { name: "board", hashKey: "boardPk", rangeKey: "boardSk", projectionType: "KEYS_ONLY" },
    ]);
    // Its keys are declared (an index's keys must be), and nothing is declared beyond the keys.
    expect(table.attributes).toEqual([
      { name: "pk", type: "S" },
      { name: "sk", type: "S" },
      { name: "boardPk", type: "S" },
      { name: "boardSk", type: "S" },
    ]);
    expect(table.localSecondaryIndexes).toEqual([]);
  });

  it("REWARDS_BOARD_WEEKS reaches the history writer alone; unset, it is 8", () => {
    expect(holders(set, "REWARDS_BOARD_WEEKS")).toEqual({ RewardsSubscriberHistoryFunctionFunction: "3" });
    expect(holders(run, "REWARDS_BOARD_WEEKS")).toEqual({ RewardsSubscriberHistoryFunctionFunction: "8" });
  });

  it("REWARDS_BOARD_SHARDS reaches the history writer and the read API, the same value; unset, 32", () => {
    const both = (value: string) => ({
      RewardsSubscriberHistoryFunctionFunction: value,
      ReadApiFunction: value,
    });
    expect(holders(set, "REWARDS_BOARD_SHARDS")).toEqual(both("64"));
    expect(holders(run, "REWARDS_BOARD_SHARDS")).toEqual(both("32"));
    expect(variablesOf(set, HISTORY).REWARDS_BOARD_SHARDS).toBe(
      variablesOf(set, READ_API).REWARDS_BOARD_SHARDS,
    );
  });

  it("the outputs say both, the defaults when unset, so `rewards env` can export them", () => {
    expect(run.outputs).toMatchObject({ boardShards: 32, boardWeeks: 8 });
    expect(set.outputs).toMatchObject({ boardShards: 64, boardWeeks: 3 });
  });

  it("the history writer reads its week item (GetItem) on the table itself, nothing on the index, and no Query but the rules'", () => {
    const onTable = roleStatements(run, HISTORY).filter((s) =>
      s.Resource.some((r) => /Table\/RewardsTable$/.test(r)),
    );
    expect(onTable).toEqual([
      {
        Effect: "Allow",
        Action: ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:BatchGetItem", "dynamodb:GetItem"],
        Resource: [expect.stringMatching(/Table\/RewardsTable$/)],
      },
      {
        // Its one Query is of the rules' versions, by leading key: never a week's board on the table.
        Effect: "Allow",
        Action: ["dynamodb:GetItem", "dynamodb:Query"],
        Resource: [expect.stringMatching(/Table\/RewardsTable$/)],
        Condition: { "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": ["RULES"] } },
      },
    ]);
    expect(
      roleStatements(run, HISTORY)
        .flatMap((s) => s.Resource)
        .filter((r) => r.includes("/index/")),
    ).toEqual([]);
  });

  it("the read API queries the board index, by its exact ARN, and does nothing else on it", () => {
    const onIndex = roleStatements(run, "ReadApiRole").filter((s) =>
      s.Resource.some((r) => r.includes("/index/")),
    );
    expect(onIndex).toEqual([
      {
        Effect: "Allow",
        Action: ["dynamodb:Query"],
        Resource: [
          expect.stringMatching(/^arn:aws:mock:us-east-1:123456789012:Table\/RewardsTable\/index\/board$/),
        ],
      },
    ]);
  });

  it("REWARDS_BOARD_WEEKS: a whole number of weeks, 1 or more; anything else stops the deploy naming it", () => {
    expect(deploySettings({}).boardWeeks).toBeUndefined();
    expect(deploySettings({ REWARDS_BOARD_WEEKS: "1" }).boardWeeks).toBe(1);
    expect(deploySettings({ REWARDS_BOARD_WEEKS: "52" }).boardWeeks).toBe(52);
    for (const bad of ["0", "-1", "1.5", "two", " "]) {
      expect(() => deploySettings({ REWARDS_BOARD_WEEKS: bad })).toThrow(
        `invalid configuration: REWARDS_BOARD_WEEKS must be a whole number of weeks, 1 or more, not ${bad}`,
      );
    }
  });

  it("REWARDS_BOARD_SHARDS: a whole number from 1 to 1000; anything else stops the deploy naming it", () => {
    expect(deploySettings({}).boardShards).toBeUndefined();
    expect(deploySettings({ REWARDS_BOARD_SHARDS: "1" }).boardShards).toBe(1);
    expect(deploySettings({ REWARDS_BOARD_SHARDS: "1000" }).boardShards).toBe(1000);
    for (const bad of ["0", "1001", "2.5", "-3", "many", " "]) {
      expect(() => deploySettings({ REWARDS_BOARD_SHARDS: bad })).toThrow(
        `invalid configuration: REWARDS_BOARD_SHARDS must be a whole number from 1 to 1000, not ${bad}`,
      );
    }
  });
});
