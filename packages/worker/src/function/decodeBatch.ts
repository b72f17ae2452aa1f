import { builtinCompiled, type CompiledRules, decodeEvent } from "@rewards/core";
import type { RulesSource } from "@rewards/core/aws";
import type { SQSRecord } from "aws-lambda";
import type { WorkItem } from "./planGroups";

const unknownType = (item: WorkItem): boolean =>
  !item.decoded.ok && item.decoded.park.code === "unknown_type";

function decodeUnder(record: SQSRecord, rules: CompiledRules): WorkItem {
  return { record, decoded: decodeEvent(record.body, rules), rules };
}

/**
 * A batch's records decoded under one version of the rules, taken at its start
 * (docs/rules.md#at-run-time). A record of a type that version does not pay makes the worker
 * read `CURRENT` again — once a batch — and judge those records again under what it finds (a
 * type published since the function last looked); still unknown, they are parked
 * `unknown_type`, naming the version. Without a rules source: version 0, the built-in rules.
 * Throws NoGoodRulesError when there is no version to judge by: every record fails, none is
 * judged under version 0 by default.
 */
export async function decodeBatch(
  rules: RulesSource | undefined,
  records: readonly SQSRecord[],
): Promise<WorkItem[]> {
  const batchRules = rules === undefined ? builtinCompiled() : (await rules.forBatch()).compiled;
  const items = records.map((record) => decodeUnder(record, batchRules));
  if (rules === undefined || !items.some(unknownType)) return items;
  const again = (await rules.reread()).compiled;
  if (again.version === batchRules.version) return items;
  return items.map((item) => (unknownType(item) ? decodeUnder(item.record, again) : item));
}
