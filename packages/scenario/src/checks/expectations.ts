import { readFile, writeFile } from "node:fs/promises";
import { OperationError } from "@rewards/ops";
import { z } from "zod";

const count = () => z.number({ error: "expected a number" }).int("expected a whole number");

/**
 * What `rewards load --expect FILE` writes and `rewards verify --expect FILE` reads (README,
 * "The expectation file"): only `users` is compared, and only it is required.
 */
const expectationSchema = z.object({
  /** Each user's expected XP. */
  users: z.record(z.string(), count().min(0, "expected a whole number of at least 0"), {
    error: (issue) => (issue.input === undefined ? "is required" : "expected an object of user id to XP"),
  }),
  /** What `load` sent, for the record. */
  seed: count().optional(),
  events: count().optional(),
  uniqueIntents: count().optional(),
  duplicates: count().optional(),
  invalid: count().optional(),
  stale: count().optional(),
});

export type Expectation = z.infer<typeof expectationSchema>;

export async function writeExpectation(path: string, expectation: Expectation): Promise<void> {
  await writeFile(path, `${JSON.stringify(expectation, null, 2)}\n`);
}

export async function readExpectation(path: string): Promise<Expectation> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new OperationError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new OperationError(`${path} is not JSON`);
  }
  const parsed = expectationSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "the file"} ${issue.message}`,
    );
    throw new OperationError(`${path} is not an expectation file: ${problems.join("; ")}`);
  }
  return parsed.data;
}
