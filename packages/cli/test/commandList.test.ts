import { describe, expect, it } from "vitest";
import { COMMANDS, chosenCommand } from "../src/commandList";
import { bareProgram, buildProgram } from "../src/program";

describe("the command list (commands loaded only when they run)", () => {
  it("lists every command in `rewards --help` exactly as the loaded commands would", async () => {
    const loaded = bareProgram();
    for (const command of COMMANDS) (await command.load())(loaded);
    const listed = await buildProgram(["node", "rewards", "--help"]);
    expect(listed.helpInformation()).toBe(loaded.helpInformation());
    expect(loaded.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
  });

  it("loads only the command named, after options or `help`", async () => {
    expect(chosenCommand(["node", "rewards", "dlq", "replay", "--help"])?.name).toBe("dlq");
    expect(chosenCommand(["node", "rewards", "help", "guard"])?.name).toBe("guard");
    expect(chosenCommand(["node", "rewards", "--version"])).toBeUndefined();
    expect(chosenCommand(["node", "rewards", "publishh"])).toBeUndefined();
    const program = await buildProgram(["node", "rewards", "queue", "stats"]);
    expect(program.commands.map((c) => c.name())).toEqual(["queue"]);
    expect(program.commands[0]?.commands.map((c) => c.name())).toEqual(["stats"]);
  });
});
