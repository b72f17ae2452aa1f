import { isEventType, rules } from "../rules/rules";

/**
 * The daily cap's arithmetic (docs/awards.md#the-daily-cap), in one place: the worker pays by
 * it, the reader shows what is left by it, the DLQ's replay verdicts and the scenario's
 * expectations predict by it.
 */

/** What is left of a day's cap after `dayXp`: never below 0 (a cap lowered below the day's total leaves none). */
export function capRoom(dailyCap: number, dayXp: number): number {
  return Math.max(0, dailyCap - dayXp);
}

/** What an award asking `amount` pays on a day whose total is `dayXp` so far: all of it without a cap. */
export function paidUnderCap(amount: number, dayXp: number, dailyCap: number | undefined): number {
  return dailyCap === undefined ? amount : Math.min(amount, capRoom(dailyCap, dayXp));
}

/** Whether an award of `type` counts toward its day under a cap; a type no rule names (one retired since) counts. */
export function countsTowardCap(type: string): boolean {
  return isEventType(type) ? rules[type].dailyCapped : true;
}
