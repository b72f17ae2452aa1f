/**
 * The subset of EventBridge's and Lambda's filter-pattern syntax this system uses: nested
 * fields, each ending in a list of which one must match: an exact string, or `{ prefix }`
 * (a string that begins with it). (A Lambda event filter and an EventBridge rule are written
 * in the same syntax.)
 */
export type PatternValue = string | { readonly prefix: string };
export type EventPattern = { readonly [field: string]: EventPattern | readonly PatternValue[] };

const matchesValue = (actual: unknown, expected: PatternValue): boolean =>
  typeof expected === "string"
    ? actual === expected
    : typeof actual === "string" && actual.startsWith(expected.prefix);

/** Whether `value` matches `pattern`. Pure. */
export function matchesPattern(value: unknown, pattern: EventPattern): boolean {
  return Object.entries(pattern).every(([field, expected]) => {
    const actual = (value as Record<string, unknown> | undefined)?.[field];
    if (Array.isArray(expected))
      return (expected as readonly PatternValue[]).some((each) => matchesValue(actual, each));
    return matchesPattern(actual, expected as EventPattern);
  });
}

/**
 * Whether `value` matches any of `patterns`: an event source mapping's filters, which Lambda
 * ORs (a record that matches one of them is delivered). Pure.
 */
export const matchesAnyPattern = (value: unknown, patterns: readonly EventPattern[]): boolean =>
  patterns.some((pattern) => matchesPattern(value, pattern));
