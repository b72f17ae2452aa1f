import { InvalidArgumentError } from "commander";

/** Commander argument parsers: a bad value is a usage error (exit 2) naming the option. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `expected a whole number of at least ${min}`
          : `expected a whole number from ${min} to ${max.toLocaleString("en")}`,
      );
    return n;
  };
}

export function ratio(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError("expected a ratio from 0 to 1, e.g. 0.25");
  return n;
}

/** `500` or `500/s`. */
export function rate(value: string): number {
  const n = Number(value.replace(/\/s$/, ""));
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected events per second, e.g. 500/s");
  return n;
}
