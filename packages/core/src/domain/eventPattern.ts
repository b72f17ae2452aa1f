/**
 * The subset of EventBridge's and Lambda's filter-pattern syntax this system uses: nested
 * fields, each ending in a list of exact strings of which one must match. (A Lambda event
 * filter and an EventBridge rule are written in the same syntax.)
 */
export type EventPattern = { readonly [field: string]: EventPattern | readonly string[] };

/** Whether `value` matches `pattern`. Pure. */
export function matchesPattern(value: unknown, pattern: EventPattern): boolean {
  return Object.entries(pattern).every(([field, expected]) => {
    const actual = (value as Record<string, unknown> | undefined)?.[field];
    // Only a string can equal one of the pattern's strings: no type check needed.
    if (Array.isArray(expected)) return (expected as readonly unknown[]).includes(actual);
    return matchesPattern(actual, expected as EventPattern);
  });
}
