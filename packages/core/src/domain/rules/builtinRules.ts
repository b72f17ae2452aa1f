import type { RulesDocumentInput } from "./rulesDocument";

/**
 * The built-in rules, version 0 (docs/rules.md): the four reading types and the achievements a
 * stage has with nothing published — exactly what the fixed rules pay (a test holds them to
 * it). Published as `schemas/rules.builtin.yaml`, the place to start a site's own document.
 */
export const BUILTIN_RULES = {
  format: 1,
  types: {
    "article.completed": {
      data: { articleSlug: { type: "string", minLength: 1, maxLength: 512 } },
      key: ["articleSlug"],
      xp: 20,
      memory: 90,
      capped: true,
    },
    "article.shared": {
      data: {
        articleSlug: { type: "string", minLength: 1, maxLength: 512 },
        channel: { type: "string", minLength: 1, maxLength: 64 },
      },
      key: ["articleSlug", "channel"],
      xp: 5,
      memory: 90,
      capped: true,
    },
    "streak.day": {
      data: { day: { type: "day" } },
      key: ["day"],
      xp: 10,
      memory: 90,
      capped: true,
      day: "day",
      keepsStreak: true,
    },
    "signup.completed": {
      data: {},
      key: [],
      xp: 100,
      memory: "forever",
      // A welcome, not earning: the daily cap never cuts it.
      capped: false,
    },
  },
  campaigns: [],
  achievements: [
    { id: "first-article", title: "First article", when: { count: "article.completed", reaches: 1 } },
    { id: "articles-10", title: "Ten articles", when: { count: "article.completed", reaches: 10 } },
    { id: "articles-100", title: "A hundred articles", when: { count: "article.completed", reaches: 100 } },
    { id: "first-share", title: "First share", when: { count: "article.shared", reaches: 1 } },
    { id: "streak-7", title: "A week in a row", when: { streak: 7 } },
    { id: "streak-30", title: "A month in a row", when: { streak: 30 } },
  ],
} as const satisfies RulesDocumentInput;

/** The version a stage with nothing published reports. */
export const BUILTIN_RULES_VERSION = 0;
