import { describe, expect, it } from "vitest";
import { weekFactsOf } from "../src/function/writeBoard";

const item = (userId: string, earnedOn: string, overrides: Record<string, unknown> = {}) => ({
  pk: `USER#${userId}`,
  id: `grant-${userId.padEnd(43, "x")}`,
  earnedOn,
  xp: 20,
  overtaken: false,
  ...overrides,
});
const now = Date.parse("2026-12-03T12:00:00Z");

describe("the facts a batch gives each reader's weeks", () => {
  it("groups standing items by reader and ISO week of earnedOn; revoked and overtaken ones are revocations", () => {
    const facts = weekFactsOf(
      [
        item("anna", "2026-12-01"),
        item("anna", "2026-11-29", { id: "grant-b" }),
        item("bert", "2026-12-03", { revokedAt: "2026-12-03T10:00:00Z" }),
        item("bert", "2026-12-02", { id: "grant-c", overtaken: true }),
      ],
      now,
      8,
    );
    expect(facts).toEqual(
      new Map([
        [
          "anna",
          new Map([
            ["2026-W49", [{ id: item("anna", "").id, xp: 20, revoked: false }]],
            ["2026-W48", [{ id: "grant-b", xp: 20, revoked: false }]],
          ]),
        ],
        [
          "bert",
          new Map([
            [
              "2026-W49",
              [
                { id: item("bert", "").id, xp: 20, revoked: true },
                { id: "grant-c", xp: 20, revoked: true },
              ],
            ],
          ]),
        ],
      ]),
    );
  });

  it("leaves out a week past its retention: with 8 weeks kept, 2026-W41 goes on 2026-12-07, 2026-W40 went on 2026-11-30", () => {
    const facts = weekFactsOf([item("anna", "2026-10-05"), item("anna", "2026-10-04")], now, 8);
    expect([...(facts.get("anna")?.keys() ?? [])]).toEqual(["2026-W41"]);
    expect(weekFactsOf([item("anna", "2026-10-05")], now, 7).size).toBe(0);
  });
});
