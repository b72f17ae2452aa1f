import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { openExport } from "../src/dlq/exportFile";
import {
  describePurge,
  type ExportedMessage,
  exportedMessage,
  purgeMatching,
} from "../src/dlq/filteredPurge";
import { OperationError } from "../src/operationError";

/** A parked copy: `rewards.error` set, except for `redriven` (SQS's redrive sets none). */
const parked = (id: string, error: string): Message => ({
  MessageId: id,
  ReceiptHandle: `rh-${id}`,
  Body: `{"id":"${id}"}`,
  Attributes: { SentTimestamp: "1764579600000" },
  MessageAttributes:
    error === "redriven"
      ? {}
      : {
          "rewards.error": { DataType: "String", StringValue: error },
          "rewards.reason": { DataType: "String", StringValue: `why ${id}` },
        },
});

type Input = { Entries?: Array<{ Id: string; ReceiptHandle?: string }> };

/**
 * An SQS holding `messages`, answering one receive with them all; `deleteRefused` are the
 * receipt handles a DeleteMessageBatch refuses. Every call is logged as `Name handle,handle`.
 */
function dlq(messages: Message[], deleteRefused: string[] = []) {
  const calls: string[] = [];
  let received = false;
  const sqs = {
    async send(command: { constructor: { name: string }; input: Input }) {
      const name = command.constructor.name.replace(/Command$/, "");
      const handles = (command.input.Entries ?? []).map((entry) => entry.ReceiptHandle).join(",");
      calls.push(handles ? `${name} ${handles}` : name);
      if (name === "GetQueueAttributes")
        return {
          Attributes: {
            ApproximateNumberOfMessages: String(messages.length),
            ApproximateNumberOfMessagesNotVisible: "1",
            ApproximateNumberOfMessagesDelayed: "0",
          },
        };
      if (name === "ReceiveMessage") {
        const answer = received ? [] : messages;
        received = true;
        return { Messages: answer };
      }
      const entries = command.input.Entries ?? [];
      const refused = entries.filter((entry) => deleteRefused.includes(entry.ReceiptHandle ?? ""));
      return {
        Successful: entries.filter((entry) => !refused.includes(entry)).map((entry) => ({ Id: entry.Id })),
        Failed: refused.map((entry) => ({
          Id: entry.Id,
          Code: "ReceiptHandleIsInvalid",
          Message: "gone",
          SenderFault: true,
        })),
      };
    },
  } as unknown as SQSClient;
  return { sqs, calls };
}

const messages = [
  parked("m1", "unknown_type"),
  parked("m2", "stale"),
  parked("m3", "unknown_type"),
  parked("m4", "redriven"),
];

describe("purgeMatching: receive, check, export, then delete only the matching ones", () => {
  it("exports the matching messages, then deletes exactly those, then releases the rest", async () => {
    const { sqs, calls } = dlq(messages);
    const exported: string[][] = [];
    const report = await purgeMatching(sqs, "https://sqs/dlq", {
      error: "unknown_type",
      exportTo: async (list) => {
        calls.push("export");
        exported.push(list.map((m) => m.messageId));
      },
    });
    expect(calls).toEqual([
      "GetQueueAttributes",
      "ReceiveMessage",
      "export",
      "DeleteMessageBatch rh-m1,rh-m3",
      "ChangeMessageVisibilityBatch rh-m2,rh-m4",
    ]);
    expect(exported).toEqual([["m1", "m3"]]);
    expect(report).toEqual({
      dryRun: false,
      matching: 2,
      byError: { unknown_type: 2 },
      exported: 2,
      purged: 2,
      notMatching: 2,
      inFlightAtStart: 1,
      failed: 0,
      failures: [],
    });
    expect(describePurge(report)).toBe(
      "2 of 2 messages (unknown_type 2) purged, 2 exported first, 0 failed.\n" +
        "2 messages not matching left in the DLQ.\n" +
        "1 message was being read elsewhere and not in this pass: run it again once they are visible.\n",
    );
  });

  it("a dry run deletes nothing and makes every message visible again at once, counting by reason", async () => {
    const { sqs, calls } = dlq(messages);
    const report = await purgeMatching(sqs, "https://sqs/dlq", { dryRun: true });
    expect(calls.filter((call) => !call.startsWith("GetQueue") && !call.startsWith("Receive"))).toEqual([
      "ChangeMessageVisibilityBatch rh-m1,rh-m2,rh-m3,rh-m4",
    ]);
    expect(report).toMatchObject({
      dryRun: true,
      matching: 4,
      byError: { unknown_type: 2, stale: 1, redriven: 1 },
      purged: 0,
      notMatching: 0,
    });
    expect(describePurge({ ...report, inFlightAtStart: 0 })).toBe(
      "dry run: 4 messages (unknown_type 2, stale 1, redriven 1) would be purged; nothing deleted, every message visible again.\n",
    );
  });

  it("an export that fails deletes nothing: everything is released and the error thrown", async () => {
    const { sqs, calls } = dlq(messages);
    await expect(
      purgeMatching(sqs, "https://sqs/dlq", {
        error: "stale",
        exportTo: async () => {
          throw new Error("disk full");
        },
      }),
    ).rejects.toThrow("disk full");
    expect(calls.slice(2)).toEqual(["ChangeMessageVisibilityBatch rh-m1,rh-m2,rh-m3,rh-m4"]);
  });

  it("a delete SQS refuses is a failure of the report, its message (exported) released with the others", async () => {
    const { sqs, calls } = dlq(messages, ["rh-m3"]);
    const report = await purgeMatching(sqs, "https://sqs/dlq", { error: "unknown_type" });
    expect(calls.slice(2)).toEqual([
      "DeleteMessageBatch rh-m1,rh-m3",
      "ChangeMessageVisibilityBatch rh-m2,rh-m4,rh-m3",
    ]);
    expect(report).toMatchObject({
      purged: 1,
      failed: 1,
      failures: [
        { messageId: "m3", error: "not deleted (it stays in the DLQ): ReceiptHandleIsInvalid: gone" },
      ],
    });
    expect(report.exported).toBeUndefined();
    expect(describePurge(report).split("\n")[0]).toBe("1 of 2 messages (unknown_type 2) purged, 1 failed.");
  });

  it("deletes ten a call", async () => {
    const many = Array.from({ length: 12 }, (_, i) => parked(`n${i}`, "stale"));
    const { sqs, calls } = dlq(many);
    expect((await purgeMatching(sqs, "https://sqs/dlq", { error: "stale" })).purged).toBe(12);
    expect(calls.filter((call) => call.startsWith("Delete")).map((call) => call.split(",").length)).toEqual([
      10, 2,
    ]);
    expect(calls.filter((call) => call.startsWith("Change"))).toEqual([]);
  });
});

describe("the export", () => {
  it("keeps body, message attributes (binary in base64) and system attributes", () => {
    const message: Message = {
      ...parked("m1", "stale"),
      MessageAttributes: {
        "rewards.error": { DataType: "String", StringValue: "stale" },
        blob: { DataType: "Binary", BinaryValue: new Uint8Array([1, 2, 255]) },
      },
    };
    expect(exportedMessage(message)).toEqual({
      messageId: "m1",
      body: '{"id":"m1"}',
      messageAttributes: {
        "rewards.error": { DataType: "String", StringValue: "stale" },
        blob: { DataType: "Binary", BinaryValue: "AQL/" },
      },
      attributes: { SentTimestamp: "1764579600000" },
    });
  });

  it("is a new file, a JSON line a message, never one that exists", async () => {
    const dir = await mkdtemp(join(tmpdir(), "purge-export-"));
    const path = join(dir, "purged.ndjson");
    const file = await openExport(path);
    const one: ExportedMessage = exportedMessage(parked("m1", "stale"));
    const two: ExportedMessage = exportedMessage(parked("m2", "stale"));
    await file.write([one, two]);
    await file.close();
    expect(await readFile(path, "utf8")).toBe(`${JSON.stringify(one)}\n${JSON.stringify(two)}\n`);
    const again = openExport(path);
    await expect(again).rejects.toBeInstanceOf(OperationError);
    await expect(again).rejects.toThrow(
      `--export: ${path} exists; an export is never overwritten (it may be the only copy of messages purged before): name a new file`,
    );
    expect(await readFile(path, "utf8")).toBe(`${JSON.stringify(one)}\n${JSON.stringify(two)}\n`);
    await writeFile(join(dir, "x"), "");
    await expect(openExport(join(dir, "x", "y"))).rejects.toThrow(/^--export: cannot create .*x\/y: ENOTDIR/);
  });
});
