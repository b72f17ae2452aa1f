import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  achievementId,
  achievementItemSchema,
  achievementKey,
  BUILTIN_RULES,
  checkRules,
  decodeEvent,
  type EventPattern,
  eventTypes,
  grantId,
  matchesPattern,
  rewardAchieved,
  rewardGranted,
} from "@rewards/core";
import { createSqsClient } from "@rewards/core/aws";
import { parseRulesText } from "@rewards/core/rules-text";
import { pythonForMoto } from "@rewards/local";
import { waitForDrain } from "@rewards/ops";
import { createEventBuilders } from "@rewards/producer";
import { freshModule, profileOf, stackTest, startCountingPoller } from "@rewards/testing";
import { createWorkerDeps } from "@rewards/worker";
import { Ajv2020 } from "ajv/dist/2020.js";
import pino from "pino";
import { describe, expect } from "vitest";

const it = stackTest({ visibilityTimeoutSeconds: 2 });
const root = new URL("../", import.meta.url);
const committed = async (file: string) =>
  JSON.parse(await readFile(new URL(`schemas/${file}`, root), "utf8")) as Record<string, unknown>;
const committedSync = (file: string) =>
  JSON.parse(readFileSync(new URL(`schemas/${file}`, root), "utf8")) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: false });

const GRANTS_SECTION = "## Hearing about awards: `reward.granted`";
const ACHIEVEMENTS_SECTION = "## Hearing about achievements: `reward.achieved`";
const jsonBlocks = (text: string) =>
  [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] as string) as unknown);

/** Every ```json block of docs/events.md's producer part, and the body of its `aws sqs send-message` example. */
async function docsExamples(): Promise<unknown[]> {
  const text = (await readFile(new URL("docs/events.md", root), "utf8")).split(GRANTS_SECTION)[0] as string;
  const blocks = jsonBlocks(text);
  const cli = [...text.matchAll(/--message-body '([^']+)'/g)].map(
    (m) => JSON.parse(m[1] as string) as unknown,
  );
  return [...blocks, ...cli];
}

describe("the JSON Schemas are the truth for other languages", () => {
  it("the committed schemas/ files are exactly what the zod schemas generate (run `npm run schemas`)", async () => {
    // Loaded afresh (@rewards/testing freshModule): the zod schemas are module-level constants.
    const { SCHEMA_FILES } = await freshModule(() => import("../scripts/writeSchemas"));
    for (const { file, schema } of SCHEMA_FILES) expect(await committed(file), file).toEqual(schema());
    expect(SCHEMA_FILES.map((f) => f.file)).toEqual([
      "event.schema.json",
      ...eventTypes.map((t) => `${t}.schema.json`),
      "reward.granted.schema.json",
      "reward.revoked.schema.json",
      "reward.achieved.schema.json",
      "reader.openapi.json",
      "rules.schema.json",
    ]);
  });

  it("schemas/rules.builtin.yaml is the built-in rules, as written, and the rules' JSON Schema accepts it", async () => {
    const { TEXT_FILES } = await freshModule(() => import("../scripts/writeSchemas"));
    for (const { file, text } of TEXT_FILES)
      expect(await readFile(new URL(`schemas/${file}`, root), "utf8"), file).toBe(text());
    const parsed = parseRulesText(await readFile(new URL("schemas/rules.builtin.yaml", root), "utf8"));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(checkRules(parsed.value)).toEqual(checkRules(BUILTIN_RULES));
    const editor = ajv.compile(await committed("rules.schema.json"));
    expect(editor(parsed.value), JSON.stringify(editor.errors)).toBe(true);
    // What the schema can say, it says as it is typed: a type with no xp.
    expect(editor({ format: 1, types: { "a.b": { memory: 2 } } })).toBe(false);
  });

  it("every event the producer's builders make is valid against the committed schemas", async () => {
    const build = createEventBuilders("/tests");
    const events = [
      build.articleCompleted({ userId: "u", articleSlug: "a" }),
      build.articleShared({ userId: "u", articleSlug: "a", channel: "email" }),
      build.streakDay({ userId: "u", day: "2026-11-29" }),
      build.signupCompleted({ userId: "🦊".repeat(256) }),
    ];
    const anyEvent = ajv.compile(await committed("event.schema.json"));
    for (const event of events) {
      const own = ajv.compile(await committed(`${event.type}.schema.json`));
      expect(own(event), JSON.stringify(own.errors)).toBe(true);
      expect(anyEvent(event), JSON.stringify(anyEvent.errors)).toBe(true);
    }
  });

  it("the schemas refuse what the worker refuses, lengths counted in characters", async () => {
    const validate = ajv.compile(await committed("event.schema.json"));
    const base = {
      specversion: "1.0",
      id: "e",
      source: "/s",
      type: "signup.completed",
      data: { userId: "u" },
    };
    expect(validate(base)).toBe(true);
    expect(validate({ ...base, data: { userId: "🦊".repeat(257) } })).toBe(false);
    expect(validate({ ...base, type: "article.liked" })).toBe(false);
    expect(validate({ ...base, time: "yesterday" })).toBe(false);
    expect(validate({ ...base, specversion: "0.3" })).toBe(false);
    expect(validate({ ...base, data: { userId: "u", extra: 1 }, extension: "x" })).toBe(true);
  });

  it("validators with default options name the one failing field: Ajv (no format plug-in) and Python's jsonschema", async () => {
    const missingUser = {
      specversion: "1.0",
      id: "e",
      source: "/s",
      type: "article.completed",
      data: { articleSlug: "a" },
    };
    for (const file of ["event.schema.json", ...eventTypes.map((t) => `${t}.schema.json`)]) {
      expect(() => new Ajv2020().compile(committedSync(file)), file).not.toThrow();
    }
    const validate = new Ajv2020().compile(committedSync("event.schema.json"));
    expect(validate(missingUser)).toBe(false);
    expect(validate.errors?.map((e) => [e.instancePath, e.message])).toEqual([
      ["/data", "must have required property 'userId'"],
    ]);
    expect(validate({ ...missingUser, data: { userId: "u", articleSlug: "a" }, type: "streak.day" })).toBe(
      false,
    );
    expect(validate.errors?.map((e) => [e.instancePath, e.message])).toEqual([
      ["/data", "must have required property 'day'"],
    ]);
    const python = `
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(json.loads(sys.argv[2])))
print(json.dumps([list(error.absolute_path), error.message]))
`;
    const { stdout } = await promisify(execFile)(pythonForMoto(), [
      "-c",
      python,
      new URL("schemas/event.schema.json", root).pathname,
      JSON.stringify(missingUser),
    ]);
    expect(JSON.parse(stdout)).toEqual([["data"], "'userId' is a required property"]);
  });

  it("every example in docs/events.md is paid by the worker, and the raw ones match the schema", async () => {
    const examples = await docsExamples();
    expect(examples.length).toBeGreaterThanOrEqual(7);
    const validate = ajv.compile(await committed("event.schema.json"));
    for (const example of examples) {
      expect(decodeEvent(JSON.stringify(example)), JSON.stringify(example)).toMatchObject({ ok: true });
      if (typeof example === "object" && example && "specversion" in example) {
        expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      }
    }
  });
});

describe("reward.granted, as docs/events.md shows it to consumers", () => {
  it("the example is what the announcer makes of the contract's example award, valid against the schema, and the example rule matches it", async () => {
    const section = (await readFile(new URL("docs/events.md", root), "utf8")).split(
      GRANTS_SECTION,
    )[1] as string;
    const [envelope, pattern] = jsonBlocks(section) as [{ detail: unknown }, EventPattern];
    const grant = rewardGranted({
      pk: "IDEM#user123#idempotent-writes#article.completed",
      sk: "IDEM",
      userId: "user123",
      type: "article.completed",
      amount: 20,
      eventId: "evt-01JDX3",
      awardedAt: "2026-11-29T10:00:01.234Z",
    });
    expect(envelope.detail).toEqual(grant);
    expect(envelope).toMatchObject({
      source: "rewards",
      "detail-type": "reward.granted",
      time: "2026-11-29T10:00:01Z",
    });
    const validate = ajv.compile(await committed("reward.granted.schema.json"));
    expect(validate(envelope.detail), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...grant, id: "evt-1" })).toBe(false);
    expect(matchesPattern(envelope, pattern)).toBe(true);
    expect(
      matchesPattern({ ...envelope, detail: { data: { eventType: "signup.completed" } } }, pattern),
    ).toBe(false);
    // The id the docs describe: grant- + base64url(SHA-256(intentKey "\n" awardedAt)).
    expect(grant.id).toBe(grantId("user123#idempotent-writes#article.completed", "2026-11-29T10:00:01.234Z"));
  });
});

describe("reward.achieved, as docs/events.md shows it to consumers", () => {
  it("the example is what the announcer makes of the example award's first achievement, valid against the schema, and the rule for every announcement matches all three", async () => {
    const section = (await readFile(new URL("docs/events.md", root), "utf8")).split(
      ACHIEVEMENTS_SECTION,
    )[1] as string;
    const [example, pattern] = jsonBlocks(section) as [Record<string, unknown>, EventPattern];
    const crossing = grantId("user123#idempotent-writes#article.completed", "2026-11-29T10:00:01.234Z");
    // The item the history's writer puts for it: earned at the crossing award's awardedAt.
    const achieved = rewardAchieved(
      achievementItemSchema.parse({
        ...achievementKey("user123", "first-article"),
        userId: "user123",
        achievement: "first-article",
        title: "First article",
        earnedAt: "2026-11-29T10:00:01.234Z",
        grantId: crossing,
      }),
    );
    expect(example).toEqual(achieved);
    // The id the docs describe: achieve- + base64url(SHA-256(userId "\n" achievement)).
    expect(achieved.id).toBe(achievementId("user123", "first-article"));
    const validate = ajv.compile(await committed("reward.achieved.schema.json"));
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...achieved, id: crossing })).toBe(false);
    const { grantId: _grant, ...data } = achieved.data;
    expect(validate({ ...achieved, data })).toBe(true);
    for (const type of ["reward.granted", "reward.revoked", "reward.achieved"])
      expect(matchesPattern({ source: "rewards", "detail-type": type, detail: example }, pattern)).toBe(true);
    expect(matchesPattern({ source: "rewards", "detail-type": "reward.other" }, pattern)).toBe(false);
  });
});

describe("a Python producer (examples/python/publish.py) with the local stack's Python", () => {
  it("publishes with boto3, reports per line, and its events are paid", async ({ env, queues }) => {
    const lines = [
      JSON.stringify({
        specversion: "1.0",
        id: "py-1",
        source: "/py",
        type: "article.completed",
        data: { userId: "py-user", articleSlug: "a" },
      }),
      "{not json",
      JSON.stringify({
        specversion: "1.0",
        id: "py-2",
        source: "/py",
        type: "signup.completed",
        data: { userId: "py-user" },
      }),
      ...Array.from({ length: 12 }, (_, i) =>
        JSON.stringify({
          specversion: "1.0",
          id: `py-s${i}`,
          source: "/py",
          type: "streak.day",
          // Recent days: older than the memory allows would be stale.
          data: {
            userId: "py-user",
            day: new Date(Date.now() - (i + 1) * 86_400_000).toISOString().slice(0, 10),
          },
        }),
      ),
    ];
    const file = join(tmpdir(), `events-${Date.now()}.ndjson`);
    await writeFile(file, `${lines.join("\n")}\n`);
    const script = new URL("examples/python/publish.py", root).pathname;
    const run = await promisify(execFile)(pythonForMoto(), [script, file], {
      env: { PATH: process.env.PATH, ...env, QUEUE_URL: queues.queueUrl },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect("code" in run ? run.code : 0).toBe(1);
    expect(run.stdout).toContain("line 2: error not JSON");
    expect(run.stdout.trim().split("\n").at(-1)).toBe("14 published, 1 failed");

    const sqs = createSqsClient({ ...env, AWS_REGION: "us-east-1" });
    const deps = { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {} };
    const { poller, stats } = await startCountingPoller(deps, {
      sqs,
      queueUrl: queues.queueUrl,
      logger: pino({ level: "silent" }),
      waitTimeSeconds: 1,
      timeoutMs: 1500,
    });
    expect(await waitForDrain(sqs, queues.queueUrl, 30_000)).toBe(true);
    await poller.stop();
    expect(stats.outcomes).toMatchObject({ awarded: 14, parked: 0 });
    expect((await profileOf(deps.dynamo, queues.tableName, "py-user"))?.xp).toBe(20 + 100 + 12 * 10);
  });
});
