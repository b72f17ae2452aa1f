import { describe, expect, it } from "vitest";
import { campaignBanner, rulesFrom, runningCampaigns, typeWords, untilWords } from "../src/campaigns";

const NOW = new Date("2026-12-04T12:00:00.000Z"); // a Friday
const podcasts = {
  id: "podcast-week",
  title: "Podcast week",
  types: ["podcast.listened"],
  from: "2026-12-01T00:00:00+01:00",
  to: "2026-12-06T18:00:00+01:00",
  multiplier: 2,
};

describe("rulesFrom", () => {
  it("reads GET /rules' campaigns and ignores the fields it does not read", () => {
    const body = {
      version: 7,
      publishedAt: "2026-12-01T00:00:00.000Z",
      types: [{ type: "podcast.listened", xp: 5, memory: 90 }],
      achievements: [{ id: "first-article", title: "First article" }],
      campaigns: [{ ...podcasts, extra: "ignored" }],
      future: true,
    };
    expect(rulesFrom(body)).toEqual({ version: 7, campaigns: [podcasts] });
  });

  it("drops a campaign it cannot read and keeps the others; a body that is not the rules is undefined", () => {
    const bad = [
      { ...podcasts, id: 1 },
      { ...podcasts, title: " " },
      { ...podcasts, types: "podcast.listened" },
      { ...podcasts, from: "soon" },
      { ...podcasts, to: podcasts.from },
      { ...podcasts, multiplier: 1.5 },
      { ...podcasts, bonus: 0 },
      null,
      "campaign",
    ];
    expect(rulesFrom({ version: 1, campaigns: [...bad, podcasts] })).toEqual({
      version: 1,
      campaigns: [podcasts],
    });
    for (const body of [undefined, null, "rules", [], { version: 1 }, { campaigns: {} }])
      expect(rulesFrom(body)).toBeUndefined();
  });
});

describe("runningCampaigns", () => {
  it("keeps the campaigns whose [from, to) holds now, ending soonest first, three at most", () => {
    const at = (id: string, from: string, to: string) => ({ ...podcasts, id, from, to });
    const campaigns = [
      at("later", "2026-12-04T12:00:00.000Z", "2026-12-10T00:00:00.000Z"), // from = now: running
      at("past", "2026-11-01T00:00:00.000Z", "2026-12-04T12:00:00.000Z"), // to = now: over
      at("coming", "2026-12-05T00:00:00.000Z", "2026-12-06T00:00:00.000Z"),
      at("sooner", "2026-12-01T00:00:00.000Z", "2026-12-05T00:00:00.000Z"),
      at("b-tie", "2026-12-01T00:00:00.000Z", "2026-12-08T00:00:00.000Z"),
      at("a-tie", "2026-12-01T00:00:00.000Z", "2026-12-08T00:00:00.000Z"),
    ];
    expect(runningCampaigns(campaigns, NOW).map(({ id }) => id)).toEqual(["sooner", "a-tie", "b-tie"]);
    expect(runningCampaigns([], NOW)).toEqual([]);
  });
});

describe("campaignBanner", () => {
  it("says what it pays, on what, until when in the reader's zone, naming it", () => {
    expect(campaignBanner(podcasts, NOW, "UTC")).toEqual({
      id: "podcast-week",
      title: "Podcast week",
      offer: "Double XP on podcasts until Sun 17:00 (UTC)",
    });
    expect(campaignBanner(podcasts, NOW, "Europe/Paris").offer).toBe(
      "Double XP on podcasts until Sun 18:00 (Europe/Paris)",
    );
  });

  it("words multipliers and bonuses, built-in and site types", () => {
    const offer = (overrides: object) => campaignBanner({ ...podcasts, ...overrides }, NOW, "UTC").offer;
    expect(offer({ multiplier: 3, types: ["article.completed", "article.shared"] })).toBe(
      "Triple XP on articles read and shares until Sun 17:00 (UTC)",
    );
    expect(offer({ multiplier: 5, types: ["streak.day"] })).toBe(
      "5× XP on reading days until Sun 17:00 (UTC)",
    );
    const { multiplier: _, ...bonusOnly } = podcasts;
    expect(
      campaignBanner(
        { ...bonusOnly, bonus: 10, types: ["quiz.passed", "podcast.listened", "podcast.shared"] },
        NOW,
        "UTC",
      ).offer,
    ).toBe("+10 XP on quiz.passed and podcasts until Sun 17:00 (UTC)");
    expect(offer({ types: [] })).toBe("Double XP until Sun 17:00 (UTC)");
  });

  it("names the date too when the end is a week or more away", () => {
    expect(untilWords("2026-12-20T18:00:00.000Z", NOW, "UTC")).toBe("Sun 20 Dec 18:00");
    expect(untilWords("2026-12-10T11:59:00.000Z", NOW, "UTC")).toBe("Thu 11:59");
    expect(untilWords("2026-12-05T00:00:00.000Z", NOW, "Pacific/Kiritimati")).toBe("Sat 14:00");
  });

  it("turns a site type into words only when its first word is a plain one", () => {
    expect(typeWords("podcast.listened")).toBe("podcasts");
    expect(typeWords("quiz.passed")).toBe("quiz.passed");
    expect(typeWords("story.read")).toBe("story.read");
    expect(typeWords("comment-thread.posted")).toBe("comment-thread.posted");
    expect(typeWords("signup.completed")).toBe("sign-ups");
  });
});
