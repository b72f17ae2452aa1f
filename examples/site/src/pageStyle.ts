import { createHash } from "node:crypto";

/**
 * The page's only style sheet, inline (no build step, no second request), and its hash for the
 * Content-Security-Policy, so the page runs no script and loads nothing else. Colours keep text
 * at ≥ 4.5:1 against its background (WCAG AA); the layout is one column that fits a 320 px screen.
 */
export const PAGE_STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a; background: #fff; }
body { margin: 0 auto; padding: 1rem; max-width: 44rem; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: 1rem; }
label { display: block; font-weight: 600; }
input { font: inherit; padding: .4rem; border: 1px solid #555; border-radius: 4px; max-width: 100%; }
button { font: inherit; padding: .4rem 1rem; border: 0; border-radius: 4px; background: #1d4ed8; color: #fff; cursor: pointer; }
:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
meter { width: 100%; height: 1.2rem; }
.figure { font-size: 2rem; font-weight: 700; }
.note { color: #404040; }
.problem { border-left: 4px solid #b91c1c; padding: .5rem 1rem; background: #fef2f2; color: #7f1d1d; overflow-wrap: anywhere; }
ul.achievements { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(10.5rem, 1fr)); gap: .5rem; }
ul.achievements li { display: flex; gap: .5rem; align-items: flex-start; border-radius: 8px; padding: .5rem; border: 2px solid; }
.badge-icon { flex: none; }
ul.achievements li.earned { background: #fef3c7; border-color: #b45309; color: #78350f; box-shadow: 0 2px 6px rgba(120, 53, 15, .25); }
li.earned .ribbon { fill: #1d4ed8; }
li.earned .medal { fill: #f59e0b; stroke: #b45309; stroke-width: 1.2; }
li.earned .medal-star { fill: #fffbeb; }
.badge-title { display: block; }
ul.achievements li.locked { background: #f9fafb; border-style: dashed; border-color: #9ca3af; color: #4b5563; }
li.locked .shackle { fill: none; stroke: #9ca3af; stroke-width: 2; }
li.locked .lock-body { fill: #d1d5db; }
.state { display: block; font-size: .85rem; font-weight: 600; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .3rem .4rem; border-bottom: 1px solid #d4d4d4; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; overflow-wrap: normal; }
td, .wrap { overflow-wrap: anywhere; }
td.num .note { display: block; white-space: normal; font-size: .85rem; }
tr.reader { background: #fef9c3; font-weight: 700; }
.revoked { text-decoration: line-through; }
.date { white-space: nowrap; font-variant-numeric: tabular-nums; }
.hint { font-size: .85rem; font-weight: 400; color: #404040; }
.with-icon { display: flex; align-items: center; gap: .75rem; }
.with-icon p { margin: 0; }
.flame { flex: none; }
.flame-burning .flame-outer { fill: #ea580c; }
.flame-burning .flame-inner { fill: #fde047; }
.flame-waiting .flame-outer { fill: #fed7aa; stroke: #c2410c; stroke-width: 1.2; }
.flame-waiting .flame-inner { fill: #fb923c; }
.flame-out .flame-outer { fill: #f3f4f6; stroke: #6b7280; stroke-width: 1.2; stroke-dasharray: 2 1.5; }
.flame-out .flame-inner { fill: none; }
.flame-burning { transform-origin: 50% 100%; animation: flicker 1.6s ease-in-out infinite alternate; }
@keyframes flicker { from { transform: scale(1, 1); } to { transform: scale(.95, 1.06) rotate(-1.5deg); } }
@media (prefers-reduced-motion: reduce) { *, *::before, *::after { animation: none !important; transition: none !important; } }
.campaign { display: flex; align-items: center; gap: .75rem; margin: 1rem 0; padding: .75rem 1rem; border-radius: 8px; border: 2px solid #c2410c; background: #fff7ed; color: #7c2d12; }
.campaign p { margin: 0; }
.spark { flex: none; fill: #ea580c; }
.ring { flex: none; }
.ring-track { fill: none; stroke: #e5e7eb; stroke-width: 12; }
.ring-fill { fill: none; stroke: #1d4ed8; stroke-width: 12; stroke-linecap: round; animation: ring-in .9s ease-out; }
@keyframes ring-in { from { stroke-dasharray: 0 100; } }
.ring-level { font-size: 34px; font-weight: 700; fill: #1a1a1a; text-anchor: middle; }
.ring-caption { font-size: 13px; fill: #404040; text-anchor: middle; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export const PAGE_STYLE_HASH = `sha256-${createHash("sha256").update(PAGE_STYLE).digest("base64")}`;
