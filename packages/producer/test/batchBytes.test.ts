import type { SendMessageBatchCommandInput, SQSClient } from "@aws-sdk/client-sqs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPublisher } from "../src";

/**
 * SQS refuses a SendMessageBatch over 1,048,576 bytes (the bodies and every attribute's
 * name, type and value, in UTF-8) or over 10 entries. Measured here on what the client is
 * actually handed, independently of the producer's own size function.
 */
const LIMIT = 1_048_576;
const QUEUE = "http://localhost:4566/000000000000/rewards-events";
const EMOJI = "😀";
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

function callBytes(input: SendMessageBatchCommandInput): number {
  let total = 0;
  for (const entry of input.Entries ?? []) {
    total += bytes(entry.MessageBody ?? "");
    for (const [name, value] of Object.entries(entry.MessageAttributes ?? {})) {
      total += bytes(name) + bytes(value.DataType ?? "") + bytes(value.StringValue ?? "");
    }
  }
  return total;
}

function capturingSqs() {
  const calls: SendMessageBatchCommandInput[] = [];
  const client = {
    async send(command: { input: SendMessageBatchCommandInput }) {
      calls.push(command.input);
      return {
        Successful: (command.input.Entries ?? []).map((e) => ({ Id: e.Id, MessageId: `id-${e.Id}` })),
      };
    },
  } as unknown as SQSClient;
  return { calls, client };
}

/** A valid event whose body carries `note` (unknown fields are ignored by the worker, but sent). */
const event = (i: number, note: string) => ({
  specversion: "1.0",
  id: `evt-${i}`,
  source: "/test",
  type: "article.completed",
  data: { userId: `user-${i}`, articleSlug: `a-${i}`, note },
});
/** The body's and its two attributes' bytes when the note is empty. */
const overhead = (i: number) =>
  bytes(JSON.stringify(event(i, ""))) +
  bytes("type") +
  6 +
  bytes("article.completed") +
  bytes("specversion") +
  6 +
  3;

describe("the producer's batches fit SendMessageBatch's limits", () => {
  it("emoji bodies are counted in bytes: two that fit in UTF-16 units but not in bytes go in two calls", async () => {
    // Each body is ~600,000 bytes but ~300,000 UTF-16 units.
    const note = EMOJI.repeat(150_000);
    const { calls, client } = capturingSqs();
    const results = await createPublisher({ queueUrl: QUEUE, client }).publish([
      event(0, note),
      event(1, note),
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(calls.map((c) => c.Entries?.map((e) => e.Id))).toEqual([["0"], ["1"]]);
    for (const call of calls) expect(callBytes(call)).toBeLessThanOrEqual(LIMIT);
  });

  it("attributes count: two messages whose bodies alone fit exactly in 1 MiB go in two calls", async () => {
    const bodyOnly = (i: number) => bytes(JSON.stringify(event(i, "")));
    const room = LIMIT - bodyOnly(0) - bodyOnly(1);
    const first = "n".repeat(Math.floor(room / 2));
    const second = "n".repeat(room - first.length);
    expect(bytes(JSON.stringify(event(0, first))) + bytes(JSON.stringify(event(1, second)))).toBe(LIMIT);
    const { calls, client } = capturingSqs();
    await createPublisher({ queueUrl: QUEUE, client }).publish([event(0, first), event(1, second)]);
    expect(calls.map((c) => c.Entries?.length)).toEqual([1, 1]);
  });

  it("a batch of exactly 1 MiB, attributes included, is one call", async () => {
    const room = LIMIT - overhead(0) - overhead(1);
    const first = "n".repeat(Math.floor(room / 2));
    const second = "n".repeat(room - first.length);
    const { calls, client } = capturingSqs();
    await createPublisher({ queueUrl: QUEUE, client }).publish([event(0, first), event(1, second)]);
    expect(calls.map((c) => c.Entries?.length)).toEqual([2]);
    expect(callBytes(calls[0] as SendMessageBatchCommandInput)).toBe(LIMIT);
  });

  it("one event over 1 MiB in bytes (under it in UTF-16 units) is refused, not sent", async () => {
    const { calls, client } = capturingSqs();
    const [result] = await createPublisher({ queueUrl: QUEUE, client }).publish([
      event(0, EMOJI.repeat(262_144)),
    ]);
    expect(result).toMatchObject({ ok: false, index: 0 });
    expect(calls).toEqual([]);
  });

  it("property: every call has at most 10 entries and 1 MiB as sent, and every event is sent once, in order", async () => {
    const note = fc
      .string({ unit: fc.constantFrom("a", "é", "€", EMOJI), maxLength: 2_000 })
      .map((s) => s.repeat(60));
    await fc.assert(
      fc.asyncProperty(fc.array(note, { minLength: 1, maxLength: 25 }), async (notes) => {
        const { calls, client } = capturingSqs();
        const results = await createPublisher({ queueUrl: QUEUE, client, concurrency: 1 }).publish(
          notes.map((n, i) => event(i, n)),
        );
        const sent = results.filter((r) => r.ok).map((r) => r.index);
        for (const call of calls) {
          expect(call.Entries?.length).toBeLessThanOrEqual(10);
          expect(callBytes(call)).toBeLessThanOrEqual(LIMIT);
        }
        expect(calls.flatMap((c) => c.Entries?.map((e) => Number(e.Id)) ?? [])).toEqual(sent);
        for (const r of results)
          if (!r.ok)
            expect(bytes(JSON.stringify(event(r.index, notes[r.index] ?? "")))).toBeGreaterThan(LIMIT - 100);
      }),
      { numRuns: 30 },
    );
  });
});

describe("the producer's sends: attributes, and errors retried only when they can pass", () => {
  const valid = (i: number) => event(i, "");

  it("each message carries the event as its body and the type and specversion attributes (docs/events.md#the-message)", async () => {
    const { calls, client } = capturingSqs();
    await createPublisher({ queueUrl: QUEUE, client }).publish([valid(0)]);
    expect(calls[0]?.Entries).toEqual([
      {
        Id: "0",
        MessageBody: JSON.stringify(valid(0)),
        MessageAttributes: {
          type: { DataType: "String", StringValue: "article.completed" },
          specversion: { DataType: "String", StringValue: "1.0" },
        },
      },
    ]);
  });

  it("a denied call (configuration) is sent once and every event reported failed", async () => {
    let sends = 0;
    const client = {
      async send() {
        sends++;
        throw Object.assign(new Error("denied"), { name: "AccessDeniedException" });
      },
    } as unknown as SQSClient;
    const results = await createPublisher({
      queueUrl: QUEUE,
      client,
      retryPolicy: { maxAttempts: 4, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 10_000 },
    }).publish([valid(0), valid(1)]);
    expect(sends).toBe(1);
    expect(results.map((r) => r.ok)).toEqual([false, false]);
  });

  it("an entry SQS refuses as the sender's fault is sent once; one failed on SQS's side is sent again", async () => {
    const sent: string[][] = [];
    const client = {
      async send(command: { input: SendMessageBatchCommandInput }) {
        const ids = (command.input.Entries ?? []).map((e) => String(e.Id));
        sent.push(ids);
        if (sent.length > 1) return { Successful: ids.map((Id) => ({ Id, MessageId: `m-${Id}` })) };
        return {
          Successful: [],
          Failed: [
            { Id: "0", Code: "InvalidParameterValue", SenderFault: true, Message: "bad" },
            { Id: "1", Code: "InternalError", SenderFault: false, Message: "try again" },
          ],
        };
      },
    } as unknown as SQSClient;
    const results = await createPublisher({
      queueUrl: QUEUE,
      client,
      retryPolicy: { maxAttempts: 4, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 10_000 },
    }).publish([valid(0), valid(1)]);
    expect(sent).toEqual([["0", "1"], ["1"]]);
    expect(results.map((r) => r.ok)).toEqual([false, true]);
  });
});
