/**
 * Adds the counts of a function's EMF metrics line (what CloudWatch reads on AWS) to
 * `totals`, for the names `totals` has. True when `line` was a metrics line.
 */
export function addEmfCounts<K extends string>(line: string, totals: Record<K, number>): boolean {
  if (!line.startsWith('{"_aws"')) return false;
  try {
    const metrics = JSON.parse(line) as Partial<Record<K, unknown>>;
    for (const name of Object.keys(totals) as K[]) {
      const count = metrics[name];
      if (typeof count === "number") totals[name] += count;
    }
    return true;
  } catch {
    return false;
  }
}
