import type { RulesDocument } from "@rewards/core";
import { stringify } from "yaml";
import type { PublishResult } from "./publishRules";
import type { PublishedVersion } from "./rulesVersions";

/** What `rules publish` says of a result that is not a failure. */
export function describePublish(result: PublishResult): string {
  if (result.kind === "unchanged")
    return `version ${result.version} already has this document: nothing published`;
  if (result.kind === "would_publish")
    return `would publish version ${result.version} (digest ${result.digest}); nothing written (--dry-run)`;
  if (result.kind === "published")
    return `published version ${result.version} (digest ${result.digest}) at ${result.publishedAt}`;
  return result.kind;
}

/** `rules history`: one line a version, oldest first, `*` on the one in force. */
export function describeRulesHistory(
  versions: readonly PublishedVersion[],
  inForce: number | undefined,
): string {
  if (versions.length === 0) return "no version published: the built-in rules (version 0) are in force";
  return versions
    .map(
      ({ version, publishedAt, digest, note }) =>
        `${version === inForce ? "*" : " "} ${version}  ${publishedAt}  ${digest.slice(0, 12)}${note ? `  ${note}` : ""}`,
    )
    .join("\n");
}

/** A document as YAML, the form `rules publish` takes (`rules show --yaml`). */
export function rulesYaml(document: RulesDocument): string {
  return stringify(document, { lineWidth: 0 });
}
