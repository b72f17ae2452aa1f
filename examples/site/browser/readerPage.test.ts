import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createDynamoBaseClient } from "@rewards/core/aws";
import { type Site, startSite, userSegment } from "@rewards/example-site";
import { createReader, type Reader } from "@rewards/reader";
import { eventBody, exportedEnv, HANG_GUARD_MS, runCli, startCli, waitFor } from "@rewards/testing";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The reader's page in a real Chromium over `rewards dev`: the numbers it shows are the reader
 * library's, for a new reader, a capped one, and one with a streak and a revoked award; one
 * commit's awards in reading order; the streak in every state and ?timeZone=; the ring, the
 * flame, the badges and reduced motion; the keyboard path; a phone's width; a bad id and a read
 * API that is down; and the campaign banner, over a stand-in that answers GET /rules.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS);
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

const NEW = "new-reader";
// Long and unbroken: the board and the header must wrap it on a phone.
const CAPPED = "capped-reader-with-a-long-id-that-has-to-wrap-on-a-phone-0123456789abcdef";
const STREAK = "streak reader";
const ORDER = "order-reader";
// Streaks in each state, read in UTC: the last day kept yesterday, four days ago, and tomorrow
// (a site whose calendar is ahead of UTC: a streak.day may name the day after its event's).
const ALIVE = "alive-reader";
const ENDED = "ended-reader";
const AHEAD = "ahead-reader";
const keptDay = (userId: string, ago: number) =>
  eventBody("streak.day", { userId, day: isoDay(day(ago)) }, { time: day(Math.max(ago, 0)).toISOString() });

const completed = (userId: string, articleSlug: string) =>
  eventBody("article.completed", { userId, articleSlug });
const revokedArticle = completed(STREAK, "retracted-story");
const events = [
  // Four articles today against a cap of 50: 20, 20, 10 (capped from 20), 0 (capped from 20).
  ...["one", "two", "three", "four"].map((slug) => completed(CAPPED, slug)),
  eventBody("signup.completed", { userId: STREAK }),
  // Three days in a row, ending today; then an article paid and revoked.
  ...[2, 1, 0].map((ago) =>
    eventBody("streak.day", { userId: STREAK, day: isoDay(day(ago)) }, { time: day(ago).toISOString() }),
  ),
  eventBody("article.shared", { userId: STREAK, articleSlug: "tides", channel: "email" }),
  revokedArticle,
  keptDay(ALIVE, 2),
  keptDay(ALIVE, 1),
  keptDay(ENDED, 5),
  keptDay(ENDED, 4),
  keptDay(AHEAD, -1),
];

// Five articles read on five days, sent together (one commit: the history lists it by grant id),
// in a shuffled order: the page lists them as they were read, newest first.
const ORDER_DAYS_AGO = [3, 1, 2, 4, 0];
const orderEvents = ORDER_DAYS_AGO.map((ago) =>
  eventBody(
    "article.completed",
    { userId: ORDER, articleSlug: `read-${ago}-days-ago` },
    { time: day(ago).toISOString() },
  ),
);

/** Waits for `condition`; a minute is ample for a handful of events on the local stack. */
async function until(what: string, condition: () => Promise<boolean>) {
  if (!(await waitFor(condition, { timeoutMs: 60_000 })))
    throw new Error(`timed out waiting for ${what}; rewards dev said: ${dev.output().stderr.slice(-2000)}`);
}

let env: Record<string, string>;
let dev: ReturnType<typeof startCli>;
let browser: Browser;
let reader: Reader;
let destroyClient: () => void;

beforeAll(async () => {
  dev = startCli(["dev", "--daily-cap", "50", "--wait", "1"], { LOG_LEVEL: "warn" });
  const started = await waitFor(() => dev.output().stdout.includes("Ctrl-C to stop"), {
    timeoutMs: HANG_GUARD_MS,
  });
  if (!started) throw new Error(`rewards dev did not start: ${dev.output().stderr}`);
  env = exportedEnv(dev.output().stdout);
  expect(env.SITE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  const client = createDynamoBaseClient(env);
  destroyClient = () => client.destroy();
  reader = createReader({ tableName: env.TABLE_NAME as string, client, dailyCap: 50 });
  // The order reader's five first and alone, so that one batch takes them: one commit.
  expect((await runCli(["publish", "-"], env, `${orderEvents.join("\n")}\n`)).code).toBe(0);
  await until(
    "the order reader's five awards in the history",
    async () => (await reader.history(ORDER)).awards.length === 5,
  );
  expect((await runCli(["publish", "-"], env, `${events.join("\n")}\n`)).code).toBe(0);
  // Every award in the history before the revocation (it takes back what the history holds).
  await until(
    "the streak reader's six awards in the history",
    async () => (await reader.history(STREAK)).awards.length === 6,
  );
  const revoke = await runCli(
    ["revoke", "-", "--yes", "--reason", "retracted by the author"],
    env,
    `${revokedArticle}\n`,
  );
  expect(revoke.code).toBe(0);
  await until(
    "the capped reader's four awards, the revocation and the kept days in the history",
    async () =>
      (await reader.history(CAPPED)).awards.length === 4 &&
      (await reader.history(STREAK)).awards.some((award) => award.revokedAt !== undefined) &&
      (await reader.profile(ALIVE)).streak.longest === 2 &&
      (await reader.profile(ENDED)).streak.longest === 2 &&
      (await reader.profile(AHEAD)).streak.longest === 1,
  );
  // The local read API runs each concurrent request in an execution environment of its own, as
  // Lambda does, and a new one's cold start takes seconds on a busy machine: near the site's 5 s
  // timeout. The page makes five reads at once (the reader's four and the rules): five
  // environments are warmed here, so the tests time the page, not cold starts.
  await until("five warm read API environments", async () =>
    (await Promise.all(Array.from({ length: 5 }, () => fetch(`${env.READER_URL}/board`)))).every(
      (response) => response.ok,
    ),
  );
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // No GPU, no network of its own (updates, QUIC): a CI machine has neither.
    args: [
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  destroyClient?.();
  if (dev) {
    dev.child.kill("SIGINT");
    await dev.exited;
  }
});

const pageUrl = (userId: string, timeZone?: string) =>
  `${env.SITE_URL}?user=${encodeURIComponent(userId)}${timeZone ? `&timeZone=${encodeURIComponent(timeZone)}` : ""}`;

async function open(
  userId: string,
  viewport = { width: 1024, height: 900 },
  timeZone?: string,
): Promise<Page> {
  const page = await browser.newPage({ viewport });
  const response = await page.goto(pageUrl(userId, timeZone));
  // A 503 page says only that the API failed: rewards dev's log says why.
  expect(response?.status(), dev.output().stderr.slice(-2000)).toBe(200);
  return page;
}

/** WCAG's contrast ratio of two computed colours (`rgb(…)`, opaque). */
function contrast(foreground: string, background: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => {
      const channel = Number(value) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [lighter, darker] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [
    number,
    number,
  ];
  return (lighter + 0.05) / (darker + 0.05);
}

/** The page's width against the window's: equal when nothing is wider than the screen. */
const overflow = async (page: Page) =>
  // Strings: this file is compiled without the DOM's types (the page's globals are the browser's).
  (await page.evaluate(
    "({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })",
  )) as {
    scrollWidth: number;
    innerWidth: number;
  };

const field = async (page: Page, name: string) =>
  (await page.locator(`[data-field="${name}"]`).textContent()) ?? "";
const numberIn = async (page: Page, name: string) => Number(await field(page, name));

/** What the page shows, read off it as a reader sees it, in the library's shapes. */
async function shownOn(page: Page) {
  const rows = page.locator("section[aria-labelledby=awards-heading] tbody tr");
  const boardRows = page.locator("section[aria-labelledby=board-heading] tbody tr");
  return {
    userId: await field(page, "user"),
    xp: await numberIn(page, "xp"),
    level: {
      level: await numberIn(page, "level"),
      xpFloor: await numberIn(page, "xp-floor"),
      xpNext: await numberIn(page, "xp-next"),
    },
    today: await numberIn(page, "today-xp"),
    streak: {
      current: await numberIn(page, "streak-current"),
      longest: await numberIn(page, "streak-longest"),
    },
    earned: await page
      .locator('[data-earned="true"]')
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-achievement"))),
    awards: await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        id: tr.getAttribute("data-award"),
        revoked: tr.getAttribute("data-revoked") === "true",
        xp: Number(tr.querySelector("td.num")?.textContent?.trim().split(" ")[0]),
      })),
    ),
    board: await boardRows.evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "");
        return { rank: Number(cells[0]), userId: tr.getAttribute("data-board-user"), xp: Number(cells[2]) };
      }),
    ),
  };
}

/** What the reader library answers for the same reader, in the page's terms. */
async function libraryFor(userId: string) {
  const [profile, history, achievements, board] = await Promise.all([
    reader.profile(userId),
    reader.history(userId, { limit: 10 }),
    reader.achievements(userId),
    reader.board({ limit: 10 }),
  ]);
  return {
    profile,
    shown: {
      // The page quotes at most an id's first 64 characters.
      userId: userId.length > 64 ? `${userId.slice(0, 64)}…` : userId,
      xp: profile.xp,
      level: profile.level,
      today: profile.today.xp,
      streak: { current: profile.streak.current, longest: profile.streak.longest },
      earned: expect.arrayContaining(achievements.achievements.map(({ id }) => id)),
      // The page's order: commits newest first, one commit's awards by event time (a stable sort).
      awards: [...history.awards]
        .sort(
          (a, b) =>
            Date.parse(b.awardedAt) - Date.parse(a.awardedAt) ||
            Date.parse(b.eventTime) - Date.parse(a.eventTime),
        )
        .map((award) => ({
          id: award.id,
          revoked: award.revokedAt !== undefined,
          xp: award.xp,
        })),
      board: board.entries,
    },
    achievements: achievements.achievements,
  };
}

describe("the reader's page in Chromium", () => {
  it("a new reader: nothing earned yet, level 1, every achievement greyed with what earns it", async () => {
    const page = await open(NEW);
    const library = await libraryFor(NEW);
    expect(await shownOn(page)).toEqual(library.shown);
    expect(library.profile.xp).toBe(0);
    expect(await page.locator('[data-earned="true"]').count()).toBe(0);
    expect(await page.locator('[data-achievement="articles-10"]').textContent()).toBe(
      "Not yetTen articles: Finish 10 articles.",
    );
    expect(await page.locator("section[aria-labelledby=awards-heading]").textContent()).toContain(
      "No awards yet.",
    );
    expect(await page.locator("section[aria-labelledby=board-heading] p").first().textContent()).toBe(
      "You have no XP this week yet.",
    );
    await page.close();
  });

  it("a capped reader: today at the cap, the capped awards shown with what they asked", async () => {
    const page = await open(CAPPED);
    const library = await libraryFor(CAPPED);
    expect(await shownOn(page)).toEqual(library.shown);
    expect(library.profile.today).toMatchObject({ xp: 50, cap: 50, left: 0 });
    expect(await numberIn(page, "today-cap")).toBe(50);
    expect(await numberIn(page, "today-left")).toBe(0);
    expect(await page.locator("#today-meter").getAttribute("value")).toBe("50");
    expect(await page.getByText("(capped from 20)").count()).toBe(2);
    // Its own row on the board is marked, and its rank is said.
    const own = page.locator('tr[aria-current="true"]');
    expect(await own.getAttribute("data-board-user")).toBe(CAPPED);
    expect(await numberIn(page, "week-rank")).toBe(library.profile.week.rank);
    expect(await numberIn(page, "week-xp")).toBe(library.profile.week.xp);
    await page.close();
  });

  it("a reader with a streak and a revoked award: the streak, the level ring, the revocation without the operator's reason", async () => {
    const page = await open(STREAK);
    const library = await libraryFor(STREAK);
    expect(await shownOn(page)).toEqual(library.shown);
    expect(library.profile.streak).toMatchObject({ current: 3, longest: 3 });
    expect(library.profile.xp).toBe(135); // 100 + 3 × 10 + 5; the revoked article's 20 taken back
    // The level ring: a progress bar to assistive technology, its arc the share of the level done.
    const { xp, level } = library.profile;
    const ring = page.getByRole("progressbar", {
      name: `XP toward level ${level.level + 1}: ${xp - level.xpFloor} of ${level.xpNext - level.xpFloor}`,
    });
    expect(await ring.count()).toBe(1);
    expect([
      await ring.getAttribute("aria-valuemin"),
      await ring.getAttribute("aria-valuenow"),
      await ring.getAttribute("aria-valuemax"),
    ]).toEqual(["0", String(xp - level.xpFloor), String(level.xpNext - level.xpFloor)]);
    const share = Math.round(((xp - level.xpFloor) / (level.xpNext - level.xpFloor)) * 10_000) / 100;
    expect(await ring.locator("circle.ring-fill").getAttribute("stroke-dasharray")).toBe(`${share} 100`);
    expect(await ring.locator("text.ring-level").textContent()).toBe(String(level.level));
    const revoked = page.locator('tr[data-revoked="true"]');
    expect(await revoked.count()).toBe(1);
    expect(await revoked.locator("td").first().textContent()).toBe("Finished “retracted-story”Revoked");
    // The API carries the operator's reason; the page never shows it.
    expect((await reader.history(STREAK)).awards.find((a) => a.revokedAt)?.revokedReason).toBe(
      "retracted by the author",
    );
    expect(await page.textContent("body")).not.toContain("retracted by the author");
    expect(await revoked.locator(".revoked").count()).toBe(2); // its words and its XP struck through
    expect(library.achievements.map(({ id }) => id).sort()).toEqual([
      "first-article",
      "first-share",
      "level-2",
    ]);
    // The page keeps what was earned: first-article stays, though its award was revoked.
    expect(await page.locator('[data-achievement="first-article"]').getAttribute("data-earned")).toBe("true");
    await page.close();
  });

  it("earned badges stand out and locked ones are muted, both readable (contrast ≥ 4.5:1)", async () => {
    const page = await open(STREAK);
    const tiles = (await page.evaluate(
      `[...document.querySelectorAll("[data-achievement]")].map((tile) => {
        const style = getComputedStyle(tile);
        return {
          id: tile.dataset.achievement,
          earned: tile.dataset.earned === "true",
          color: style.color,
          background: style.backgroundColor,
          borderStyle: style.borderTopStyle,
          shadow: style.boxShadow,
          icon: tile.querySelector("svg.badge-icon")?.getAttribute("aria-hidden"),
          state: tile.querySelector(".state")?.textContent,
        };
      })`,
    )) as {
      id: string;
      earned: boolean;
      color: string;
      background: string;
      borderStyle: string;
      shadow: string;
      icon: string;
      state: string;
    }[];
    const earned = tiles.filter((tile) => tile.earned);
    const locked = tiles.filter((tile) => !tile.earned);
    expect(earned.map(({ id }) => id).sort()).toEqual(["first-article", "first-share", "level-2"]);
    expect(locked.length).toBeGreaterThan(0);
    for (const tile of earned) {
      expect(tile).toMatchObject({ borderStyle: "solid", icon: "true", state: `Earned ${isoDay(day(0))}` });
      expect(tile.shadow).not.toBe("none");
      expect(tile.background).not.toBe(locked[0]?.background);
    }
    for (const tile of locked)
      expect(tile).toMatchObject({ borderStyle: "dashed", shadow: "none", icon: "true", state: "Not yet" });
    for (const tile of tiles)
      expect([tile.id, contrast(tile.color, tile.background) >= 4.5]).toEqual([tile.id, true]);
    await page.close();
  });

  it("the flame and the ring are labelled, and still when the reader asks for less motion", async () => {
    const page = await open(STREAK);
    expect(await page.getByRole("img", { name: "Streak flame, lit: read today" }).count()).toBe(1);
    const motion = async () =>
      (await page.evaluate(
        `["svg.flame", "circle.ring-fill"].map((selector) => getComputedStyle(document.querySelector(selector)).animationName)`,
      )) as string[];
    expect(await motion()).toEqual(["flicker", "ring-in"]);
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await motion()).toEqual(["none", "none"]);
    await page.close();
    // A new reader: the flame out, the ring empty (no arc), both still saying so.
    const fresh = await open(NEW);
    expect(await fresh.getByRole("img", { name: "Streak flame, out" }).count()).toBe(1);
    const ring = fresh.getByRole("progressbar", { name: "XP toward level 2: 0 of 100" });
    expect(await ring.getAttribute("aria-valuenow")).toBe("0");
    expect(await ring.locator("circle.ring-fill").count()).toBe(0);
    await fresh.close();
    const alive = await open(ALIVE);
    expect(await alive.getByRole("img", { name: "Streak flame, low: waiting for today" }).count()).toBe(1);
    await alive.close();
  });

  it("lists the last awards in the order the reader did them: a commit's by event time, newest first", async () => {
    const page = await open(ORDER);
    const { awards } = await reader.history(ORDER, { limit: 10 });
    // The five were sent together: one batch, one commit, which the API orders by grant id. (Two
    // pollers could split them in two batches: then one still holds three.)
    const commits = new Map<string, number>();
    for (const { awardedAt } of awards) commits.set(awardedAt, (commits.get(awardedAt) ?? 0) + 1);
    expect(Math.max(...commits.values())).toBeGreaterThanOrEqual(2);
    const asRead = [...awards].sort(
      (a, b) =>
        Date.parse(b.awardedAt) - Date.parse(a.awardedAt) ||
        Date.parse(b.eventTime) - Date.parse(a.eventTime),
    );
    const rows = page.locator("section[aria-labelledby=awards-heading] tbody tr");
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-award")))).toEqual(
      asRead.map(({ id }) => id),
    );
    expect(await rows.locator("td:nth-child(2)").allTextContents()).toEqual(
      asRead.map(({ earnedOn }) => earnedOn),
    );
    // In one commit (as they almost always are), exactly the days they were read, newest first.
    if (commits.size === 1)
      expect(asRead.map(({ earnedOn }) => earnedOn)).toEqual([0, 1, 2, 3, 4].map((ago) => isoDay(day(ago))));
    await page.close();
  });

  it("says where each streak stands, truly: never started, read today, alive from yesterday, ended, ahead", async () => {
    const today = isoDay(day(0));
    const cases = [
      [NEW, "never", "out", `No day read yet: read today (${today} in UTC) to start your first run.`],
      // Four articles today and no kept day: never asked to read today.
      [CAPPED, "never", "out", /^You have read today, but no day of reading is counted for your streak yet/],
      [
        STREAK,
        "today",
        "burning",
        `You read today (${today} in UTC): 3 days in a row. Come back tomorrow to make it 4 days; miss a day and the run starts over.`,
      ],
      [
        ALIVE,
        "alive",
        "waiting",
        `Your 2-day run is still going: read today (${today} in UTC) to keep it, or it starts over.`,
      ],
      [
        ENDED,
        "ended",
        "out",
        `Your last day read was ${isoDay(day(4))}, so that run is over: read today (${today} in UTC) to start a new one.`,
      ],
      [
        AHEAD,
        "ahead",
        "out",
        new RegExp(`^Your last day read, ${isoDay(day(-1))}, is after today here \\(${today} in UTC\\)`),
      ],
    ] as const;
    for (const [userId, state, flame, sentence] of cases) {
      const page = await open(userId);
      const section = page.locator("section[aria-labelledby=streak-heading]");
      expect([userId, await section.getAttribute("data-streak-state")]).toEqual([userId, state]);
      expect([userId, await page.locator("[data-flame]").getAttribute("data-flame")]).toEqual([
        userId,
        flame,
      ]);
      const said = await field(page, "streak-sentence");
      if (typeof sentence === "string") expect(said).toBe(sentence);
      else expect(said).toMatch(sentence);
      // The numbers stay the API's.
      const { streak } = await reader.profile(userId);
      expect(await numberIn(page, "streak-current")).toBe(streak.current);
      await page.close();
    }
  });

  it("reads the streak in ?timeZone=, names the zone wherever it says today, and the form keeps it", async () => {
    const page = await open(AHEAD, { width: 1024, height: 900 }, "Etc/GMT+12");
    // Twelve hours behind UTC, tomorrow (UTC) is at least a day ahead too.
    const zoneToday = new Intl.DateTimeFormat("en-CA", { timeZone: "Etc/GMT+12" }).format(new Date());
    expect(await page.locator("#streak-heading").textContent()).toBe("Streak (days in Etc/GMT+12)");
    expect(await field(page, "streak-sentence")).toContain(`(${zoneToday} in Etc/GMT+12)`);
    expect(await page.locator("#today-heading").textContent()).toBe(`Today (${isoDay(day(0))} in UTC)`);
    expect(await field(page, "cap-zone")).toBe(
      `The daily cap counts days in UTC; your streak counts them in Etc/GMT+12, where today is ${zoneToday}.`,
    );
    // The form holds the zone (a visible, labelled field) and sends it again with another reader.
    expect(await page.getByLabel("Time zone").inputValue()).toBe("Etc/GMT+12");
    await page.getByLabel("Reader id").fill(STREAK);
    await Promise.all([page.waitForURL(/user=streak/), page.getByLabel("Reader id").press("Enter")]);
    expect(new URL(page.url()).searchParams.get("timeZone")).toBe("Etc/GMT+12");
    expect(await field(page, "user")).toBe(STREAK);
    expect(await page.locator("#streak-heading").textContent()).toBe("Streak (days in Etc/GMT+12)");
    // The API read the streak in that zone: the same as the library reads it there.
    const { streak } = await reader.profile(STREAK, { timeZone: "Etc/GMT+12" });
    expect(await numberIn(page, "streak-current")).toBe(streak.current);
    // Emptied, the field asks for no zone: UTC, named so.
    await page.getByLabel("Time zone").fill("");
    await Promise.all([page.waitForURL(/timeZone=(&|$)/), page.getByLabel("Time zone").press("Enter")]);
    expect(await page.locator("#streak-heading").textContent()).toBe("Streak (days in UTC)");
    expect(await page.locator("[data-field=cap-zone]").count()).toBe(0);
    await page.close();
  });

  it("works from the keyboard: Tab to the id, type it, Tab past the zone to the button, Enter", async () => {
    const page = await browser.newPage();
    await page.goto(env.SITE_URL as string);
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.id")).toBe("user");
    // The fields have labels a screen reader announces.
    expect(await page.getByLabel("Reader id").count()).toBe(1);
    expect(await page.getByLabel("Time zone").count()).toBe(1);
    await page.keyboard.type(STREAK);
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.id")).toBe("timeZone");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Show rewards");
    await Promise.all([page.waitForURL(/\?user=/), page.keyboard.press("Enter")]);
    expect(await field(page, "user")).toBe(STREAK);
    expect(await numberIn(page, "xp")).toBe((await reader.profile(STREAK)).xp);
    await page.close();
  });

  it("fits a phone's width: nothing wider than the screen, the long id wrapped, every date on one line", async () => {
    for (const userId of [CAPPED, ORDER, STREAK])
      for (const width of [390, 375, 320]) {
        const page = await open(userId, { width, height: 800 });
        expect([userId, width, await overflow(page)]).toEqual([
          userId,
          width,
          { scrollWidth: width, innerWidth: width },
        ]);
        // Dates never break ("2026-/12-01"): one line box each, in tabular numerals.
        const dates = (await page.evaluate(
          `[...document.querySelectorAll("time.date")].map((time) => ({
            text: time.textContent,
            lines: time.getClientRects().length,
            numerals: getComputedStyle(time).fontVariantNumeric,
          }))`,
        )) as { text: string; lines: number; numerals: string }[];
        expect(dates.length).toBeGreaterThan(1);
        for (const date of dates)
          expect(date).toEqual({ text: date.text, lines: 1, numerals: "tabular-nums" });
        await page.close();
      }
  });

  it("stays light at 390 px: one request (no image, font or script), under 32 KB", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    const response = await page.goto(pageUrl(STREAK));
    expect(requests).toEqual([pageUrl(STREAK)]);
    expect((await response?.body())?.byteLength).toBeLessThan(32 * 1024);
    await page.close();
  });

  it("a 257-character id: the error box wraps at 390 px and quotes at most the id's first 64 characters", async () => {
    const tooLong = "u".repeat(257);
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    expect((await page.goto(pageUrl(tooLong)))?.status()).toBe(400);
    expect(await overflow(page)).toEqual({ scrollWidth: 390, innerWidth: 390 });
    const alert = page.getByRole("alert");
    const box = (await alert.boundingBox()) ?? { x: 0, width: Number.POSITIVE_INFINITY };
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    const said = (await alert.textContent()) ?? "";
    expect(said).toMatch(/^We cannot show these rewards: userId:/);
    expect(said).toContain(`${"u".repeat(64)}…`);
    expect(said).not.toMatch(/u{65}/);
    // The form keeps the whole id, to mend.
    expect(await page.getByLabel("Reader id").inputValue()).toBe(tooLong);
    // The longest id the API takes is a reader's page, its id quoted to 64 characters, at 390 px too.
    const longest = "w".repeat(256);
    expect((await page.goto(pageUrl(longest)))?.status()).toBe(200);
    expect(await overflow(page)).toEqual({ scrollWidth: 390, innerWidth: 390 });
    expect(await field(page, "user")).toBe(`${"w".repeat(64)}…`);
    expect((await page.textContent("main")) ?? "").not.toMatch(/w{65}/);
    await page.close();
  });

  it("a bad or hand-edited id shows no other reader's data", async () => {
    const page = await browser.newPage();
    const tooLong = await page.goto(pageUrl("u".repeat(257)));
    expect(tooLong?.status()).toBe(400);
    expect(await page.locator("[data-field], [data-board-user], [data-award]").count()).toBe(0);
    // An id that would name another resource if it were a path stays one reader's id: a new one.
    for (const edited of [`${STREAK}/awards`, "../board", ".."]) {
      // The API judges the id: an id it takes is a reader of its own (a new one, with nothing), one it refuses is refused.
      const api = await fetch(`${env.READER_URL}/users/${userSegment(edited)}`);
      const response = await page.goto(pageUrl(edited));
      // A refusal of any kind (a WHATWG URL, fetch's, reads %2E%2E as "..": the API answers 404) is the page's 400.
      expect(response?.status()).toBe(api.status === 200 ? 200 : 400);
      if (api.status === 200) {
        expect(await field(page, "user")).toBe(edited);
        expect(await numberIn(page, "xp")).toBe(0);
        expect(await page.locator("[data-award]").count()).toBe(0);
      } else {
        expect(await page.locator("[data-field], [data-board-user], [data-award]").count()).toBe(0);
      }
    }
    await page.close();
  });

  it("a read API that is down is a clear message, not a stack trace", async () => {
    // Nothing listens on port 9 (discard) here: the site's every call is refused.
    const site = await startSite({ url: "http://127.0.0.1:9", credentials: "unsigned" });
    try {
      const page = await browser.newPage();
      const response = await page.goto(`${site.url}?user=${encodeURIComponent(STREAK)}`);
      expect(response?.status()).toBe(503);
      expect(await page.getByRole("alert").textContent()).toBe(
        "Rewards are not available right now: the rewards service did not answer. Please try again in a minute.",
      );
      const text = (await page.textContent("body")) ?? "";
      expect(text).not.toMatch(/Error|at .*\.ts|ECONNREFUSED/);
      await page.close();
    } finally {
      await site.stop();
    }
  });
});

/**
 * The read API of `rewards dev` behind a stand-in that answers `GET /rules` itself (the other
 * routes pass through): the rules `answer` says, a campaign or none, a failure or silence.
 */
async function startRulesStandIn(readerUrl: string) {
  let answer: { status: number; body: unknown } | "silent" = { status: 404, body: { title: "Not found" } };
  const server: Server = createServer((request, response) => {
    if (request.url === "/rules") {
      if (answer === "silent") return; // never answers: the site's own timeout ends the call
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(JSON.stringify(answer.body));
      return;
    }
    void fetch(`${readerUrl}${request.url}`).then(async (upstream) => {
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "" });
      response.end(await upstream.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const site = await startSite({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    credentials: "unsigned",
  });
  return {
    site,
    answer: (next: typeof answer) => {
      answer = next;
    },
    stop: async () => {
      await site.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("the campaign banner", () => {
  let standIn: Awaited<ReturnType<typeof startRulesStandIn>>;
  let site: Site;
  beforeAll(async () => {
    standIn = await startRulesStandIn(env.READER_URL as string);
    site = standIn.site;
  });
  afterAll(async () => {
    await standIn?.stop();
  });

  const HOUR_MS = 60 * 60 * 1000;
  // Ends two days from now, on the hour: "until <weekday> HH:00 (UTC)".
  const to = new Date(Math.ceil((Date.now() + 2 * DAY_MS) / HOUR_MS) * HOUR_MS);
  const running = {
    id: "podcast-week",
    title: "Podcast week",
    types: ["podcast.listened"],
    from: day(1).toISOString(),
    to: to.toISOString(),
    multiplier: 2,
  };
  const rulesWith = (...campaigns: object[]) => ({
    status: 200,
    body: { version: 4, publishedAt: day(2).toISOString(), types: [], achievements: [], campaigns },
  });
  const openThere = async (userId: string, width = 1024) => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const started = Date.now();
    const response = await page.goto(`${site.url}?user=${encodeURIComponent(userId)}`);
    expect(response?.status()).toBe(200);
    return { page, took: Date.now() - started };
  };

  it("is absent over rewards dev's own read API (no /rules yet, or rules with no campaign)", async () => {
    const page = await open(STREAK);
    expect(await page.locator("aside.campaign").count()).toBe(0);
    await page.close();
  });

  it("shows a campaign whose [from, to) holds now: what it pays, on what, until when, in the reader's zone", async () => {
    standIn.answer(rulesWith(running));
    const { page } = await openThere(STREAK);
    const banner = page.getByRole("complementary", { name: "Campaign running now" });
    expect(await banner.count()).toBe(1);
    expect(await banner.getAttribute("data-campaign")).toBe("podcast-week");
    const weekday = to.toLocaleDateString("en-GB", { weekday: "short", timeZone: "UTC" });
    const hour = String(to.getUTCHours()).padStart(2, "0");
    expect(await banner.locator("strong").textContent()).toBe("Podcast week");
    expect(await field(page, "campaign-offer")).toBe(
      `Double XP on podcasts until ${weekday} ${hour}:00 (UTC)`,
    );
    // Everything else is the page as ever.
    expect(await shownOn(page)).toEqual((await libraryFor(STREAK)).shown);
    expect(await overflow(page)).toEqual({ scrollWidth: 1024, innerWidth: 1024 });
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await overflow(page)).toEqual({ scrollWidth: 390, innerWidth: 390 });
    if (process.env.UPDATE_PICTURES === "1") {
      // The picture in the docs: a reader with a three-day streak and a revoked award, in a campaign.
      const picture = fileURLToPath(new URL("../../../docs/pictures/reader-page.png", import.meta.url));
      mkdirSync(dirname(picture), { recursive: true });
      await page.setViewportSize({ width: 820, height: 900 });
      await page.emulateMedia({ reducedMotion: "reduce" }); // the flame still, whenever it is taken
      await page.screenshot({ path: picture, fullPage: true });
    }
    await page.close();
  });

  it("is absent when no campaign runs now: one ended, one coming", async () => {
    standIn.answer(
      rulesWith(
        { ...running, id: "ended", from: day(9).toISOString(), to: day(1).toISOString() },
        { ...running, id: "coming", from: day(-1).toISOString(), to: day(-3).toISOString() },
      ),
    );
    const { page } = await openThere(STREAK);
    expect(await page.locator("aside.campaign").count()).toBe(0);
    await page.close();
  });

  it("never breaks the page: /rules failing, answering nonsense, or never answering", async () => {
    for (const answer of [
      { status: 500, body: { title: "Internal" } },
      { status: 200, body: "not the rules" },
      { status: 200, body: { campaigns: [{ ...running, multiplier: "two" }] } },
      "silent" as const,
    ]) {
      standIn.answer(answer);
      const { page, took } = await openThere(STREAK);
      expect(await page.locator("aside.campaign").count()).toBe(0);
      expect(await numberIn(page, "xp")).toBe((await reader.profile(STREAK)).xp);
      // Silence costs the page the site's grace for the rules (300 ms), not the call's 5 s timeout.
      expect(took).toBeLessThan(4_000);
      await page.close();
    }
  });
});
