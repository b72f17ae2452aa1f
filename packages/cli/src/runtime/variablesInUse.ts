/**
 * The variables the running command required (commandConfig records them), so a failure
 * names the one a value came from: a queue that does not exist is GRANTS_QUEUE_URL's for
 * `grants tail`, not QUEUE_URL's. No imports: the error path loads it at every start.
 */
const inUse = new Set<string>();

export function useVariables(names: readonly string[]): void {
  for (const name of names) inUse.add(name);
}

export function variablesInUse(): readonly string[] {
  return [...inUse];
}
