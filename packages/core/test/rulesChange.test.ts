import { describe, expect, it } from "vitest";
import {
  checkRulesChange,
  longerMemory,
  longestMemoryAfter,
  memoryOf,
} from "../src/domain/rules/checkRulesChange";
import { rollbackRules } from "../src/domain/rules/rollbackRules";
import type { RulesDocument } from "../src/domain/rules/rulesDocument";
import { builtinWith } from "./rulesFixtures";

const documentOf = builtinWith;
const NOW = Date.parse("2026-12-05T12:00:00Z");
const builtin = documentOf();
const against = (current: RulesDocument, next: RulesDocument, longest = memoryOf(current)) =>
  checkRulesChange(next, { current, longestMemory: longest, now: NOW });

const podcast = (memory: number | "forever" = 30) => ({
  data: {
    show: { type: "string" },
    episode: { type: "integer", minimum: 1 },
    minutes: { type: "integer", minimum: 0 },
  },
  key: ["show", "episode"],
  xp: { per: "minutes", each: 1, max: 60 },
  memory,
});

describe("checkRulesChange: what a new version may not change", () => {
  it("the same document, a new type, a retired type, new bounds and XP: nothing to refuse", () => {
    const next = documentOf((document) => {
      document.types["podcast.listened"] = podcast();
      (document.types["article.shared"] as { retired?: boolean }).retired = true;
      (document.types["article.completed"] as { xp: number }).xp = 25;
      (document.types["article.completed"] as { data: Record<string, unknown> }).data.articleSlug = {
        type: "string",
        maxLength: 200,
      };
      (document.types["article.completed"] as { memory: number }).memory = 60;
      document.achievements.push({
        id: "podcaster",
        title: "Podcaster",
        when: { count: "podcast.listened", reaches: 5 },
      });
    });
    expect(against(builtin, builtin)).toEqual({ problems: [], warnings: [] });
    expect(against(builtin, next)).toEqual({ problems: [], warnings: [] });
  });

  it("a key, a key field's kind or the day field changed: the meaning of an intent key is fixed forever", () => {
    const current = documentOf((document) => {
      document.types["podcast.listened"] = podcast();
    });
    const next = documentOf((document) => {
      document.types["podcast.listened"] = {
        ...podcast(),
        data: { ...podcast().data, episode: { type: "string" } },
      };
      (document.types["article.shared"] as { key: string[] }).key = ["articleSlug"];
      const streak = document.types["streak.day"] as Record<string, unknown>;
      streak.data = { day: { type: "day" }, on: { type: "day" } };
      streak.key = ["day"];
      streak.day = "day";
      document.types["streak.day"] = { ...streak, key: ["on"], day: "on" };
    });
    expect(against(current, next).problems).toEqual([
      {
        path: 'types["article.shared"].key',
        why: "the key is fixed forever (was [articleSlug, channel]): a changed key pays each reading again",
      },
      {
        path: 'types["streak.day"].key',
        why: "the key is fixed forever (was [day]): a changed key pays each reading again",
      },
      { path: 'types["streak.day"].day', why: "the day an intent is about is fixed forever (was day)" },
      {
        path: 'types["podcast.listened"].data.episode.type',
        why: "a key field's kind is fixed forever (was integer, key[1])",
      },
    ]);
  });

  it("memory past the longest it has ever had: shrinking is free, growing back to the longest too, past it refused", () => {
    const at = (memory: number | "forever") =>
      documentOf((document) => {
        document.types["podcast.listened"] = { ...podcast(memory), capped: false };
      });
    const longest = longestMemoryAfter(memoryOf(builtin), at(60));
    expect(longest["podcast.listened"]).toBe(60);
    // 60, then 10: the longest stays 60.
    const after = longestMemoryAfter(longest, at(10));
    expect(after["podcast.listened"]).toBe(60);
    expect(against(at(10), at(60), after).problems).toEqual([]);
    expect(against(at(10), at(61), after).problems).toEqual([
      {
        path: 'types["podcast.listened"].memory',
        why: "at most 60 days, the longest it has ever had: a replay of a reading whose guard is already gone would pay again",
      },
    ]);
    expect(against(at(10), at("forever"), after).problems).toHaveLength(1);
    expect(longerMemory("forever", 5)).toBe(true);
    expect(longerMemory(5, "forever")).toBe(false);
    expect(longerMemory("forever", "forever")).toBe(false);
  });

  it("a type or an achievement removed, an achievement's condition changed, the format gone back", () => {
    const next = documentOf((document) => {
      delete document.types["article.shared"];
      document.achievements = document.achievements.filter(
        (achievement) => achievement.id !== "first-share" && achievement.id !== "first-article",
      );
      (document.achievements[0] as { when: unknown }).when = { count: "article.completed", reaches: 11 };
    });
    expect(against({ ...builtin, format: 2 }, next).problems).toEqual([
      { path: "format", why: "the format never goes back (the version in force is format 2)" },
      { path: 'types["article.shared"]', why: "a type is never removed: set retired: true" },
      { path: "achievements", why: "first-article is never removed: set retired: true" },
      {
        path: "achievements[0].when",
        why: 'articles-10\'s condition is fixed (was {"count":"article.completed","reaches":10}): give a new one a new id',
      },
      { path: "achievements", why: "first-share is never removed: set retired: true" },
    ]);
  });

  it("a retired achievement stays retired: un-retired, the instants of its retirement would count after the fact", () => {
    const fan = { id: "fan", title: "Fan", when: { xp: 30 } };
    const retired = documentOf((document) => {
      document.achievements.push({ ...fan, retired: true });
    });
    const back = documentOf((document) => {
      document.achievements.push(fan);
    });
    expect(against(retired, back).problems).toEqual([
      {
        path: "achievements[6].retired",
        why: "fan is retired for good: instants while it was retired would count after the fact (give a new one a new id)",
      },
    ]);
    // Rollback to a version before the retirement keeps it retired.
    const rolled = rollbackRules(back, { current: retired, longestMemory: memoryOf(retired), now: NOW });
    expect(rolled.achievements.find((achievement) => achievement.id === "fan")?.retired).toBe(true);
  });

  it("campaigns: a new one never reaches back; a begun one is frozen but may end earlier, not before now; dropped only when no replay can meet it", () => {
    const weekend = {
      id: "weekend",
      title: "Double XP weekend",
      types: ["article.completed"],
      from: "2026-12-05T00:00:00Z",
      to: "2026-12-07T00:00:00Z",
      multiplier: 2,
    };
    const withCampaigns = (...campaigns: Array<Record<string, unknown>>) =>
      documentOf((document) => {
        document.campaigns = campaigns;
      });
    // New, from before the publish.
    expect(against(builtin, withCampaigns(weekend)).problems).toEqual([
      {
        path: "campaigns[0].from",
        why: "not before the publish: a campaign never reaches back past awards already paid",
      },
    ]);
    const begun = withCampaigns(weekend);
    expect(
      against(begun, withCampaigns({ ...weekend, title: "Renamed", to: "2026-12-06T00:00:00Z" })).problems,
    ).toEqual([]);
    expect(
      against(
        begun,
        withCampaigns({ ...weekend, multiplier: 3, types: ["article.shared"], to: "2026-12-08T00:00:00Z" }),
      ).problems,
    ).toEqual([
      { path: "campaigns[0].types", why: 'frozen once the campaign has begun (was ["article.completed"])' },
      { path: "campaigns[0].multiplier", why: "frozen once the campaign has begun (was 2)" },
      { path: "campaigns[0].to", why: "may only come earlier (was 2026-12-07T00:00:00Z)" },
    ]);
    expect(against(begun, withCampaigns({ ...weekend, to: "2026-12-05T11:00:00Z" })).problems).toEqual([
      { path: "campaigns[0].to", why: "not before now: awards already paid under it keep what it gave" },
    ]);
    expect(against(begun, withCampaigns()).problems).toEqual([
      {
        path: "campaigns",
        why: "weekend may be dropped only once its to plus its types' longest memory has passed: a replay could still meet it",
      },
    ]);
    // Ended 91 days ago, its type remembers 90: no replay can meet it.
    const old = { ...weekend, from: "2026-08-01T00:00:00Z", to: "2026-09-05T00:00:00Z" };
    expect(against(withCampaigns(old), withCampaigns()).problems).toEqual([]);
    // Not begun: free to change, but not to reach back.
    const coming = { ...weekend, from: "2026-12-06T00:00:00Z" };
    expect(against(withCampaigns(coming), withCampaigns({ ...coming, multiplier: 3 })).problems).toEqual([]);
    expect(against(withCampaigns(coming), withCampaigns()).problems).toEqual([]);
  });

  it("warns when a new type takes the key of a type retired in the same version (a rename pays each reading twice)", () => {
    const next = documentOf((document) => {
      (document.types["article.shared"] as { retired?: boolean }).retired = true;
      document.types["article.posted"] = {
        data: {
          articleSlug: { type: "string" },
          channel: { type: "string" },
        },
        key: ["articleSlug", "channel"],
        xp: 5,
        memory: 90,
      };
    });
    expect(against(builtin, next)).toEqual({
      problems: [],
      warnings: [
        {
          path: 'types["article.posted"]',
          why: "its key is article.shared's, retired in this version: a rename pays each reading once under each name",
        },
      ],
    });
  });
});
