import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { PublishResult } from "@rewards/producer";
import type { SendReport, TrafficMessage } from "@rewards/scenario";
import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";

export interface LineResult {
  line: number;
  ok: boolean;
  messageId?: string;
  error?: string;
}

const SLICE = 500;

/** `source` where an event has none; anything else is left as it is (and validated). */
function withSource(event: unknown, source: string | undefined): unknown {
  if (source === undefined || typeof event !== "object" || event === null || Array.isArray(event))
    return event;
  return "source" in event ? event : { ...event, source };
}

/** Publishes NDJSON lines in slices, so a large file never sits in memory whole. */
async function publishLines(
  lines: AsyncIterable<string>,
  publish: (events: unknown[]) => Promise<PublishResult[]>,
  source?: string,
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
      pending.push({ line: number, event: withSource(JSON.parse(text), source) });
    } catch (error) {
      results.push({ line: number, ok: false, error: `not JSON: ${(error as Error).message}` });
    }
    if (pending.length >= SLICE) await flush();
  }
  if (pending.length > 0) await flush();
  return results.sort((a, b) => a.line - b.line);
}

/** `--raw`: every non-empty line as a message body, unchanged; attributes where the line names a type. */
async function publishRaw(
  lines: AsyncIterable<string>,
  send: (messages: TrafficMessage[]) => Promise<SendReport>,
): Promise<LineResult[]> {
  const messages: Array<{ line: number; message: TrafficMessage }> = [];
  let number = 0;
  for await (const text of lines) {
    number++;
    if (text.trim() === "") continue;
    let type: string | undefined;
    try {
      const parsed = JSON.parse(text) as { type?: unknown };
      if (typeof parsed?.type === "string") type = parsed.type;
    } catch {
      // Not JSON: sent all the same, that is what --raw is for.
    }
    messages.push({ line: number, message: { kind: "invalid", body: text, ...(type ? { type } : {}) } });
  }
  const report = await send(messages.map((m) => m.message));
  const failed = new Map(report.failed.map((f) => [f.index, f.error]));
  return messages.map(({ line }, index) =>
    failed.has(index) ? { line, ok: false, error: failed.get(index) } : { line, ok: true },
  );
}

const linesWord = (n: number) => (n === 1 ? "1 line" : `${n.toLocaleString("en")} lines`);

/**
 * Lines that failed because the queue's endpoint could not be reached (the stack not
 * running, a wrong endpoint): one message for all of them, naming the endpoint and the
 * variable it came from, instead of the same socket error on every line.
 */
function unsentForNetwork(
  results: readonly LineResult[],
  unreachableIn: (message: string) => string | undefined,
): { unreachable?: string; notSent: Set<number> } {
  const notSent = new Set<number>();
  let unreachable: string | undefined;
  for (const r of results) {
    const described = r.ok || r.error === undefined ? undefined : unreachableIn(r.error);
    if (!described) continue;
    notSent.add(r.line);
    unreachable ??= described;
  }
  return unreachable ? { unreachable, notSent } : { notSent };
}

/** The file, once open; one that cannot be read is a CliError naming it. */
async function opened(file: string): Promise<NodeJS.ReadableStream> {
  const input = createReadStream(file);
  await new Promise<void>((resolve, reject) => {
    input.once("open", () => resolve());
    input.once("error", (error: Error) => reject(new CliError(`cannot read ${file}: ${error.message}`)));
  });
  return input;
}

interface PublishOptions {
  json?: boolean;
  source?: string;
  raw?: boolean;
}

export default defineCommand<PublishOptions>()({
  meta: {
    name: "publish",
    args: "[file]",
    description:
      "publish NDJSON events (one CloudEvent per line) to QUEUE_URL; bad lines are reported, good ones still sent",
  },
  options: (command) =>
    command
      .argument("[file]", "NDJSON file, or - for standard input", "-")
      .option("--source <source>", "the CloudEvents source to fill in where an event has none")
      .option("--raw", "send each line exactly as it is, unvalidated (to see the worker park bad events)")
      .option("--json", "print JSON"),
  needs: ["QUEUE_URL"],
  async run({ options, args, config, io }) {
    const file = args[0] as string;
    const { clientsFor } = await import("@rewards/ops");
    const { createPublisher } = await import("@rewards/producer");
    const { sendTraffic } = await import("@rewards/scenario");
    const { sqs } = clientsFor(config);
    const input = file === "-" ? io.stdin : await opened(file);
    // Read at once: nothing awaited between here and the loop, or lines read meanwhile are lost.
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    const results = options.raw
      ? await publishRaw(lines, (messages) => sendTraffic(messages, { sqs, queueUrl: config.QUEUE_URL }))
      : await publishLines(
          lines,
          (events) => createPublisher({ queueUrl: config.QUEUE_URL, client: sqs }).publish(events),
          options.source,
        );
    const failed = results.filter((r) => !r.ok).length;
    const { unreachable, notSent } = unsentForNetwork(
      results,
      (await import("../runtime/describeFailure")).unreachableIn,
    );
    const warning = unreachable ? `rewards: ${unreachable}\n` : undefined;
    const exitCode = failed > 0 ? { exitCode: 1 as const } : {};
    if (options.json)
      return {
        out: jsonText({
          published: results.length - failed,
          failed,
          ...(unreachable ? { unreachable } : {}),
          results,
        }),
        warning,
        ...exitCode,
      };
    const said = results
      .filter((r) => !notSent.has(r.line)) // said once, below
      .map((r) =>
        r.ok
          ? `line ${r.line}: ok${r.messageId ? ` ${r.messageId}` : ""}\n`
          : `line ${r.line}: error ${r.error}\n`,
      );
    const total = `${results.length - failed} published, ${failed} failed${notSent.size > 0 ? ` (${linesWord(notSent.size)} not sent: the queue could not be reached)` : ""}\n`;
    return { out: said.join("") + total, warning, ...exitCode };
  },
});
