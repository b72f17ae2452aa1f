import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { compileVersion, versionEventJsonSchema } from "@rewards/core";
import { describeError } from "@rewards/core/aws";
import { currentRulesOrFail } from "./rulesVersions";

/** The event schemas `rewards schema` prints for a stage (docs/rules.md#operators). */
export type SchemaInForce =
  /** Nothing published: the built-in types' (the files in schemas/). */
  | { kind: "builtin" }
  | { kind: "version"; schema: Record<string, unknown> }
  | { kind: "unknown_type"; version: number; types: string[] }
  /** The rules could not be read (a missing table, a bad CURRENT): the caller says so and prints the built-in ones. */
  | { kind: "unreadable"; why: string };

/** The JSON Schema of one type (or of any event) of the version in force. */
export async function schemaInForce(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  type: string | undefined,
): Promise<SchemaInForce> {
  let compiled: ReturnType<typeof compileVersion>;
  try {
    compiled = compileVersion(await currentRulesOrFail(dynamo, tableName));
  } catch (error) {
    return { kind: "unreadable", why: describeError(error) };
  }
  if (compiled.version === 0) return { kind: "builtin" };
  const types = [...compiled.types.values()].filter((rule) => !rule.retired).map((rule) => rule.type);
  if (type !== undefined && !types.includes(type))
    return { kind: "unknown_type", version: compiled.version, types };
  return { kind: "version", schema: versionEventJsonSchema(compiled, type) };
}
