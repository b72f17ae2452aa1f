import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { BatchWriteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { intentKey } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { startFaultProxy } from "@rewards/local";
import { eventBody, guardItem, REWARDS_BIN, runCli, stackTest, startCli, waitFor } from "@rewards/testing";
import { describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";

/**
 * `rewards awards` (docs/revoking.md, "Finding the awards"): the live guards of a type or a
 * user, as lines `rewards revoke` takes, paged and resumable — through the real command.
 */
const it = stackTest();

/** `rewards awards … | rewards revoke …` in a shell, as an operator types it. */
function pipe(env: Record<string, string>, awards: string[], revoke: string[]) {
  const bin = (args: string[]) => [process.execPath, REWARDS_BIN, ...args].map((w) => `'${w}'`).join(" ");
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      "sh",
      ["-c", `${bin(awards)} | ${bin(revoke)}`],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lines = (text: string) => text.split("\n").filter((line) => line !== "");
const keysOf = (ndjson: string) => lines(ndjson).map((line) => JSON.parse(line).intentKey as string);

describe("rewards awards", () => {
  it("lists exactly the live awards of a type or a user, and revoke --dry-run names exactly those", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const { env } = table;
    const [a, b] = [`ua-${randomUUID().slice(0, 6)}`, `ub-${randomUUID().slice(0, 6)}`];
    const today = new Date().toISOString().slice(0, 10);
    const bodies = [
      eventBody("article.completed", { userId: a, articleSlug: "one" }),
      eventBody("article.completed", { userId: a, articleSlug: "two" }),
      eventBody("article.shared", { userId: a, articleSlug: "one", channel: "mail" }),
      eventBody("streak.day", { userId: a, day: today }),
      eventBody("signup.completed", { userId: a }),
      eventBody("article.completed", { userId: b, articleSlug: "three" }),
      eventBody("signup.completed", { userId: b }),
    ];
    await award(env, bodies);
    const completedKeys = [
      intentKey([a, "one", "article.completed"]),
      intentKey([a, "two", "article.completed"]),
      intentKey([b, "three", "article.completed"]),
    ];
    // An expired guard the TTL has not swept: gone for the worker and for revoke, so not listed.
    const dynamo = createDynamoClient(env);
    await dynamo.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: guardItem(intentKey([b, "old", "article.completed"]), { userId: b, expiresAt: 1_000 }),
      }),
    );
    // One of them revoked: still an award of the table, listed, revoke's dry run says so.
    const revoked = await runCli(
      ["revoke", "-", "--reason", "test", "--yes"],
      env,
      `{"intentKey":"${completedKeys[2]}"}\n`,
    );
    expect(revoked.code).toBe(0);

    const listed = await runCli(["awards", "--type", "article.completed", "--ndjson"], env);
    expect(listed).toMatchObject({
      code: 0,
      stderr: "3 awards listed; 1 read unit (as DynamoDB reported)\n",
    });
    expect(keysOf(listed.stdout).sort()).toEqual([...completedKeys].sort());
    expect(lines(listed.stdout).every((line) => Object.keys(JSON.parse(line)).join() === "intentKey")).toBe(
      true,
    );

    const piped = await pipe(
      env,
      ["awards", "--type", "article.completed", "--ndjson"],
      ["revoke", "--dry-run", "--reason", "producer bug", "--json", "-"],
    );
    expect(piped.code).toBe(0);
    const dry = JSON.parse(piped.stdout);
    expect(dry.counts).toMatchObject({
      would_revoke: 2,
      already_revoked: 1,
      not_found: 0,
      invalid: 0,
      failed: 0,
    });
    expect(dry.results.map((r: { intentKey: string }) => r.intentKey).sort()).toEqual(
      [...completedKeys].sort(),
    );

    // --user: every live award of one reader, whatever its type, in words or as one JSON document.
    const ofA = JSON.parse((await runCli(["awards", "--user", a, "--json"], env)).stdout);
    const eventIds = bodies.map((body) => JSON.parse(body).id as string);
    expect({
      ...ofA,
      awards: ofA.awards.map(({ awardedAt: _, ...rest }: { awardedAt: string }) => rest),
    }).toEqual({
      awards: expect.arrayContaining([
        { intentKey: completedKeys[0], userId: a, type: "article.completed", xp: 20, eventId: eventIds[0] },
        { intentKey: completedKeys[1], userId: a, type: "article.completed", xp: 20, eventId: eventIds[1] },
        {
          intentKey: intentKey([a, "one", "mail", "article.shared"]),
          userId: a,
          type: "article.shared",
          xp: 5,
          eventId: eventIds[2],
        },
        {
          intentKey: intentKey([a, today, "streak.day"]),
          userId: a,
          type: "streak.day",
          xp: 10,
          eventId: eventIds[3],
        },
        {
          intentKey: intentKey([a, "signup.completed"]),
          userId: a,
          type: "signup.completed",
          xp: 100,
          eventId: eventIds[4],
        },
      ]),
      listed: 5,
      readUnits: 1,
      estimated: false,
      cursor: null,
      stoppedBy: null,
      unreadable: [],
    });
    expect(ofA.awards).toHaveLength(5);

    const both = await runCli(["awards", "--type", "article.completed", "--user", b], env);
    const awardedAt = ofA.awards[0].awardedAt as string;
    expect(both).toMatchObject({ code: 0, stderr: "1 award listed; 1 read unit (as DynamoDB reported)\n" });
    expect(both.stdout.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<instant>")).toBe(
      `"${completedKeys[2]}": user ${b}, article.completed, 20 XP, event ${eventIds[5]}, awarded at <instant>, revoked at <instant>\n`,
    );
    const future = await runCli(["awards", "--user", a, "--since", "2999-01-01", "--ndjson"], env);
    expect(future).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "0 awards listed; 1 read unit (as DynamoDB reported)\n",
    });
    const window = await runCli(
      ["awards", "--user", a, "--since", awardedAt, "--until", awardedAt, "--ndjson"],
      env,
    );
    expect(lines(window.stdout)).toHaveLength(5);
  });

  it("refuses what it cannot do, exit 2, before reading anything", async () => {
    const usage = async (args: string[]) => {
      const run = await runCli(["awards", ...args], {
        TABLE_NAME: "t",
        AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:9",
      });
      expect(run.code, args.join(" ")).toBe(2);
      return run.stderr.split("\n")[0];
    };
    expect(await usage(["--type", "article.liked"])).toBe(
      "rewards: option '--type <type>' argument 'article.liked' is invalid. Allowed choices are article.completed, article.shared, streak.day, signup.completed.",
    );
    expect(await usage([])).toBe(
      "rewards: name --type, --user or both: a listing of every award is not an undo",
    );
    expect(await usage(["--type", "streak.day", "--source", "/reader/web"])).toBe(
      "rewards: --source: a guard does not record its event's source (docs/revoking.md)",
    );
    expect(await usage(["--user", "u", "--from", "nonsense"])).toBe(
      "rewards: --from: not a cursor `rewards awards` printed",
    );
    expect(await usage(["--user", "u", "--json", "--ndjson"])).toBe(
      "rewards: option '--json' cannot be used with option '--ndjson'",
    );
    expect(await usage(["--user", "u", "--limit", "0"])).toBe(
      "rewards: option '--limit <n>' argument '0' is invalid. expected a whole number of at least 1",
    );
  });

  it("pages: --limit and Ctrl-C print a cursor, --from goes on, and the pieces are the whole", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const { env } = table;
    const user = `bulk-${randomUUID().slice(0, 6)}`;
    const keys = Array.from({ length: 600 }, (_, i) => intentKey([user, `s${i}`, "article.completed"]));
    const dynamo = createDynamoClient(env);
    for (let i = 0; i < keys.length; i += 25)
      await dynamo.send(
        new BatchWriteCommand({
          RequestItems: {
            [env.TABLE_NAME as string]: keys.slice(i, i + 25).map((key) => ({
              PutRequest: {
                Item: guardItem(key, {
                  userId: user,
                  awardedAt: new Date().toISOString(),
                  expiresAt: 4_000_000_000,
                }),
              },
            })),
          },
        }),
      );
    const cursorOf = (stderr: string) => /--from (\S+)\n$/.exec(stderr)?.[1] ?? "";

    // --limit: 120, then 120 from where it stopped, and so on; no award twice, none missed.
    const seen: string[] = [];
    let from: string[] = [];
    const cursors: string[] = [];
    for (let run = 0; run < 5; run++) {
      const listed = await runCli(["awards", "--user", user, "--ndjson", "--limit", "120", ...from], env);
      expect(listed.code).toBe(0);
      expect(keysOf(listed.stdout)).toHaveLength(120);
      seen.push(...keysOf(listed.stdout));
      cursors.push(cursorOf(listed.stderr));
      if (run < 4)
        expect(listed.stderr.split("\n")[1]).toBe(
          `stopped by --limit before the end of the table: go on with --from ${cursors[run]}`,
        );
      // The fifth ends with the table: no cursor to go on with.
      else expect(listed.stderr).toBe("120 awards listed; 1 read unit (as DynamoDB reported)\n");
      from = ["--from", cursors[run] as string];
    }
    expect(new Set(seen).size).toBe(600);
    expect([...seen].sort()).toEqual([...keys].sort());
    from = ["--from", cursors[0] as string];

    // A cursor is of its listing: with other options it is refused.
    const other = await runCli(["awards", "--type", "article.completed", ...from], env);
    expect(other).toMatchObject({ code: 2 });
    expect(other.stderr.split("\n")[0]).toBe(
      "rewards: --from: a cursor of another listing: give the --type, --user, --since and --until it was printed with, on the same TABLE_NAME",
    );

    // Ctrl-C while the second page is read (held 4 s by a proxy): that page is printed, then the cursor, exit 1.
    const proxy = await startFaultProxy({
      target: stack.endpoints.dynamodb,
      rules: [{ operation: "Scan", fault: "latency", fixedMs: 4_000, probability: 1, skip: 1, times: 1 }],
      seed: 1,
    });
    const run = startCli(["awards", "--user", user, "--ndjson"], {
      ...env,
      AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
      LOG_LEVEL: "warn",
    });
    expect(await waitFor(() => lines(run.output().stdout).length === 250, { timeoutMs: 20_000 })).toBe(true);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(1);
    await proxy.stop();
    const { stdout, stderr } = run.output();
    expect(keysOf(stdout)).toHaveLength(500);
    expect(stderr.split("\n")[0]).toBe("500 awards listed; 2 read units (as DynamoDB reported)");
    expect(stderr.split("\n")[1]).toMatch(
      /^stopped by SIGINT before the end of the table: go on with --from \S+$/,
    );
    const rest = await runCli(["awards", "--user", user, "--ndjson", "--from", cursorOf(stderr)], env);
    expect(rest).toMatchObject({
      code: 0,
      stderr: "100 awards listed; 1 read unit (as DynamoDB reported)\n",
    });
    expect([...keysOf(stdout), ...keysOf(rest.stdout)].sort()).toEqual([...keys].sort());
  });
});
