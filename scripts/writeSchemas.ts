/**
 * `npm run schemas`: writes schemas/*.schema.json from the zod schemas the worker validates
 * with, and the bus announces with, and schemas/reader.openapi.json from the reader's. tests/contract.test.ts ("the committed schemas/ files are
 * exactly what the zod schemas generate") fails when the committed files drift from them.
 */
import { writeFile } from "node:fs/promises";
import {
  BUILTIN_RULES,
  eventJsonSchema,
  eventTypes,
  rewardAchievedJsonSchema,
  rewardGrantedJsonSchema,
  rewardRevokedJsonSchema,
  rulesJsonSchema,
} from "@rewards/core";
import { readerOpenApiDocument } from "@rewards/read-api";
import { stringify } from "yaml";

export const SCHEMA_FILES: Array<{ file: string; schema: () => Record<string, unknown> }> = [
  { file: "event.schema.json", schema: () => eventJsonSchema() },
  ...eventTypes.map((type) => ({ file: `${type}.schema.json`, schema: () => eventJsonSchema(type) })),
  // What the rewards bus publishes (not a reading event: producers never send it).
  { file: "reward.granted.schema.json", schema: rewardGrantedJsonSchema },
  { file: "reward.revoked.schema.json", schema: rewardRevokedJsonSchema },
  { file: "reward.achieved.schema.json", schema: rewardAchievedJsonSchema },
  // The HTTP read API (docs/reading.md#the-http-read-api): OpenAPI 3.1, its bodies the
  // reader library's schemas.
  { file: "reader.openapi.json", schema: readerOpenApiDocument },
  // The site's rules (docs/rules.md): what an editor checks a document with as it is typed.
  { file: "rules.schema.json", schema: rulesJsonSchema },
];

/** Files that are not JSON: the built-in rules, version 0, as the YAML a site starts from. */
export const TEXT_FILES: Array<{ file: string; text: () => string }> = [
  {
    file: "rules.builtin.yaml",
    text: () =>
      `# The built-in rules (version 0): what a stage pays with nothing published (docs/rules.md).\n# Written by \`npm run schemas\` from packages/core/src/domain/rules/builtinRules.ts.\n${stringify(BUILTIN_RULES, { lineWidth: 0 })}`,
  },
];

export const schemaText = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { file, schema } of SCHEMA_FILES) {
    await writeFile(new URL(`../schemas/${file}`, import.meta.url), schemaText(schema()));
    process.stdout.write(`wrote schemas/${file}\n`);
  }
  for (const { file, text } of TEXT_FILES) {
    await writeFile(new URL(`../schemas/${file}`, import.meta.url), text());
    process.stdout.write(`wrote schemas/${file}\n`);
  }
}
