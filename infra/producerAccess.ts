import { eventTypes } from "@rewards/core/deploy";
import type { DeploySettings } from "./deploySettings";

/**
 * How producers outside this stack reach the events queue, from the deploy settings: SNS
 * topics it subscribes to (raw message delivery off: the worker unwraps the notification),
 * an EventBridge bus whose rule sends the four event types to it (input untransformed: the
 * worker unwraps the event), and accounts allowed to send directly. The queue's policy
 * allows exactly those — each service only for the named topics and the rule
 * (`aws:SourceArn`), each account by name — and without any of them there is no policy:
 * only this account's own principals, by their IAM policies, can send.
 */
export function producerAccess(
  queue: { arn: $util.Output<string>; url: $util.Output<string> },
  settings: DeploySettings,
) {
  const statements: unknown[] = [];
  settings.snsTopicArns.forEach((topicArn, i) => {
    new aws.sns.TopicSubscription(`EventsFromTopic${i + 1}`, {
      topic: topicArn,
      protocol: "sqs",
      endpoint: queue.arn,
      rawMessageDelivery: false,
    });
  });
  if (settings.snsTopicArns.length > 0) {
    statements.push({
      Sid: "FromSubscribedTopics",
      Effect: "Allow",
      Principal: { Service: "sns.amazonaws.com" },
      Action: "sqs:SendMessage",
      Resource: queue.arn,
      Condition: { ArnEquals: { "aws:SourceArn": settings.snsTopicArns } },
    });
  }
  let ruleArn: $util.Output<string> | undefined;
  if (settings.eventBridgeBus) {
    const rule = new aws.cloudwatch.EventRule("EventsFromBus", {
      eventBusName: settings.eventBridgeBus,
      description: "Reading events for the rewards queue",
      eventPattern: JSON.stringify({
        "detail-type": eventTypes,
        ...(settings.eventBridgeSources.length > 0 ? { source: settings.eventBridgeSources } : {}),
      }),
    });
    new aws.cloudwatch.EventTarget("EventsFromBusTarget", {
      rule: rule.name,
      eventBusName: settings.eventBridgeBus,
      arn: queue.arn,
    });
    ruleArn = rule.arn;
    statements.push({
      Sid: "FromEventBridgeRule",
      Effect: "Allow",
      Principal: { Service: "events.amazonaws.com" },
      Action: "sqs:SendMessage",
      Resource: queue.arn,
      Condition: { ArnEquals: { "aws:SourceArn": rule.arn } },
    });
  }
  if (settings.producerAccounts.length > 0) {
    statements.push({
      Sid: "FromProducerAccounts",
      Effect: "Allow",
      Principal: { AWS: settings.producerAccounts.map((account) => `arn:aws:iam::${account}:root`) },
      Action: "sqs:SendMessage",
      Resource: queue.arn,
    });
  }
  if (statements.length > 0) {
    new aws.sqs.QueuePolicy("EventsProducers", {
      queueUrl: queue.url,
      policy: $jsonStringify({ Version: "2012-10-17", Statement: statements }),
    });
  }
  return { eventBridgeRuleArn: ruleArn };
}
