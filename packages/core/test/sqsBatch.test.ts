import type { BatchResultErrorEntry } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { retryRemainder, sendSqsBatch } from "../src/aws";
import { messageSize } from "../src/domain";

const instant = { sleep: async () => {}, random: () => 0 };
const entries = (...ids: string[]) => ids.map((Id) => ({ Id, body: `body ${Id}` }));
const serverSide = (Id: string, Message?: string): BatchResultErrorEntry => ({
  Id,
  SenderFault: false,
  Code: "InternalError",
  ...(Message ? { Message } : {}),
});

/** A batch call that answers each call from a script; records what each call carried. */
function scripted(
  ...answers: Array<{ Successful?: Array<{ Id: string }>; Failed?: BatchResultErrorEntry[] } | Error>
) {
  const calls: string[][] = [];
  const send = async (batch: Array<{ Id: string }>) => {
    calls.push(batch.map((e) => e.Id));
    const answer = answers[calls.length - 1] ?? { Successful: batch.map(({ Id }) => ({ Id })) };
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { calls, send };
}

describe("sendSqsBatch", () => {
  it("resends only what SQS failed on its side; a sender fault is final", async () => {
    const { calls, send } = scripted({
      Successful: [{ Id: "a" }],
      Failed: [
        serverSide("b", "try again"),
        { Id: "c", SenderFault: true, Code: "InvalidMessageContents", Message: "no" },
      ],
    });
    const report = await sendSqsBatch(entries("a", "b", "c"), send, instant);
    expect(calls).toEqual([["a", "b", "c"], ["b"]]);
    expect(report.succeeded.map((s) => s.entry.Id)).toEqual(["a", "b"]);
    expect(report.refused).toEqual([
      { entry: { Id: "c", body: "body c" }, error: "InvalidMessageContents: no" },
    ]);
    expect(report.unsent).toEqual([]);
  });

  it("what SQS keeps failing is unsent, with SQS's last word on it", async () => {
    const failing = { Failed: [serverSide("a")] };
    const { calls, send } = scripted(failing, failing, failing, failing);
    const report = await sendSqsBatch(entries("a"), send, instant);
    expect(calls).toHaveLength(4);
    expect(report.unsent).toEqual([
      { entry: { Id: "a", body: "body a" }, error: "InternalError: no message" },
    ]);
  });

  it("a whole call that fails is retried while shouldRetry allows (everything by default)", async () => {
    const down = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    const retried = scripted(down);
    expect((await sendSqsBatch(entries("a"), retried.send, instant)).succeeded).toHaveLength(1);
    expect(retried.calls).toHaveLength(2);

    const refused = scripted(Object.assign(new Error("denied"), { name: "AccessDeniedException" }));
    const report = await sendSqsBatch(entries("a", "b"), refused.send, {
      ...instant,
      shouldRetry: () => false,
    });
    expect(refused.calls).toHaveLength(1);
    expect(report.unsent.map((u) => u.error)).toEqual([
      "AccessDeniedException: denied",
      "AccessDeniedException: denied",
    ]);
  });

  it("a partial failure is resent even when shouldRetry refuses every thrown error", async () => {
    const { calls, send } = scripted({ Successful: [{ Id: "a" }], Failed: [serverSide("b")] });
    const report = await sendSqsBatch(entries("a", "b"), send, { ...instant, shouldRetry: () => false });
    expect(calls).toEqual([["a", "b"], ["b"]]);
    expect(report.succeeded).toHaveLength(2);
  });

  it("answers with no lists, or about entries it was not sent, change nothing", async () => {
    const { send } = scripted({}, { Successful: [{ Id: "zz" }, { Id: "a" }], Failed: [serverSide("yy")] });
    const report = await sendSqsBatch(entries("a"), send, instant);
    expect(report).toEqual({ succeeded: [], refused: [], unsent: [] });
    const second = await sendSqsBatch(
      entries("a"),
      scripted({ Successful: [{ Id: "zz" }, { Id: "a" }], Failed: [serverSide("yy")] }).send,
      instant,
    );
    expect(second.succeeded.map((s) => s.entry.Id)).toEqual(["a"]);
    expect(second.unsent).toEqual([]);
  });
});

describe("retryRemainder", () => {
  it("asks again for exactly what was left undone; nothing left is an empty remainder", async () => {
    const asked: number[][] = [];
    const result = await retryRemainder(
      [1, 2, 3],
      async (pending) => {
        asked.push(pending);
        return pending.filter((n) => n === 3 && asked.length === 1);
      },
      instant,
    );
    expect(asked).toEqual([[1, 2, 3], [3]]);
    expect(result).toEqual({ remainder: [] });
  });

  it("when the policy runs out: what is left, and why", async () => {
    const result = await retryRemainder([1, 2], async (pending) => pending, {
      ...instant,
      policy: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 100 },
    });
    expect(result.remainder).toEqual([1, 2]);
    expect(result.error).toMatchObject({ name: "Remainder", message: "2 of the batch not processed" });
  });
});

describe("messageSize", () => {
  it("counts an attribute without a data type as its name and value", () => {
    expect(messageSize("ab", { n: { StringValue: "xyz" } as never })).toBe(2 + 1 + 3);
  });
});
