import { beforeAll, describe, expect, it } from "vitest";
import { consumerRuleActions } from "../consumerAccess";
import { deploySettings } from "../deploySettings";
import { one } from "./helpers";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

let run: ProgramRun;

beforeAll(async () => {
  run = await runSstProgram("consumers", { REWARDS_CONSUMER_ACCOUNTS: "333333333333,444444444444" });
});

describe("consumers in other accounts: the rewards bus's policy", () => {
  it("lets each named account manage rules on the bus, only those it created, and nothing else", () => {
    const policy = one(run, "aws:cloudwatch/eventBusPolicy:EventBusPolicy", "RewardsBusConsumers");
    // SST names the bus <app>-<stage>-RewardsBusBus-<random suffix, chosen once at creation>.
    const busName = policy.inputs.eventBusName as string;
    expect(busName).toMatch(/^rewards-consumers-RewardsBusBus-\w+$/);
    expect(JSON.parse(policy.inputs.policy as string)).toEqual({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "ConsumerAccountsManageTheirOwnRules",
          Effect: "Allow",
          Principal: { AWS: ["arn:aws:iam::333333333333:root", "arn:aws:iam::444444444444:root"] },
          Action: [
            "events:PutRule",
            "events:DeleteRule",
            "events:DescribeRule",
            "events:EnableRule",
            "events:DisableRule",
            "events:PutTargets",
            "events:RemoveTargets",
            "events:ListTargetsByRule",
          ],
          Resource: `arn:aws:events:us-east-1:123456789012:rule/${busName}/*`,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: an IAM policy variable, not a template.
          Condition: { StringEqualsIfExists: { "events:creatorAccount": "${aws:PrincipalAccount}" } },
        },
      ],
    });
    // Publishing stays the announcer's alone.
    expect(consumerRuleActions).not.toContain("events:PutEvents");
  });

  it("a bad account id stops the deploy, naming the variable and the value", () => {
    expect(() => deploySettings({ REWARDS_CONSUMER_ACCOUNTS: "33333333333x" })).toThrow(
      "REWARDS_CONSUMER_ACCOUNTS must be comma-separated 12-digit account ids, not 33333333333x",
    );
  });
});
