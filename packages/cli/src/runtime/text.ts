import Table from "cli-table3";

/** Rows as a table for people (ending in a newline); `--json` prints jsonText instead, never both. */
export function tableText(rows: ReadonlyArray<Record<string, unknown>>, columns?: string[]): string {
  const head = columns ?? Object.keys(rows[0] ?? {});
  const table = new Table({ head, style: { head: [], border: [] } });
  for (const row of rows) table.push(head.map((column) => formatCell(row[column])));
  return `${table.toString()}\n`;
}

/** A two-column table of names and values (ending in a newline). */
export function pairsText(pairs: Record<string, unknown>): string {
  const table = new Table({ style: { head: [], border: [] } });
  for (const [key, value] of Object.entries(pairs)) table.push({ [key]: formatCell(value) });
  return `${table.toString()}\n`;
}

/** What `--json` prints: the value indented, ending in a newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function formatCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
