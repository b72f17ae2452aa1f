import { html } from "hono/html";
import type { AchievementTile } from "./achievementGuide";
import { PAGE_STYLE } from "./pageStyle";
import { quoted, withInputsQuoted } from "./quote";
import type { AwardLine, BoardView, ReaderView } from "./readerView";
import type { Flame } from "./streakStory";

type Markup = ReturnType<typeof html>;

/** A calendar day (YYYY-MM-DD) that never breaks across lines. */
const date = (day: string): Markup => html`<time class="date" datetime="${day}">${day}</time>`;

/** A text with each calendar day in it kept on one line ("Read on 2026-12-03"). */
const withDates = (text: string): Markup[] =>
  text.split(/(\d{4}-\d{2}-\d{2})/).map((part, index) => (index % 2 === 1 ? date(part) : html`${part}`));

/** What the form on top holds: the reader's id and the zone asked for (kept across submissions). */
export interface FormValues {
  userId: string;
  /** The zone as asked (`?timeZone=`); empty: none (UTC). */
  timeZone: string;
}

/** The whole document around a page's content: one column, the reader-id form on top. */
function layout(title: string, form: FormValues, content: Markup | string): Markup {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>${title}</h1>
<form method="get" action="/">
<div><label for="user">Reader id</label><input id="user" name="user" value="${form.userId}" autocomplete="off" required></div>
<div><label for="timeZone">Time zone <span class="hint">(the streak's days)</span></label><input id="timeZone" name="timeZone" value="${form.timeZone}" placeholder="UTC" autocomplete="off" spellcheck="false" aria-describedby="timeZone-hint"><span id="timeZone-hint" class="visually-hidden">An IANA time zone such as Europe/Paris; empty for UTC</span></div>
<button type="submit">Show rewards</button>
</form>
</header>
<main>${content}</main>
</body>
</html>`;
}

/**
 * The level ring: an SVG arc from the level's floor (top) clockwise to the next level's, the
 * level in the middle. A progress bar to assistive technology (its values and its words); the
 * drawing itself is hidden from it. The arc fills in on load unless motion is unwelcome.
 */
function levelRing(view: ReaderView): Markup {
  const { level, intoLevel, levelSpan, percent } = view.level;
  const fill =
    percent === 0
      ? ""
      : html`<circle class="ring-fill" cx="60" cy="60" r="50" pathLength="100" stroke-dasharray="${percent} 100" transform="rotate(-90 60 60)"/>`;
  return html`<div class="ring" id="level-ring" role="progressbar" aria-labelledby="level-ring-label" aria-valuemin="0" aria-valuemax="${levelSpan}" aria-valuenow="${intoLevel}" aria-valuetext="${intoLevel} of ${levelSpan} XP toward level ${level + 1}">
<svg viewBox="0 0 120 120" width="112" height="112" aria-hidden="true" focusable="false">
<circle class="ring-track" cx="60" cy="60" r="50"/>
${fill}
<text class="ring-level" x="60" y="62">${level}</text>
<text class="ring-caption" x="60" y="84">level</text>
</svg>
</div>`;
}

function levelSection(view: ReaderView): Markup {
  const { level, xpFloor, xpNext, intoLevel, levelSpan } = view.level;
  return html`<section aria-labelledby="level-heading">
<h2 id="level-heading">Level <span data-field="level">${level}</span></h2>
<div class="with-icon">${levelRing(view)}
<div><p><span class="figure" data-field="xp">${view.xp}</span> XP</p>
<p id="level-ring-label">XP toward level ${level + 1}: ${intoLevel} of ${levelSpan}</p></div>
</div>
<p class="note">Level ${level} starts at <span data-field="xp-floor">${xpFloor}</span> XP; level ${level + 1} at <span data-field="xp-next">${xpNext}</span> XP (<span data-field="xp-to-next">${xpNext - view.xp}</span> to go).</p>
</section>`;
}

function todaySection(view: ReaderView): Markup {
  const { day, xp, cap, left } = view.today;
  const figures =
    cap === undefined
      ? html`<p><span class="figure" data-field="today-xp">${xp}</span> XP earned today; no daily cap.</p>`
      : html`<p><span class="figure" data-field="today-xp">${xp}</span> of <span data-field="today-cap">${cap}</span> XP today, <span data-field="today-left">${left}</span> left.</p>
<label for="today-meter">Today's XP against the daily cap</label>
<meter id="today-meter" min="0" max="${cap}" value="${xp}">${xp} of ${cap}</meter>`;
  // The cap counts UTC days whatever the zone: said when the page reads the streak in another.
  const zones =
    view.timeZone === "UTC"
      ? ""
      : html`<p class="note" data-field="cap-zone">The daily cap counts days in UTC; your streak counts them in ${view.timeZone}, where today is ${date(view.streak.today)}.</p>`;
  return html`<section aria-labelledby="today-heading">
<h2 id="today-heading">Today <span class="note">(${date(day)} in UTC)</span></h2>
${figures}
${zones}
</section>`;
}

const FLAME_LABEL: Record<Flame, string> = {
  burning: "Streak flame, lit: read today",
  waiting: "Streak flame, low: waiting for today",
  out: "Streak flame, out",
};

/** The streak's flame, inline (no image to load): lit, low or out; it flickers only when lit and motion is welcome. */
function flame(state: Flame): Markup {
  return html`<svg class="flame flame-${state}" data-flame="${state}" role="img" aria-label="${FLAME_LABEL[state]}" viewBox="0 0 24 32" width="44" height="58" focusable="false">
<path class="flame-outer" d="M12 1C13 7 21 11 21 20a9 9 0 0 1-18 0c0-4.5 2.2-7.6 4.4-9.6.1 3.3 1.2 5.3 3.3 6.4C10.6 12.4 9.8 6.4 12 1z"/>
<path class="flame-inner" d="M12.2 15c.9 3 4.3 4.6 4.3 8.2a4.5 4.5 0 0 1-9 0c0-2.2 1-3.8 2.2-4.8.1 1.6.7 2.7 1.7 3.2-.3-2.2-.2-4.4.8-6.6z"/>
</svg>`;
}

function streakSection(view: ReaderView): Markup {
  const { current, longest, state, sentence } = view.streak;
  return html`<section aria-labelledby="streak-heading" data-streak-state="${state}">
<h2 id="streak-heading">Streak <span class="note">(days in ${view.timeZone})</span></h2>
<div class="with-icon">${flame(view.streak.flame)}
<p><span class="figure" data-field="streak-current">${current}</span> ${current === 1 ? "day" : "days"} in a row now; longest <span data-field="streak-longest">${longest}</span> ${longest === 1 ? "day" : "days"}.</p>
</div>
<p data-field="streak-sentence">${sentence}</p>
</section>`;
}

/** A medal for an earned badge, a padlock for a locked one: decoration, the words say which. */
const MEDAL = html`<svg class="badge-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false"><path class="ribbon" d="M7 1h4l2 6H9zM13 1h4l-2 6h-4z"/><circle class="medal" cx="12" cy="15" r="7"/><path class="medal-star" d="M12 10.5l1.3 2.7 3 .4-2.2 2.1.5 3-2.6-1.4-2.6 1.4.5-3-2.2-2.1 3-.4z"/></svg>`;
const PADLOCK = html`<svg class="badge-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false"><path class="shackle" d="M8 11V8a4 4 0 0 1 8 0v3"/><rect class="lock-body" x="5" y="11" width="14" height="10" rx="2"/></svg>`;

function achievementItem(tile: AchievementTile): Markup {
  return tile.earned
    ? html`<li class="earned" data-achievement="${tile.id}" data-earned="true">${MEDAL}<span><span class="state">Earned ${tile.earnedAt === undefined ? "" : date(tile.earnedAt.slice(0, 10))}</span><strong class="badge-title">${tile.title}</strong></span></li>`
    : html`<li class="locked" data-achievement="${tile.id}" data-earned="false">${PADLOCK}<span><span class="state">Not yet</span>${tile.title}: ${tile.howToEarn}</span></li>`;
}

function achievementsSection(view: ReaderView): Markup {
  const earned = view.achievements.filter((tile) => tile.earned).length;
  return html`<section aria-labelledby="achievements-heading">
<h2 id="achievements-heading">Achievements <span class="note">(${earned} earned)</span></h2>
<ul class="achievements">${view.achievements.map(achievementItem)}</ul>
</section>`;
}

function awardRow(award: AwardLine): Markup {
  const paid =
    award.requestedXp === undefined
      ? html`${award.xp}`
      : html`${award.xp} <span class="note">(capped from ${award.requestedXp})</span>`;
  // Only that it was revoked: the operator's reason is a note for operators (docs/reading.md).
  const revoked = award.revoked ? html`<br><span class="note">Revoked</span>` : "";
  return html`<tr data-award="${award.id}"${award.revoked ? html` data-revoked="true"` : ""}>
<td><span${award.revoked ? html` class="revoked"` : ""}>${withDates(award.forWhat)}</span>${revoked}</td>
<td>${date(award.earnedOn)}</td>
<td class="num"><span${award.revoked ? html` class="revoked"` : ""}>${paid}</span></td>
</tr>`;
}

function awardsSection(view: ReaderView): Markup {
  const body =
    view.awards.length === 0
      ? html`<p>No awards yet.</p>`
      : html`<table>
<caption class="visually-hidden">The last awards, newest first</caption>
<thead><tr><th scope="col">For</th><th scope="col">Day</th><th scope="col" class="num">XP</th></tr></thead>
<tbody>${view.awards.map(awardRow)}</tbody>
</table>`;
  return html`<section aria-labelledby="awards-heading">
<h2 id="awards-heading">Last awards</h2>
${body}
</section>`;
}

function boardSection(board: BoardView): Markup {
  const { rank, xp } = board.reader;
  const own =
    rank === undefined
      ? xp === 0
        ? "You have no XP this week yet."
        : `You have ${xp} XP this week, past the board's top 1,000.`
      : html`You are <strong>#<span data-field="week-rank">${rank}</span></strong> with <span data-field="week-xp">${xp}</span> XP this week.`;
  const table =
    board.entries.length === 0
      ? html`<p>No one has XP this week yet.</p>`
      : html`<table>
<caption class="visually-hidden">This week's top readers</caption>
<thead><tr><th scope="col" class="num">Rank</th><th scope="col">Reader</th><th scope="col" class="num">XP</th></tr></thead>
<tbody>${board.entries.map(
          (
            entry,
          ) => html`<tr${entry.isReader ? html` class="reader" aria-current="true"` : ""} data-board-user="${entry.userId}">
<td class="num">${entry.rank}</td><td>${entry.userId}${entry.isReader ? " (you)" : ""}</td><td class="num">${entry.xp}</td>
</tr>`,
        )}</tbody>
</table>`;
  return html`<section aria-labelledby="board-heading">
<h2 id="board-heading">This week's board <span class="note">(${board.week})</span></h2>
<p>${own}</p>
${table}
</section>`;
}

/** A campaign running now: what it pays, on what, until when (its title is the operator's, shown as it is). */
function campaignBanners(view: ReaderView): Markup | string {
  if (view.campaigns.length === 0) return "";
  return html`${view.campaigns.map(
    (
      campaign,
    ) => html`<aside class="campaign" aria-label="Campaign running now" data-campaign="${campaign.id}">
<svg class="spark" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false"><path d="M12 1l2.6 7.4L22 11l-7.4 2.6L12 21l-2.6-7.4L2 11l7.4-2.6z"/></svg>
<p><strong class="wrap">${campaign.title}</strong><br><span data-field="campaign-offer">${campaign.offer}</span></p>
</aside>`,
  )}`;
}

export const SITE_TITLE = "Reading rewards";

/** A reader's page: level, today, streak, achievements, last awards, the week's board. */
export function readerPage(view: ReaderView): Markup {
  return layout(
    SITE_TITLE,
    { userId: view.userId, timeZone: view.timeZoneAsked ? view.timeZone : "" },
    html`<p class="wrap">Rewards of reader <strong data-field="user">${quoted(view.userId)}</strong></p>
${campaignBanners(view)}
${levelSection(view)}
${todaySection(view)}
${streakSection(view)}
${achievementsSection(view)}
${awardsSection(view)}
${boardSection(view.board)}`,
  );
}

/** The page with the form alone: no reader asked for yet. */
export function askPage(form: FormValues): Markup {
  return layout(SITE_TITLE, form, html`<p>Enter a reader id to see their rewards.</p>`);
}

/** A page that shows no reader's data: the read API refused the id or a parameter (its words). */
export function refusedPage(form: FormValues, reason: string): Markup {
  return layout(
    SITE_TITLE,
    form,
    html`<div class="problem" role="alert"><p>We cannot show these rewards: ${withInputsQuoted(reason, [form.userId, form.timeZone])}</p></div>`,
  );
}

/** A page that shows no reader's data: the read API could not answer. */
export function unavailablePage(form: FormValues): Markup {
  return layout(
    SITE_TITLE,
    form,
    html`<div class="problem" role="alert"><p>Rewards are not available right now: the rewards service did not answer. Please try again in a minute.</p></div>`,
  );
}
