import { html } from "hono/html";
import type { AchievementTile } from "./achievementGuide";
import { PAGE_STYLE } from "./pageStyle";
import type { AwardLine, BoardView, ReaderView } from "./readerView";

type Markup = ReturnType<typeof html>;

/** The whole document around a page's content: one column, the reader-id form on top. */
function layout(title: string, userId: string, content: Markup | string): Markup {
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
<div><label for="user">Reader id</label><input id="user" name="user" value="${userId}" autocomplete="off" required></div>
<button type="submit">Show rewards</button>
</form>
</header>
<main>${content}</main>
</body>
</html>`;
}

function levelSection(view: ReaderView): Markup {
  const { level, xpFloor, xpNext, intoLevel, levelSpan } = view.level;
  return html`<section aria-labelledby="level-heading">
<h2 id="level-heading">Level <span data-field="level">${level}</span></h2>
<p><span class="figure" data-field="xp">${view.xp}</span> XP</p>
<label for="level-bar">XP toward level ${level + 1}: ${intoLevel} of ${levelSpan}</label>
<progress id="level-bar" max="${levelSpan}" value="${intoLevel}">${intoLevel} of ${levelSpan}</progress>
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
  return html`<section aria-labelledby="today-heading">
<h2 id="today-heading">Today <span class="note">(${day}, UTC)</span></h2>
${figures}
</section>`;
}

function streakSection(view: ReaderView): Markup {
  const { current, longest, lastDay } = view.streak;
  return html`<section aria-labelledby="streak-heading">
<h2 id="streak-heading">Streak</h2>
<p><span class="figure" data-field="streak-current">${current}</span> ${current === 1 ? "day" : "days"} in a row now; longest <span data-field="streak-longest">${longest}</span> ${longest === 1 ? "day" : "days"}.</p>
<p class="note">${lastDay === undefined ? "No day read yet: read today to start a run." : `Last day read: ${lastDay}. Miss a day and the run starts over.`}</p>
</section>`;
}

function achievementItem(tile: AchievementTile): Markup {
  return tile.earned
    ? html`<li class="earned" data-achievement="${tile.id}" data-earned="true"><span class="state">Earned ${tile.earnedAt?.slice(0, 10) ?? ""}</span>${tile.title}</li>`
    : html`<li class="locked" data-achievement="${tile.id}" data-earned="false"><span class="state">Not yet</span>${tile.title}: ${tile.howToEarn}</li>`;
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
<td><span${award.revoked ? html` class="revoked"` : ""}>${award.forWhat}</span>${revoked}</td>
<td>${award.earnedOn}</td>
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

export const SITE_TITLE = "Reading rewards";

/** A reader's page: level, today, streak, achievements, last awards, the week's board. */
export function readerPage(view: ReaderView): Markup {
  return layout(
    SITE_TITLE,
    view.userId,
    html`<p class="wrap">Rewards of reader <strong data-field="user">${view.userId}</strong></p>
${levelSection(view)}
${todaySection(view)}
${streakSection(view)}
${achievementsSection(view)}
${awardsSection(view)}
${boardSection(view.board)}`,
  );
}

/** The page with the form alone: no reader asked for yet. */
export function askPage(): Markup {
  return layout(SITE_TITLE, "", html`<p>Enter a reader id to see their rewards.</p>`);
}

/** A page that shows no reader's data: the read API refused the id or a parameter (its words). */
export function refusedPage(userId: string, reason: string): Markup {
  return layout(
    SITE_TITLE,
    userId,
    html`<div class="problem" role="alert"><p>We cannot show these rewards: ${reason}</p></div>`,
  );
}

/** A page that shows no reader's data: the read API could not answer. */
export function unavailablePage(userId: string): Markup {
  return layout(
    SITE_TITLE,
    userId,
    html`<div class="problem" role="alert"><p>Rewards are not available right now: the rewards service did not answer. Please try again in a minute.</p></div>`,
  );
}
