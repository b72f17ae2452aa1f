import { defineCommand } from "../../runtime/defineCommand";
import { jsonText, pairsText } from "../../runtime/text";

export default defineCommand<{ json?: boolean }>()({
  meta: {
    name: "stats",
    description: "messages visible, in flight (being processed), delayed, and the age of the oldest",
  },
  options: (command) => command.option("--json", "print JSON"),
  needs: ["QUEUE_URL"],
  async run({ options, config }) {
    const { clientsFor, cloudwatchFor, oldestMessageAge, queueCounts } = await import("@rewards/ops");
    const counts = await queueCounts(clientsFor(config).sqs, config.QUEUE_URL);
    const cloudwatch = cloudwatchFor(config);
    const age = cloudwatch
      ? await oldestMessageAge(cloudwatch, config.QUEUE_URL)
      : { unknown: "needs CloudWatch, which the local stack does not have" };
    if (options.json)
      return { out: jsonText({ ...counts, oldestAgeSeconds: "seconds" in age ? age.seconds : null }) };
    return {
      out: pairsText({
        visible: counts.visible,
        "in flight": counts.inFlight,
        delayed: counts.delayed,
        "oldest message": "seconds" in age ? `${age.seconds} s` : `unknown (${age.unknown})`,
      }),
    };
  },
});
