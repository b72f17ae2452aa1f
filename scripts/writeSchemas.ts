/**
 * `npm run schemas`: writes schemas/*.schema.json from the zod schemas the worker validates
 * with, and the bus announces with, and schemas/reader.openapi.json from the reader's. tests/contract.test.ts ("the committed schemas/ files are
 * exactly what the zod schemas generate") fails when the committed files drift from them.
 */
import { writeFile } from "node:fs/promises";
import {
  eventJsonSchema,
  eventTypes,
  rewardAchievedJsonSchema,
  rewardGrantedJsonSchema,
  rewardRevokedJsonSchema,
} from "@rewards/core";
import { readerOpenApiDocument } from "@rewards/read-api";

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
];

export const schemaText = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { file, schema } of SCHEMA_FILES) {
    await writeFile(new URL(`../schemas/${file}`, import.meta.url), schemaText(schema()));
    process.stdout.write(`wrote schemas/${file}\n`);
  }
}
