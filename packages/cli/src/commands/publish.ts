import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createPublisher, type PublishResult } from "@rewards/producer";
import type { Command } from "commander";
import { CliError } from "../cliError";
import { clientsFor, commandConfig } from "../environment";
import { printJson } from "../output";

export interface LineResult {
  line: number;
  ok: boolean;
  messageId?: string;
  error?: string;
}

const SLICE = 500;

/** Publishes NDJSON lines in slices, so a large file never sits in memory whole. */
export async function publishLines(
  lines: AsyncIterable<string>,
  publish: (events: unknown[]) => Promise<PublishResult[]>,
): Promise<LineResult[]> {
  const results: LineResult[] = [];
  let pending: Array<{ line: number; event: unknown }> = [];
  const flush = async () => {
    const published = await publish(pending.map((p) => p.event));
    for (const [i, result] of published.entries()) {
      const line = pending[i]?.line ?? 0;
      results.push(
        result.ok
          ? { line, ok: true, messageId: result.messageId }
          : { line, ok: false, error: result.error },
      );
    }
    pending = [];
  };
  let number = 0;
  for await (const text of lines) {
    number++;
    if (text.trim() === "") continue;
    try {
      pending.push({ line: number, event: JSON.parse(text) });
    } catch (error) {
      results.push({ line: number, ok: false, error: `not JSON: ${(error as Error).message}` });
    }
    if (pending.length >= SLICE) await flush();
  }
  if (pending.length > 0) await flush();
  return results.sort((a, b) => a.line - b.line);
}

export function registerPublish(program: Command): void {
  program
    .command("publish")
    .description(
      "publish NDJSON events (one CloudEvent per line) to QUEUE_URL; bad lines are reported, good ones still sent",
    )
    .argument("[file]", "NDJSON file, or - for standard input", "-")
    .option("--source <source>", "CloudEvents source for events built by this command", "/rewards/cli")
    .option("--json", "print JSON")
    .action(async (file: string, options: { json?: boolean; source: string }) => {
      const config = commandConfig("QUEUE_URL");
      const { sqs } = clientsFor(config);
      const input = file === "-" ? process.stdin : createReadStream(file);
      const opened = new Promise<void>((resolve, reject) => {
        if (input === process.stdin) return resolve();
        input.once("open", () => resolve());
        input.once("error", (error: Error) => reject(new CliError(`cannot read ${file}: ${error.message}`)));
      });
      await opened;
      const publisher = createPublisher({ queueUrl: config.QUEUE_URL, client: sqs, source: options.source });
      const results = await publishLines(
        createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY }),
        (events) => publisher.publish(events),
      );
      const failed = results.filter((r) => !r.ok).length;
      if (options.json) printJson({ published: results.length - failed, failed, results });
      else {
        for (const r of results) {
          process.stdout.write(
            r.ok ? `line ${r.line}: ok ${r.messageId}\n` : `line ${r.line}: error ${r.error}\n`,
          );
        }
        process.stdout.write(`${results.length - failed} published, ${failed} failed\n`);
      }
      if (failed > 0) process.exitCode = 1;
    });
}
