import { plural } from "@rewards/core";
import type { ReadersRepair } from "@rewards/ops";
import { describeProgress } from "./describeProgress";
import { describeRebuild } from "./describeRebuild";
import { describeWeeks } from "./describeWeeks";

/** A repair's passes, each as its own text says it, then a line if it was stopped part-way. */
export function describeRepair(report: ReadersRepair): string {
  const parts = [
    report.history ? describeRebuild(report.history) : "",
    report.progress ? describeProgress(report.progress) : "",
    report.weeks ? describeWeeks(report.weeks) : "",
  ];
  if (report.interrupted)
    parts.push(
      `interrupted after reading ${plural(report.read.items, "item")}: what is above was done; run it again to finish (a second run writes only what is still missing)\n`,
    );
  return parts.join("");
}
