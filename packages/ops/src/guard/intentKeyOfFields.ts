import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  type CompiledType,
  compileVersion,
  describeIssues,
  intentKey,
  isEventType,
  keyPartsOf,
  quoteInput,
  rules,
  TYPE_NAME,
  toIssues,
} from "@rewards/core";
import { OperationError } from "../operationError";
import { currentRulesOrFail } from "../rules/rulesVersions";

/** A type's key from `field=value` text: a usage error (exit 2) names what is wrong. */
export class KeyFieldsError extends OperationError {}

/**
 * A site's own type's key (docs/rules.md): its key fields from text, an integer one as its
 * shortest decimal, as the worker writes it. Fields outside the key are not needed.
 */
function siteKey(rule: CompiledType, data: Readonly<Record<string, string>>): string {
  const missing = ["userId", ...rule.keyFields.map(({ name }) => name)].filter((name) => !(name in data));
  if (missing.length > 0)
    throw new KeyFieldsError(`${rule.type}'s key needs ${missing.map((name) => `${name}=…`).join(" ")}`);
  const values: Record<string, unknown> = { userId: data.userId };
  for (const { name, kind } of rule.keyFields) {
    const value = data[name] as string;
    if (kind === "integer" && !/^-?(0|[1-9]\d*)$/.test(value))
      throw new KeyFieldsError(`invalid fields for ${rule.type}: ${name}: must be a whole number`);
    values[name] = kind === "integer" ? Number(value) : value;
  }
  return intentKey(rule.keyParts(values));
}

/**
 * The intent key `rewards guard` looks up: a built-in type's from its checked fields; any other
 * type's as the version in force (retired types included) defines it. Throws KeyFieldsError for
 * bad input, naming it.
 */
export async function intentKeyOfFields(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  type: string,
  data: Readonly<Record<string, string>>,
): Promise<string> {
  if (isEventType(type)) {
    const parsed = rules[type].schema.safeParse(data);
    if (!parsed.success)
      throw new KeyFieldsError(
        `invalid fields for ${type}: ${describeIssues(toIssues(parsed.error.issues))}`,
      );
    return intentKey(keyPartsOf(type, parsed.data));
  }
  // No type name at all: no version can define it (and no table is read to say so).
  if (!TYPE_NAME.test(type))
    throw new KeyFieldsError(`unknown type ${quoteInput(type)}; one of ${Object.keys(rules).join(", ")}`);
  const version = await currentRulesOrFail(dynamo, tableName);
  const types = compileVersion(version).types;
  const rule = types.get(type);
  if (rule === undefined)
    throw new KeyFieldsError(
      `unknown type ${quoteInput(type)}; one of ${[...types.keys()].join(", ")} (rules version ${version.version})`,
    );
  return siteKey(rule, data);
}
