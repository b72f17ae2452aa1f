import { describe, expect, it } from "vitest";
import { InvalidReaderOption, type ReaderOptionName } from "../src/invalidReaderOption";
import { type ReaderOptions, validateReaderOptions } from "../src/readerOptions";

function refusal(options: unknown): unknown {
  try {
    validateReaderOptions(options as ReaderOptions);
  } catch (error) {
    return error;
  }
  return undefined;
}

function expectRefused(options: unknown, option: ReaderOptionName, message: string) {
  const error = refusal(options);
  expect(error).toBeInstanceOf(InvalidReaderOption);
  expect(error).toBeInstanceOf(RangeError);
  expect(error).toMatchObject({ name: "InvalidReaderOption", option, message });
}

describe("createReader's options: InvalidReaderOption naming the option and quoting the value", () => {
  it("dailyCap: what the deploy outputs, 0 for no cap, is taken as no cap", () => {
    const shards = { boardShards: 32, rulesRefreshSeconds: 30 };
    expect(validateReaderOptions({ tableName: "t", dailyCap: 0 })).toEqual({
      dailyCap: undefined,
      ...shards,
    });
    expect(validateReaderOptions({ tableName: "t" })).toEqual({ dailyCap: undefined, ...shards });
    expect(validateReaderOptions({ tableName: "t", dailyCap: 1 })).toEqual({ dailyCap: 1, ...shards });
    expect(validateReaderOptions({ tableName: "t", dailyCap: 150 })).toEqual({ dailyCap: 150, ...shards });
  });

  it("boardShards: the writer's, 1 to 1,000, 32 when absent; anything else refused, quoted", () => {
    expect(validateReaderOptions({ tableName: "t", boardShards: 1 }).boardShards).toBe(1);
    expect(validateReaderOptions({ tableName: "t", boardShards: 1000 }).boardShards).toBe(1000);
    for (const [boardShards, shown] of [
      [0, "0"],
      [1001, "1001"],
      [2.5, "2.5"],
      ["32", '"32"'],
    ] as const)
      expectRefused(
        { tableName: "t", boardShards },
        "boardShards",
        `boardShards: a whole number from 1 to 1,000 (the deploy output boardShards), not ${shown}`,
      );
  });

  it.each([
    ["50", '"50"'],
    ["0", '"0"'],
    [-1, "-1"],
    [2.5, "2.5"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [null, "null"],
    [{ cap: 50 }, "an object"],
  ])("dailyCap %j is refused: not %s", (dailyCap, shown) => {
    expectRefused(
      { tableName: "t", dailyCap },
      "dailyCap",
      `dailyCap: a whole number of XP, 0 or absent for no cap (the deploy output dailyXpCap), not ${shown}`,
    );
  });

  it("tableName, clock and the options themselves", () => {
    expectRefused({}, "tableName", "tableName: the table's name is required, not undefined");
    expectRefused({ tableName: "" }, "tableName", 'tableName: the table\'s name is required, not ""');
    expectRefused({ tableName: 7 }, "tableName", "tableName: the table's name is required, not 7");
    expectRefused({ tableName: "t", clock: "now" }, "clock", 'clock: a function returning a Date, not "now"');
    expectRefused(null, "options", "options: an object is required, not null");
    expectRefused("t", "options", 'options: an object is required, not "t"');
  });
});
