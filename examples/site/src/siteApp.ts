import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { SiteRules } from "./campaigns";
import { PAGE_STYLE_HASH } from "./pageStyle";
import type { ReadApiClient } from "./readApiClient";
import { ReadApiError } from "./readApiError";
import { askPage, readerPage, refusedPage, unavailablePage } from "./readerPage";
import { readerView } from "./readerView";
import { canonicalZone } from "./zoneDays";

export interface SiteAppOptions {
  api: ReadApiClient;
  /** Where a failed read is told (the cause, for the operator; the page says only that it failed). */
  onReadFailure?: (error: unknown) => void;
  /** The page's clock (its today in the reader's zone); the system's by default. */
  clock?: () => Date;
}

/** How many awards and board rows the page shows. */
export const PAGE_AWARDS = 10;
export const PAGE_BOARD_ROWS = 10;

/**
 * How long the page waits for the rules after the reader's four answers: the campaign banner is
 * a bonus, so a slow `GET /rules` costs the page at most this, and a failed one nothing.
 */
export const RULES_GRACE_MS = 300;

/** What became of `GET /rules`: its answer (undefined: no such route), or why it failed. */
type RulesAnswer = { rules: SiteRules | undefined } | { failure: unknown };

/** The rules' answer, or undefined when it takes `ms` more; never rejects (`answer` does not). */
async function rulesWithin(answer: Promise<RulesAnswer>, ms: number): Promise<RulesAnswer | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The reader's page as a site's backend serves it: `GET /?user=<id>[&timeZone=<zone>]`.
 * `user` stands in for the signed-in reader a real site takes from its session (never from the
 * query: anyone could read anyone's page). Every answer is the reader's own data or none:
 * a refused id is a 400 page with the API's reason, a read API that is down a 503 page.
 */
export function createSiteApp(options: SiteAppOptions): Hono {
  const app = new Hono();
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        styleSrc: [`'${PAGE_STYLE_HASH}'`],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    }),
  );
  app.use(async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  });

  app.get("/", async (c) => {
    const userId = c.req.query("user") ?? "";
    // The form sends its zone field empty for none (UTC): the API refuses an empty zone, so none is asked.
    const timeZone = c.req.query("timeZone")?.trim() || undefined;
    const form = { userId, timeZone: timeZone ?? "" };
    if (userId === "") return c.html(askPage(form));
    const { api } = options;
    // Before the reads: the API's today is then never earlier than the page's (streakStory).
    const now = options.clock?.() ?? new Date();
    // The rules beside the four reads; whatever becomes of them, the page does not fail for them.
    const rules: Promise<RulesAnswer> = Promise.resolve()
      .then(() => api.rules())
      .then(
        (answer) => ({ rules: answer }),
        (failure: unknown) => ({ failure }),
      );
    const answers = await Promise.allSettled([
      api.profile(userId, timeZone),
      api.awards(userId, PAGE_AWARDS),
      api.achievements(userId),
      api.board(PAGE_BOARD_ROWS),
    ]);
    const [profile, awards, achievements, board] = answers;
    if (
      profile.status === "fulfilled" &&
      awards.status === "fulfilled" &&
      achievements.status === "fulfilled" &&
      board.status === "fulfilled"
    ) {
      // The API took the zone; this runtime should know it too (the same IANA database), else say so.
      const zone = canonicalZone(timeZone ?? "UTC");
      if (zone === undefined)
        return c.html(refusedPage(form, "timeZone: this page does not know the zone the API took"), 400);
      // No banner when the rules failed (told, as any failed read) or came too late (not waited for).
      const rulesAnswer = await rulesWithin(rules, RULES_GRACE_MS);
      if (rulesAnswer && "failure" in rulesAnswer) options.onReadFailure?.(rulesAnswer.failure);
      const rulesNow = rulesAnswer && "rules" in rulesAnswer ? rulesAnswer.rules : undefined;
      return c.html(
        readerPage(
          readerView(
            {
              profile: profile.value,
              awards: awards.value,
              achievements: achievements.value,
              board: board.value,
              ...(rulesNow ? { rules: rulesNow } : {}),
            },
            { timeZone: zone, timeZoneAsked: timeZone !== undefined, now },
          ),
        ),
      );
    }
    const failures = answers.flatMap((answer) =>
      answer.status === "rejected" ? [answer.reason as unknown] : [],
    );
    // A refusal is about the request (the id, the zone): the reader can mend it, so it is said.
    const refused = failures.find(
      (error): error is ReadApiError => error instanceof ReadApiError && error.kind === "refused",
    );
    if (refused) return c.html(refusedPage(form, refused.message), 400);
    // One line per page, not per call: the four calls mostly fail for the same reason.
    options.onReadFailure?.(failures[0]);
    return c.html(unavailablePage(form), 503);
  });

  app.notFound((c) => c.text("Not found: the page is at /", 404));
  app.onError((error, c) => {
    options.onReadFailure?.(error);
    return c.html(unavailablePage({ userId: "", timeZone: "" }), 500);
  });
  return app;
}
