import { RULES_PK } from "@rewards/core/deploy";

/**
 * Reading the site's rules (docs/rules.md#at-run-time): `CURRENT` and a `V#` item (GetItem), and
 * the last version when `CURRENT` is missing (Query) — on `pk = RULES` alone, by leading key, so
 * a function that pays never reads beyond them by this grant. Writing them is the publishing
 * role's alone (docs/deploying.md).
 */
export function rulesReadPermission<T>(tableArn: T) {
  return {
    actions: ["dynamodb:GetItem", "dynamodb:Query"],
    resources: [tableArn],
    conditions: [{ test: "ForAllValues:StringEquals", variable: "dynamodb:LeadingKeys", values: [RULES_PK] }],
  };
}
