import { readFile, writeFile } from "node:fs/promises";
import { z } from "zod";
import { CliError } from "./cliError";

/** What `rewards load --expect FILE` writes and `rewards verify --expect FILE` reads. */
const expectationSchema = z.object({
  seed: z.number(),
  events: z.number().int(),
  uniqueIntents: z.number().int(),
  /** What was sent besides unique intents (absent in files from older versions). */
  duplicates: z.number().int().optional(),
  invalid: z.number().int().optional(),
  stale: z.number().int().optional(),
  users: z.record(z.string(), z.number().int()),
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
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not JSON`);
  }
  const parsed = expectationSchema.safeParse(json);
  if (!parsed.success)
    throw new CliError(`${path} is not an expectation file: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
