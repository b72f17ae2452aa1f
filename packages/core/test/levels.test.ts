import { freshModule } from "@rewards/testing";
import { describe, expect, it } from "vitest";

const load = () => freshModule(() => import("../src/domain/progress/levels"));

describe("levelOf (docs/reading.md#levels): level n+1 from 100, 250, 500, 1000, 2000, 3500, 5500, 8000, 11000, then every 4000", () => {
  // Every boundary: the last XP of a level, and the first of the next.
  const table: [xp: number, level: number, xpFloor: number, xpNext: number][] = [
    [-5, 1, 0, 100],
    [0, 1, 0, 100],
    [99, 1, 0, 100],
    [100, 2, 100, 250],
    [249, 2, 100, 250],
    [250, 3, 250, 500],
    [499, 3, 250, 500],
    [500, 4, 500, 1000],
    [999, 4, 500, 1000],
    [1000, 5, 1000, 2000],
    [1999, 5, 1000, 2000],
    [2000, 6, 2000, 3500],
    [3499, 6, 2000, 3500],
    [3500, 7, 3500, 5500],
    [5499, 7, 3500, 5500],
    [5500, 8, 5500, 8000],
    [7999, 8, 5500, 8000],
    [8000, 9, 8000, 11000],
    [10999, 9, 8000, 11000],
    [11000, 10, 11000, 15000],
    [14999, 10, 11000, 15000],
    [15000, 11, 15000, 19000],
    [18999, 11, 15000, 19000],
    [19000, 12, 19000, 23000],
    [411000, 110, 411000, 415000],
  ];
  it.each(table)("%i XP is level %i (from %i, next at %i)", async (xp, level, xpFloor, xpNext) => {
    const { levelOf } = await load();
    expect(levelOf(xp)).toEqual({ level, xpFloor, xpNext });
  });

  it("the floors are the table's, then 4000 apart", async () => {
    const { levelFloor, LEVEL_FLOORS, LEVEL_STEP } = await load();
    expect([...LEVEL_FLOORS]).toEqual([0, 100, 250, 500, 1000, 2000, 3500, 5500, 8000, 11000]);
    expect(LEVEL_STEP).toBe(4000);
    expect([1, 2, 10, 11, 12, 13].map(levelFloor)).toEqual([0, 100, 11000, 15000, 19000, 23000]);
  });
});
