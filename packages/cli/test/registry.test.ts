import { describe, expect, it } from "vitest";
import { chosenCommand, REGISTRY } from "../src/registry";
import { buildProgram, runProgram } from "../src/runtime/program";
import { memoryIo } from "./memoryIo";

const argv = (...words: string[]) => ["node", "rewards", ...words];

describe("the registry (commands loaded only when they run, help from their own meta)", () => {
  it("lists every command in `rewards --help`, in the registry's order, each with its own meta's line", async () => {
    const program = await buildProgram(argv("--help"), memoryIo());
    expect(program.commands.map((c) => c.name())).toEqual(REGISTRY.map((entry) => entry.name));
    for (const entry of REGISTRY) {
      const { meta } = (await entry.load()).default;
      const listed = program.commands.find((c) => c.name() === entry.name);
      expect(listed?.summary() || listed?.description()).toBe(meta.summary ?? meta.description);
    }
  });

  it("loads only the command named, after options or `help`, with its verbs", async () => {
    expect(chosenCommand(argv("dlq", "replay", "--help"))?.name).toBe("dlq");
    expect(chosenCommand(argv("help", "guard"))?.name).toBe("guard");
    expect(chosenCommand(argv("--version"))).toBeUndefined();
    expect(chosenCommand(argv("publishh"))).toBeUndefined();
    const program = await buildProgram(argv("queue", "stats"), memoryIo());
    expect(program.commands.map((c) => c.name())).toEqual(["queue"]);
    expect(program.commands[0]?.commands.map((c) => c.name())).toEqual(["stats"]);
    const dlq = await buildProgram(argv("dlq"), memoryIo());
    expect(dlq.commands[0]?.commands.map((c) => c.name())).toEqual(["stats", "peek", "replay", "purge"]);
  });

  it("says a usage error in one line with a hint, and exits 2, before reading any variable", async () => {
    const io = memoryIo();
    expect(await runProgram(argv("dlq", "purge"), io)).toBe(2);
    expect(io.stderr()).toBe("rewards: purge deletes every parked message for good; add --yes to confirm\n");
    expect(io.stdout()).toBe("");
  });

  it("names a missing variable, exit 1", async () => {
    const io = memoryIo();
    const saved = process.env.DLQ_URL;
    delete process.env.DLQ_URL;
    try {
      expect(await runProgram(argv("dlq", "purge", "--yes"), io)).toBe(1);
    } finally {
      if (saved !== undefined) process.env.DLQ_URL = saved;
    }
    expect(io.stderr()).toMatch(/^rewards: invalid configuration: DLQ_URL is required\n$/);
  });

  it("prints its version, exit 0", async () => {
    const io = memoryIo();
    expect(await runProgram(argv("--version"), io)).toBe(0);
    expect(io.stdout()).toBe("0.1.0\n");
  });

  it("the package's index exports the program and nothing else", async () => {
    expect(Object.keys(await import("../src/index"))).toEqual(["runProgram"]);
  });
});
