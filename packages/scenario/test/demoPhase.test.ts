import { describe, expect, it } from "vitest";
import { DemoPhaseError, runPhase } from "../src/demoPhase";

const timeout = () =>
  Object.assign(new Error("a request has exceeded the configured 5000 ms requestTimeout"), {
    name: "TimeoutError",
  });

describe("a demo phase", () => {
  it("is announced, and a failure in it names the phase and its cause", async () => {
    const announced: string[] = [];
    const failure = runPhase(
      "verifying the history",
      (phase) => announced.push(phase),
      async () => {
        throw timeout();
      },
    );
    await expect(failure).rejects.toThrow(new DemoPhaseError("verifying the history", timeout()));
    await expect(failure).rejects.toMatchObject({
      name: "DemoPhaseError",
      phase: "verifying the history",
      message:
        "verifying the history: TimeoutError: a request has exceeded the configured 5000 ms requestTimeout",
    });
    expect(announced).toEqual(["verifying the history"]);
  });

  it("answers what the phase returns", async () => {
    expect(
      await runPhase(
        "publishing 3 events",
        () => {},
        async () => 3,
      ),
    ).toBe(3);
  });

  it("inside another phase keeps the inner, more precise name", async () => {
    const failure = runPhase(
      "processing with the poller",
      () => {},
      () =>
        runPhase(
          "draining the queue",
          () => {},
          async () => {
            throw new Error("stalled");
          },
        ),
    );
    await expect(failure).rejects.toMatchObject({ message: "draining the queue: stalled" });
  });
});
