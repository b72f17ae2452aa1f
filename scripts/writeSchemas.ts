/**
 * `npm run schemas`: writes schemas/*.schema.json from the zod schemas the worker validates
 * with, and the bus announces with. tests/contract.test.ts ("the committed schemas/ files are
 * exactly what the zod schemas generate") fails when the committed files drift from them.
 */
import { writeFile } from "node:fs/promises";
import { eventJsonSchema, eventTypes, rewardGrantedJsonSchema, rewardRevokedJsonSchema } from "@rewards/core";

export const SCHEMA_FILES: Array<{ file: string; schema: () => Record<string, unknown> }> = [
  { file: "event.schema.json", schema: () => eventJsonSchema() },
  ...eventTypes.map((type) => ({ file: `${type}.schema.json`, schema: () => eventJsonSchema(type) })),
  // What the rewards bus publishes (not a reading event: producers never send it).
  { file: "reward.granted.schema.json", schema: rewardGrantedJsonSchema },
  { file: "reward.revoked.schema.json", schema: rewardRevokedJsonSchema },
];

export const schemaText = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { file, schema } of SCHEMA_FILES) {
    await writeFile(new URL(`../schemas/${file}`, import.meta.url), schemaText(schema()));
    process.stdout.write(`wrote schemas/${file}\n`);
  }
}
