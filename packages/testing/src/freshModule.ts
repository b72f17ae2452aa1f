import { vi } from "vitest";

/**
 * A module loaded afresh for the test that asks: `vi.resetModules()`, then `load()`. A
 * mutation run switches a module-level constant (a schema, a table of codes, a pattern) only
 * while its module loads, so a test that judges such a constant loads its own copy in the
 * test, not once at the top of the file. Outside a mutation run it is the same module.
 */
export async function freshModule<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}
