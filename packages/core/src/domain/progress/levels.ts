/**
 * Levels (docs/reading.md#levels): level 1 from 0 XP; level n+1 from these totals, then every
 * LEVEL_STEP more. Pure.
 */
export const LEVEL_FLOORS = [0, 100, 250, 500, 1000, 2000, 3500, 5500, 8000, 11000] as const;
/** XP between two levels past the table's last floor. */
export const LEVEL_STEP = 4000;

export interface Level {
  /** 1, 2, … */
  level: number;
  /** The XP this level starts at. */
  xpFloor: number;
  /** The XP the next level starts at. */
  xpNext: number;
}

/** The XP level `level` (1, 2, …) starts at. */
export function levelFloor(level: number): number {
  const last = LEVEL_FLOORS.length;
  if (level <= last) return LEVEL_FLOORS[level - 1] as number;
  return (LEVEL_FLOORS[last - 1] as number) + (level - last) * LEVEL_STEP;
}

/** The level a total of `xp` reaches; a total below 0 (never paid so) is level 1. */
export function levelOf(xp: number): Level {
  const last = LEVEL_FLOORS.length;
  const top = LEVEL_FLOORS[last - 1] as number;
  let level: number;
  if (xp >= top) level = last + Math.floor((xp - top) / LEVEL_STEP);
  else {
    level = 1;
    while (level < last && levelFloor(level + 1) <= xp) level += 1;
  }
  return { level, xpFloor: levelFloor(level), xpNext: levelFloor(level + 1) };
}
