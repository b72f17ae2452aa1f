import { eventTypes } from "@rewards/core/deploy";
import { beforeAll, describe, expect, it } from "vitest";
import { deploySettings } from "../deploySettings";
import { all, one } from "./helpers";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

const TOPICS = [
  "arn:aws:sns:us-east-1:123456789012:reading-events",
  "arn:aws:sns:us-east-1:210987654321:partner-reading",
];
let run: ProgramRun;
let bare: ProgramRun;

beforeAll(async () => {
  run = await runSstProgram("producers", {
    REWARDS_SNS_TOPIC_ARNS: TOPICS.join(", "),
    REWARDS_EVENTBRIDGE_BUS: "reading-events",
    REWARDS_EVENTBRIDGE_SOURCES: "com.example.reader",
    REWARDS_PRODUCER_ACCOUNTS: "111111111111,222222222222",
  });
  bare = await runSstProgram("plain");
});

const queueArn = /EventsQueue$/;

describe("producers outside the stack: SNS topics, an EventBridge bus, other accounts", () => {
  it("subscribes the queue to each named topic, raw delivery off (the worker unwraps notifications)", () => {
    expect(all(run, "aws:sns/topicSubscription:TopicSubscription").map((s) => [s.name, s.inputs])).toEqual(
      TOPICS.map((topic, i) => [
        `EventsFromTopic${i + 1}`,
        { topic, protocol: "sqs", endpoint: expect.stringMatching(queueArn), rawMessageDelivery: false },
      ]),
    );
  });

  it("a rule on the bus sends the four reading types (of the named sources) to the queue, untransformed", () => {
    const rule = one(run, "aws:cloudwatch/eventRule:EventRule", "EventsFromBus");
    expect(rule.inputs.eventBusName).toBe("reading-events");
    expect(JSON.parse(rule.inputs.eventPattern as string)).toEqual({
      "detail-type": eventTypes,
      source: ["com.example.reader"],
    });
    const target = one(run, "aws:cloudwatch/eventTarget:EventTarget", "EventsFromBusTarget");
    expect(target.inputs).toEqual({
      rule: "EventsFromBus",
      eventBusName: "reading-events",
      arn: expect.stringMatching(queueArn),
    });
  });

  it("the queue's policy allows exactly those: the topics, the rule, the accounts, and nothing else", () => {
    const policy = one(run, "aws:sqs/queuePolicy:QueuePolicy", "EventsProducers");
    expect(policy.inputs.queueUrl).toMatch(/EventsQueue$/);
    const document = JSON.parse(policy.inputs.policy as string);
    const resource = expect.stringMatching(queueArn);
    expect(document).toEqual({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "FromSubscribedTopics",
          Effect: "Allow",
          Principal: { Service: "sns.amazonaws.com" },
          Action: "sqs:SendMessage",
          Resource: resource,
          Condition: { ArnEquals: { "aws:SourceArn": TOPICS } },
        },
        {
          Sid: "FromEventBridgeRule",
          Effect: "Allow",
          Principal: { Service: "events.amazonaws.com" },
          Action: "sqs:SendMessage",
          Resource: resource,
          Condition: { ArnEquals: { "aws:SourceArn": expect.stringMatching(/EventsFromBus$/) } },
        },
        {
          Sid: "FromProducerAccounts",
          Effect: "Allow",
          Principal: { AWS: ["arn:aws:iam::111111111111:root", "arn:aws:iam::222222222222:root"] },
          Action: "sqs:SendMessage",
          Resource: resource,
        },
      ],
    });
  });

  it("without those settings: no subscription, no rule, no queue policy, no bus policy (only this account's principals can send or add rules)", () => {
    for (const type of [
      "aws:sns/topicSubscription:TopicSubscription",
      "aws:cloudwatch/eventRule:EventRule",
      "aws:cloudwatch/eventTarget:EventTarget",
      "aws:sqs/queuePolicy:QueuePolicy",
      "aws:cloudwatch/eventBusPolicy:EventBusPolicy",
    ]) {
      expect(all(bare, type).map((r) => r.name)).toEqual([]);
    }
  });

  it("a bad ARN, bus or account stops the deploy, naming the variable and the value", () => {
    expect(() => deploySettings({ REWARDS_SNS_TOPIC_ARNS: "arn:aws:sqs:us-east-1:123456789012:q" })).toThrow(
      "REWARDS_SNS_TOPIC_ARNS must be comma-separated SNS topic ARNs, not arn:aws:sqs:us-east-1:123456789012:q",
    );
    expect(() => deploySettings({ REWARDS_PRODUCER_ACCOUNTS: "1234" })).toThrow(
      "REWARDS_PRODUCER_ACCOUNTS must be comma-separated 12-digit account ids, not 1234",
    );
    expect(() => deploySettings({ REWARDS_EVENTBRIDGE_BUS: "bad bus!" })).toThrow(
      "REWARDS_EVENTBRIDGE_BUS must be a bus name or ARN",
    );
  });
});
