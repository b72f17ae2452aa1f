import Table from "cli-table3";

/** Prints either JSON (for scripts, `--json`) or a table for people, never both. */
export function printTable(rows: ReadonlyArray<Record<string, unknown>>, columns?: string[]): void {
  process.stdout.write(tableText(rows, columns));
}

/** The table printTable prints, as text (ending in a newline). */
export function tableText(rows: ReadonlyArray<Record<string, unknown>>, columns?: string[]): string {
  const head = columns ?? Object.keys(rows[0] ?? {});
  const table = new Table({ head, style: { head: [], border: [] } });
  for (const row of rows) table.push(head.map((column) => formatCell(row[column])));
  return `${table.toString()}\n`;
}

/**
 * Writes `text` to a stream and resolves once it has been handed to the operating system
 * (flushed), so that what a command deletes next was shown first.
 */
export function writeFlushed(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text === "") return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

export function printPairs(pairs: Record<string, unknown>): void {
  process.stdout.write(pairsText(pairs));
}

/** The two-column table printPairs prints, as text (ending in a newline). */
export function pairsText(pairs: Record<string, unknown>): string {
  const table = new Table({ style: { head: [], border: [] } });
  for (const [key, value] of Object.entries(pairs)) table.push({ [key]: formatCell(value) });
  return `${table.toString()}\n`;
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
