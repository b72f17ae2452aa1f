import Table from "cli-table3";

/** Prints either JSON (for scripts, `--json`) or a table for people, never both. */
export function printTable(rows: ReadonlyArray<Record<string, unknown>>, columns?: string[]): void {
  const head = columns ?? Object.keys(rows[0] ?? {});
  const table = new Table({ head, style: { head: [], border: [] } });
  for (const row of rows) table.push(head.map((column) => formatCell(row[column])));
  process.stdout.write(`${table.toString()}\n`);
}

export function printPairs(pairs: Record<string, unknown>): void {
  const table = new Table({ style: { head: [], border: [] } });
  for (const [key, value] of Object.entries(pairs)) table.push({ [key]: formatCell(value) });
  process.stdout.write(`${table.toString()}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function formatCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** `1 user`, `2 users`, `0 users`. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
