import { describe, expect, it } from "vitest";
import type { SiteRules } from "../src/campaigns";
import type { ReadApiClient } from "../src/readApiClient";
import { ReadApiError } from "../src/readApiError";
import { createSiteApp, RULES_GRACE_MS } from "../src/siteApp";
import { achievementsOf, awardOf, awardsOf, boardOf, profileOf } from "./fixtures";

/** A read API client answering from fixtures, or failing each call with `failure`; `rules` answers GET /rules. */
function apiOf(
  failure?: (call: string) => Error | undefined,
  rules: () => Promise<SiteRules | undefined> = async () => undefined,
): ReadApiClient & { calls: string[] } {
  const calls: string[] = [];
  const answer = <T>(call: string, value: T) => {
    calls.push(call);
    const error = failure?.(call);
    return error ? Promise.reject(error) : Promise.resolve(value);
  };
  return {
    calls,
    profile: (userId, timeZone) => answer(`profile ${userId} ${timeZone}`, profileOf({ userId })),
    awards: (userId, limit) => answer(`awards ${userId} ${limit}`, awardsOf(awardOf())),
    achievements: (userId) => answer(`achievements ${userId}`, achievementsOf("first-article")),
    board: (limit) => answer(`board ${limit}`, boardOf({ rank: 1, userId: "bob", xp: 200 })),
    rules: () => {
      calls.push("rules");
      const error = failure?.("rules");
      return error ? Promise.reject(error) : rules();
    },
  };
}

const NOW = new Date("2026-12-04T12:00:00.000Z");
const clock = () => NOW;
const doubleXp = {
  id: "podcast-week",
  title: "Podcast week",
  types: ["podcast.listened"],
  from: "2026-12-01T00:00:00.000Z",
  to: "2026-12-06T17:00:00.000Z",
  multiplier: 2,
};
const banner = '<aside class="campaign"';

describe("the reader's page", () => {
  it("without a user, asks for one and reads nothing", async () => {
    const api = apiOf();
    const response = await createSiteApp({ api }).request("/");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<label for="user">Reader id</label>');
    expect(api.calls).toEqual([]);
  });

  it("reads the four answers for ?user= and shows them, with no-store and a CSP that runs no script", async () => {
    const api = apiOf();
    const response = await createSiteApp({ api }).request("/?user=ann&timeZone=Europe/Paris");
    expect(response.status).toBe(200);
    expect(api.calls.sort()).toEqual([
      "achievements ann",
      "awards ann 10",
      "board 10",
      "profile ann Europe/Paris",
      "rules",
    ]);
    const page = await response.text();
    expect(page).toContain('<span class="figure" data-field="xp">170</span>');
    expect(page).toContain("Finished “how-to-read”");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-security-policy")).toMatch(
      /^default-src 'none'; style-src 'sha256-/,
    );
  });

  it("keeps the zone in the form and names it where it says today; an empty zone field asks for none (UTC)", async () => {
    const clock = () => new Date("2026-12-04T23:30:00.000Z");
    const paris = await createSiteApp({ api: apiOf(), clock }).request("/?user=ann&timeZone=europe/paris");
    const page = await paris.text();
    expect(page).toContain('<input id="timeZone" name="timeZone" value="Europe/Paris"');
    expect(page).toContain("(days in Europe/Paris)");
    expect(page).toContain("(2026-12-05 in Europe/Paris)");
    expect(page).toMatch(
      /Today <span class="note">\(<time class="date" datetime="2026-12-04">2026-12-04<\/time> in UTC\)/,
    );
    expect(page).toContain("The daily cap counts days in UTC; your streak counts them in Europe/Paris");
    const api = apiOf();
    const none = await (await createSiteApp({ api, clock }).request("/?user=ann&timeZone=")).text();
    expect(api.calls).toContain("profile ann undefined");
    expect(none).toContain('<input id="timeZone" name="timeZone" value=""');
    expect(none).toContain("(days in UTC)");
    expect(none).not.toContain("The daily cap counts days in UTC");
    // Without a reader yet, or refused, the form still holds the zone asked.
    const ask = await (await createSiteApp({ api: apiOf() }).request("/?timeZone=Asia/Tokyo")).text();
    expect(ask).toContain('value="Asia/Tokyo"');
    const refusing = apiOf((call) =>
      call.startsWith("profile")
        ? new ReadApiError("refused", 'timeZone: not "Mars/Olympus"', 400, "timeZone")
        : undefined,
    );
    const refused = await createSiteApp({ api: refusing }).request("/?user=ann&timeZone=Mars/Olympus");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('value="Mars/Olympus"');
  });

  it("a zone the API took but this page does not know is a 400 page saying so, with no reader's data", async () => {
    // The stand-in API takes any zone; the page reads its own today in it, so it must know it.
    const response = await createSiteApp({ api: apiOf(), clock }).request("/?user=ann&timeZone=Mars/Olympus");
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain(
      "We cannot show these rewards: timeZone: this page does not know the zone the API took",
    );
    expect(page).not.toContain("data-field");
  });

  it("escapes what it shows: an id is text, never markup", async () => {
    const response = await createSiteApp({ api: apiOf() }).request(
      `/?user=${encodeURIComponent('<b>"x"</b>')}`,
    );
    const page = await response.text();
    expect(page).toContain("&lt;b&gt;&quot;x&quot;&lt;/b&gt;");
    expect(page).not.toContain("<b>");
  });

  it("a refused request is a 400 page with the API's reason and no reader's data", async () => {
    const api = apiOf((call) =>
      call.startsWith("board") ? undefined : new ReadApiError("refused", "userId: too long", 400, "userId"),
    );
    const response = await createSiteApp({ api }).request("/?user=x");
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("We cannot show these rewards: userId: too long");
    expect(page).not.toContain("data-field");
    expect(page).not.toContain("bob");
  });

  it("quotes at most the first 64 characters of a long id: in the heading and in the API's reason", async () => {
    const long = "u".repeat(257);
    const api = apiOf((call) =>
      call.startsWith("board")
        ? undefined
        : new ReadApiError(
            "refused",
            `userId: at most 256 characters (${JSON.stringify(long)})`,
            400,
            "userId",
          ),
    );
    const refused = await (await createSiteApp({ api }).request(`/?user=${long}`)).text();
    expect(refused).toContain(
      `We cannot show these rewards: userId: at most 256 characters (&quot;${"u".repeat(64)}…&quot;)`,
    );
    // The form keeps the input whole, to mend; the page's words never repeat it.
    expect(refused.replace(`value="${long}"`, "")).not.toMatch(/u{65}/);
    const valid = "v".repeat(256);
    const page = await (await createSiteApp({ api: apiOf() }).request(`/?user=${valid}`)).text();
    expect(page).toContain(`<strong data-field="user">${"v".repeat(64)}…</strong>`);
    expect(page.replace(`value="${valid}"`, "")).not.toMatch(/v{65}/);
  });

  it("a read API that is down is a 503 page saying so, its cause told once to the operator", async () => {
    const told: unknown[] = [];
    const cause = new ReadApiError(
      "unavailable",
      "the read API at http://127.0.0.1:9 did not answer: ECONNREFUSED",
    );
    const response = await createSiteApp({
      api: apiOf(() => cause),
      onReadFailure: (e) => told.push(e),
    }).request("/?user=ann");
    expect(response.status).toBe(503);
    const page = await response.text();
    expect(page).toContain("Rewards are not available right now");
    expect(page).not.toContain("ECONNREFUSED");
    expect(told).toEqual([cause]);
  });

  it("shows a banner for a campaign running now, its end in the reader's zone", async () => {
    const coming = { ...doubleXp, id: "coming", from: "2026-12-05T00:00:00.000Z" };
    const api = apiOf(undefined, async () => ({ version: 3, campaigns: [doubleXp, coming] }));
    const page = await (
      await createSiteApp({ api, clock }).request("/?user=ann&timeZone=Europe/Paris")
    ).text();
    expect(page).toContain(
      '<aside class="campaign" aria-label="Campaign running now" data-campaign="podcast-week">',
    );
    expect(page).toContain("Double XP on podcasts until Sun 18:00 (Europe/Paris)");
    expect(page).not.toContain('data-campaign="coming"');
  });

  it("shows no banner, and the page as ever, when /rules is absent (404), runs no campaign, fails or is slow", async () => {
    const told: unknown[] = [];
    const broken = new ReadApiError("unavailable", "the read API answered HTTP 500", 500);
    const cases: [string, ReadApiClient][] = [
      ["absent", apiOf()],
      [
        "nothing running",
        apiOf(undefined, async () => ({ campaigns: [{ ...doubleXp, to: "2026-12-04T12:00:00.000Z" }] })),
      ],
      ["failing", apiOf((call) => (call === "rules" ? broken : undefined))],
      [
        "throwing at once",
        {
          ...apiOf(),
          rules: () => {
            throw new Error("no rules here");
          },
        },
      ],
      [
        "slow",
        apiOf(
          undefined,
          () => new Promise((resolve) => setTimeout(() => resolve({ campaigns: [doubleXp] }), 5_000)),
        ),
      ],
    ];
    for (const [what, api] of cases) {
      const started = Date.now();
      const response = await createSiteApp({ api, clock, onReadFailure: (e) => told.push(e) }).request(
        "/?user=ann",
      );
      expect([what, response.status]).toEqual([what, 200]);
      const page = await response.text();
      expect([what, page.includes(banner)]).toEqual([what, false]);
      expect(page).toContain('<span class="figure" data-field="xp">170</span>');
      // A slow /rules costs the page RULES_GRACE_MS at most.
      expect(Date.now() - started).toBeLessThan(RULES_GRACE_MS + 1_000);
    }
    // A failed /rules is told to the operator, as any failed read; a 404 or a late one is not.
    expect(told).toHaveLength(2);
    expect(told[0]).toBe(broken);
  });

  it("a page that fails anyway is told once, whatever /rules did", async () => {
    const told: unknown[] = [];
    const cause = new ReadApiError("unavailable", "down");
    await createSiteApp({ api: apiOf(() => cause), clock, onReadFailure: (e) => told.push(e) }).request(
      "/?user=ann",
    );
    expect(told).toEqual([cause]);
  });

  it("any other path is a 404", async () => {
    expect((await createSiteApp({ api: apiOf() }).request("/users/ann")).status).toBe(404);
  });
});
