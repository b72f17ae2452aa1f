import { afterEach, describe, expect, it, vi } from "vitest";
import { sdkLogger } from "../src/aws";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("sdkLogger", () => {
  it("prints each distinct SDK warning once (the QueueUrl one repeats on every call), and nothing else", () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const warning = `QueueUrl=https://a/1/q-${Date.now()} differs from SQSClient resolved endpoint=https://b/, using QueueUrl host as endpoint.`;
    for (let i = 0; i < 5; i++) sdkLogger.warn(warning);
    sdkLogger.warn("another warning", 2);
    sdkLogger.info("noise");
    sdkLogger.debug("noise");
    sdkLogger.error({ clientName: "SQSClient", error: new Error("x") });
    expect(written).toEqual([`${warning}\n`, "another warning 2\n"]);
  });
});
