import { type CloudWatchClient, DescribeAlarmsCommand, type MetricAlarm } from "@aws-sdk/client-cloudwatch";

export interface AlarmInAlarm {
  name: string;
  /** CloudWatch's own words for why (`Threshold Crossed: 1 datapoint [3.0 …] was greater than …`). */
  reason: string;
  /** When it went into ALARM, ISO; null when CloudWatch does not say. */
  since: string | null;
}

export interface StageAlarms {
  /** The stage's alarms CloudWatch knows. */
  alarms: number;
  inAlarm: AlarmInAlarm[];
  /** Names in the list CloudWatch does not know (deleted, or another region's). */
  missing: string[];
}

/** DescribeAlarms takes at most 100 names a call. */
const NAMES_PER_CALL = 100;

/** Pure: the stage's alarms as CloudWatch described them, those in ALARM first by name. */
export function stageAlarmsOf(names: readonly string[], described: readonly MetricAlarm[]): StageAlarms {
  const known = new Set(described.map((alarm) => alarm.AlarmName));
  return {
    alarms: described.length,
    inAlarm: described
      .filter((alarm) => alarm.StateValue === "ALARM")
      .map((alarm) => ({
        name: alarm.AlarmName ?? "",
        reason: alarm.StateReason ?? "",
        since: alarm.StateUpdatedTimestamp?.toISOString() ?? null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    missing: names.filter((name) => !known.has(name)),
  };
}

/**
 * The states of the stage's own alarms, by name: alarm names carry no stage (SST adds a random
 * suffix to each), so the deploy's `alarmNames` output is the list, and another stage's alarms
 * in the same account are never shown.
 */
export async function stageAlarms(
  cloudwatch: CloudWatchClient,
  names: readonly string[],
): Promise<StageAlarms> {
  const described: MetricAlarm[] = [];
  for (let i = 0; i < names.length; i += NAMES_PER_CALL) {
    let token: string | undefined;
    do {
      const page = await cloudwatch.send(
        new DescribeAlarmsCommand({
          AlarmNames: names.slice(i, i + NAMES_PER_CALL),
          ...(token ? { NextToken: token } : {}),
        }),
      );
      described.push(...(page.MetricAlarms ?? []));
      token = page.NextToken;
    } while (token);
  }
  return stageAlarmsOf(names, described);
}
