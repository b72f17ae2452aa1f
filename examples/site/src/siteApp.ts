import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { PAGE_STYLE_HASH } from "./pageStyle";
import type { ReadApiClient } from "./readApiClient";
import { ReadApiError } from "./readApiError";
import { askPage, readerPage, refusedPage, unavailablePage } from "./readerPage";
import { readerView } from "./readerView";

export interface SiteAppOptions {
  api: ReadApiClient;
  /** Where a failed read is told (the cause, for the operator; the page says only that it failed). */
  onReadFailure?: (error: unknown) => void;
}

/** How many awards and board rows the page shows. */
export const PAGE_AWARDS = 10;
export const PAGE_BOARD_ROWS = 10;

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
    const timeZone = c.req.query("timeZone");
    if (userId === "") return c.html(askPage());
    const { api } = options;
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
    )
      return c.html(
        readerPage(
          readerView({
            profile: profile.value,
            awards: awards.value,
            achievements: achievements.value,
            board: board.value,
          }),
        ),
      );
    const failures = answers.flatMap((answer) =>
      answer.status === "rejected" ? [answer.reason as unknown] : [],
    );
    // A refusal is about the request (the id, the zone): the reader can mend it, so it is said.
    const refused = failures.find(
      (error): error is ReadApiError => error instanceof ReadApiError && error.kind === "refused",
    );
    if (refused) return c.html(refusedPage(userId, refused.message), 400);
    // One line per page, not per call: the four calls mostly fail for the same reason.
    options.onReadFailure?.(failures[0]);
    return c.html(unavailablePage(userId), 503);
  });

  app.notFound((c) => c.text("Not found: the page is at /", 404));
  app.onError((error, c) => {
    options.onReadFailure?.(error);
    return c.html(unavailablePage(""), 500);
  });
  return app;
}
