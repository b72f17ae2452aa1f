import { randomUUID } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { BUILTIN_RULES, rulesPointerKey } from "@rewards/core";
import { createDynamoBaseClient, createDynamoClient } from "@rewards/core/aws";
import { createTable } from "@rewards/local";
import { exportedEnv, HANG_GUARD_MS, runCli, stackTest, startCli, waitFor } from "@rewards/testing";
import { describe, expect } from "vitest";
import { stringify } from "yaml";

/**
 * `rewards rules` (docs/rules.md) through the real command on the local stack: each test on a
 * table of its own (the rules are one partition per table).
 */
const it = stackTest();

type Editable = {
  format: number;
  types: Record<string, Record<string, unknown>>;
  campaigns: Array<Record<string, unknown>>;
  achievements: Array<Record<string, unknown>>;
};
const podcasts = (): Editable => {
  const document = structuredClone(BUILTIN_RULES) as unknown as Editable;
  document.types["podcast.listened"] = {
    data: {
      show: { type: "string" },
      episode: { type: "integer", minimum: 1 },
      minutes: { type: "integer", minimum: 0, maximum: 600 },
    },
    key: ["show", "episode"],
    xp: { per: "minutes", each: 1, max: 60 },
    memory: 30,
  };
  document.achievements.push({
    id: "podcaster",
    title: "Podcaster",
    when: { count: "podcast.listened", reaches: 5 },
  });
  return document;
};

let dir: string | undefined;
async function file(name: string, text: string): Promise<string> {
  dir ??= await mkdtemp(join(tmpdir(), "rules-"));
  const path = join(dir, `${randomUUID().slice(0, 6)}-${name}`);
  await writeFile(path, text);
  return path;
}
const yamlFile = (document: Editable) => file("rules.yaml", stringify(document));

async function ownTable(env: Record<string, string>): Promise<Record<string, string>> {
  const tableName = `rules-${randomUUID().slice(0, 8)}`;
  const client = createDynamoBaseClient(env);
  try {
    await createTable(client, tableName);
  } finally {
    client.destroy();
  }
  return { ...env, TABLE_NAME: tableName };
}

describe("rewards rules", () => {
  it("nothing published: version 0, the built-in rules; then a version published, listed, shown, and the same document again changes nothing", async ({
    env: stackEnv,
  }) => {
    const env = await ownTable(stackEnv);
    const shown0 = await runCli(["rules", "show", "--json"], env);
    expect(shown0.code).toBe(0);
    expect(JSON.parse(shown0.stdout)).toMatchObject({
      version: 0,
      document: { format: 1, types: { "streak.day": { keepsStreak: true } } },
    });
    expect(await runCli(["rules", "history"], env)).toMatchObject({
      code: 0,
      stdout: "no version published: the built-in rules (version 0) are in force\n",
    });
    const path = await yamlFile(podcasts());
    expect(await runCli(["rules", "check", path], env)).toEqual({
      code: 0,
      stdout: "ok: 5 types, 7 achievements, 0 campaigns; against version 0: nothing refused\n",
      stderr: "",
    });
    const dry = await runCli(["rules", "publish", path, "--dry-run"], env);
    expect(dry.stdout).toMatch(
      /^would publish version 1 \(digest [0-9a-f]{64}\); nothing written \(--dry-run\)\n$/,
    );
    expect(JSON.parse((await runCli(["rules", "show", "--json"], env)).stdout).version).toBe(0);
    const published = await runCli(["rules", "publish", path, "--note", "podcasts"], env);
    expect(published).toMatchObject({ code: 0, stderr: "" });
    expect(published.stdout).toMatch(
      /^published version 1 \(digest [0-9a-f]{64}\) at \d{4}-\d{2}-\d{2}T[\d:.]+Z\n$/,
    );
    // `rewards schema` prints the version in force's types.
    const schema = JSON.parse((await runCli(["schema", "podcast.listened"], env)).stdout);
    expect(schema).toMatchObject({
      title: "podcast.listened",
      properties: {
        type: { const: "podcast.listened" },
        data: { properties: { minutes: { type: "integer" } } },
      },
    });
    expect(JSON.parse((await runCli(["schema"], env)).stdout).properties.type.enum).toContain(
      "podcast.listened",
    );
    const shown = JSON.parse((await runCli(["rules", "show", "--json"], env)).stdout);
    expect(shown).toMatchObject({ version: 1, note: "podcasts", publishedAt: expect.any(String) });
    expect(shown.document.types["podcast.listened"]).toEqual({
      data: {
        show: { type: "string" },
        episode: { type: "integer", minimum: 1 },
        minutes: { type: "integer", minimum: 0, maximum: 600 },
      },
      key: ["show", "episode"],
      xp: { per: "minutes", each: 1, max: 60 },
      memory: 30,
      capped: true,
      keepsStreak: false,
      retired: false,
    });
    const history = await runCli(["rules", "history", "--json"], env);
    expect(JSON.parse(history.stdout)).toEqual({
      current: 1,
      versions: [
        {
          version: 1,
          publishedAt: shown.publishedAt,
          digest: expect.stringMatching(/^[0-9a-f]{64}$/),
          note: "podcasts",
        },
      ],
    });
    // `show --yaml` prints what publish takes: the same document is no new version.
    const again = await file("again.yaml", (await runCli(["rules", "show", "--yaml"], env)).stdout);
    expect(await runCli(["rules", "publish", again], env)).toEqual({
      code: 0,
      stdout: "version 1 already has this document: nothing published\n",
      stderr: "",
    });
  });

  it("what a new version may not change is refused, exit 1, naming it, and nothing is published", async ({
    env: stackEnv,
  }) => {
    const env = await ownTable(stackEnv);
    expect((await runCli(["rules", "publish", await yamlFile(podcasts())], env)).code).toBe(0);
    const refused = async (change: (document: Editable) => void) => {
      const document = podcasts();
      change(document);
      const run = await runCli(["rules", "publish", await yamlFile(document)], env);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      return run.stderr.split("\n").slice(1).join("\n");
    };
    const podcast = (document: Editable) => document.types["podcast.listened"] as Record<string, unknown>;
    expect(
      await refused((document) => {
        podcast(document).key = ["show"];
      }),
    ).toBe(
      '  types["podcast.listened"].key: the key is fixed forever (was [show, episode]): a changed key pays each reading again\n',
    );
    expect(
      await refused((document) => {
        (podcast(document).data as Record<string, unknown>).episode = { type: "string" };
      }),
    ).toBe(
      '  types["podcast.listened"].data.episode.type: a key field\'s kind is fixed forever (was integer, key[1])\n',
    );
    expect(
      await refused((document) => {
        const streak = document.types["streak.day"] as Record<string, unknown>;
        streak.data = {};
        streak.key = [];
        delete streak.day;
        streak.keepsStreak = false;
      }),
    ).toBe(
      '  types["streak.day"].key: the key is fixed forever (was [day]): a changed key pays each reading again\n' +
        '  types["streak.day"].day: the day an intent is about is fixed forever (was day)\n',
    );
    expect(
      await refused((document) => {
        podcast(document).memory = 60;
      }),
    ).toBe(
      '  types["podcast.listened"].memory: at most 30 days, the longest it has ever had: a replay of a reading whose guard is already gone would pay again\n',
    );
    expect(
      await refused((document) => {
        delete document.types["podcast.listened"];
        document.achievements = document.achievements.filter(({ id }) => id !== "podcaster");
      }),
    ).toBe(
      '  types["podcast.listened"]: a type is never removed: set retired: true\n' +
        "  achievements: podcaster is never removed: set retired: true\n",
    );
    expect(JSON.parse((await runCli(["rules", "history", "--json"], env)).stdout).versions).toHaveLength(1);
  });

  it("a lost race exits 1 and publishes nothing; a hand-edited CURRENT is never used; a YAML error names its line", async ({
    env: stackEnv,
  }) => {
    const env = await ownTable(stackEnv);
    const path = await yamlFile(podcasts());
    expect((await runCli(["rules", "publish", path], env)).code).toBe(0);
    const next = podcasts();
    (next.types["podcast.listened"] as { xp: unknown }).xp = { per: "minutes", each: 2, max: 60 };
    const nextPath = await yamlFile(next);
    expect(await runCli(["rules", "publish", nextPath, "--expect-version", "0"], env)).toEqual({
      code: 1,
      stdout: "",
      stderr: "rewards: CURRENT moved to version 1 (expected 0): nothing published; diff again\n",
    });
    const diff = await runCli(["rules", "diff", nextPath], env);
    expect(diff).toEqual({
      code: 0,
      stdout: 'against version 1:\n~ types["podcast.listened"].xp.each: 1 → 2\n',
      stderr: "",
    });
    // CURRENT edited by hand: its digest no longer the document's.
    const doc = createDynamoClient(env);
    await doc.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: rulesPointerKey(),
        UpdateExpression: "SET digest = :d",
        ExpressionAttributeValues: { ":d": "0".repeat(64) },
      }),
    );
    doc.destroy();
    const shown = await runCli(["rules", "show"], env);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toMatch(
      /^rewards: the rules in force cannot be used: version 1's document does not have the digest published with it \(document [0-9a-f]{64}, item [0-9a-f]{64}, CURRENT 0{64}\) \(docs\/rules\.md#a-version-that-fails-verification\)\n$/,
    );
    expect((await runCli(["rules", "publish", nextPath], env)).code).toBe(1);
    const broken = await file("broken.yaml", "format: 1\ntypes:\n  a.b: {xp: 1\n");
    const parsed = await runCli(["rules", "check", broken], env);
    expect(parsed.code).toBe(1);
    expect(parsed.stderr).toMatch(/^rewards: .*broken\.yaml: 1 problem:\n {2}line 4, column 1: /);
  });

  it("rollback --to 0: the built-in rules again, with the type and achievement added since kept, retired", async ({
    env: stackEnv,
  }) => {
    const env = await ownTable(stackEnv);
    expect((await runCli(["rules", "publish", await yamlFile(podcasts())], env)).code).toBe(0);
    const back = await runCli(["rules", "rollback", "--to", "0"], env);
    expect(back).toMatchObject({ code: 0, stderr: "" });
    expect(back.stdout).toBe(
      'published version 2: version 0\'s rules, against version 1:\n~ types["podcast.listened"].retired: false → true\n~ achievements[id=podcaster].retired: false → true\n',
    );
    expect(JSON.parse((await runCli(["rules", "show", "--json"], env)).stdout)).toMatchObject({
      version: 2,
      note: "rollback to version 0",
    });
  });

  it("rewards dev --rules FILE publishes it as version 1 once the table exists; a document the checks refuse stops it first, exit 1", async () => {
    const refusedDocument = podcasts();
    (refusedDocument.types["article.completed"] as { key: string[] }).key = [];
    const refused = await runCli(["dev", "--rules", await yamlFile(refusedDocument), "--pollers", "0"], {});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^rewards: .*rules\.yaml against version 0: 1 problem:\n {2}types\["article\.completed"\]\.key: the key is fixed forever \(was \[articleSlug\]\): a changed key pays each reading again\n$/,
    );
    const path = await yamlFile(podcasts());
    const dev = startCli(
      ["dev", "--rules", path, "--pollers", "0", "--no-announcer", "--no-history", "--no-read-api"],
      { LOG_LEVEL: "warn" },
    );
    expect(
      await waitFor(() => dev.output().stdout.includes("Ctrl-C to stop"), { timeoutMs: HANG_GUARD_MS }),
    ).toBe(true);
    const env = exportedEnv(dev.output().stdout);
    expect(JSON.parse((await runCli(["rules", "show", "--json"], env)).stdout)).toMatchObject({
      version: 1,
      note: `rewards dev --rules ${path}`,
      document: { types: { "podcast.listened": { xp: { per: "minutes" } } } },
    });
    dev.child.kill("SIGINT");
    expect(await dev.exited).toBe(0);
  });
});
