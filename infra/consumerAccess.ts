import type { DeploySettings } from "./deploySettings";

/** What a consumer account may do on the bus: manage rules and their targets, nothing else. */
export const consumerRuleActions = [
  "events:PutRule",
  "events:DeleteRule",
  "events:DescribeRule",
  "events:EnableRule",
  "events:DisableRule",
  "events:PutTargets",
  "events:RemoveTargets",
  "events:ListTargetsByRule",
];

// EventBridge fills in the caller's account: each account manages only the rules it created.
// biome-ignore lint/suspicious/noTemplateCurlyInString: an IAM policy variable, not a template.
const CALLER_ACCOUNT = "${aws:PrincipalAccount}";

/**
 * Consumers of reward.granted in other accounts: the bus's resource policy lets each named
 * account create rules on the rewards bus (their targets are theirs to choose) and manage
 * the rules it created — not another account's, not this stack's, and no PutEvents: only
 * the announcer publishes. Without the setting there is no bus policy: only this account's
 * principals, by their IAM policies, can add rules.
 */
export function consumerAccess(
  bus: { name: $util.Output<string> },
  settings: DeploySettings,
): { busPolicy: aws.cloudwatch.EventBusPolicy | undefined } {
  if (settings.consumerAccounts.length === 0) return { busPolicy: undefined };
  const partition = aws.getPartitionOutput().partition;
  const region = aws.getRegionOutput().name;
  const account = aws.getCallerIdentityOutput().accountId;
  const busPolicy = new aws.cloudwatch.EventBusPolicy("RewardsBusConsumers", {
    eventBusName: bus.name,
    policy: $jsonStringify({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "ConsumerAccountsManageTheirOwnRules",
          Effect: "Allow",
          Principal: { AWS: settings.consumerAccounts.map((id) => `arn:aws:iam::${id}:root`) },
          Action: consumerRuleActions,
          Resource: $interpolate`arn:${partition}:events:${region}:${account}:rule/${bus.name}/*`,
          Condition: { StringEqualsIfExists: { "events:creatorAccount": CALLER_ACCOUNT } },
        },
      ],
    }),
  });
  return { busPolicy };
}
