import { type DashboardBody, lineDimensions, lineOptions, type MetricWidget } from "./dashboardSpec";

/** Pixels per grid column and per grid row (CloudWatch's grid: 24 columns). */
const COLUMN = 40;
const ROW = 34;
const GAP = 6;
/** About how wide a character of the 12 px sans-serif is: enough to wrap, not to measure. */
const CHAR = 6.6;
/** The lines' colours, in CloudWatch's order. */
const COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];

const escapeXml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** Words into lines of at most `width` characters (a longer word is a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const text = (x: number, y: number, content: string, attributes = "") =>
  `<text x="${x}" y="${y}"${attributes}>${escapeXml(content)}</text>`;

/** One widget: its box, its title, a swatch and label per line, what it plots, its alarms. */
function widgetPicture(widget: MetricWidget<unknown>): string {
  const left = widget.x * COLUMN + GAP;
  const top = widget.y * ROW + GAP;
  const width = widget.width * COLUMN - GAP;
  const height = widget.height * ROW - GAP;
  const columns = Math.floor((width - 20) / CHAR);
  const { title, metrics, stat, period, annotations } = widget.properties;
  const parts = [`<rect x="${left}" y="${top}" width="${width}" height="${height}" rx="4" class="box"/>`];
  let y = top + 20;
  for (const line of wrap(title, Math.floor((width - 20) / (CHAR * 1.25)))) {
    parts.push(text(left + 10, y, line, ' class="title"'));
    y += 17;
  }
  y += 4;
  metrics.forEach((line, index) => {
    const colour = COLOURS[index % COLOURS.length] as string;
    parts.push(`<rect x="${left + 10}" y="${y - 9}" width="10" height="10" fill="${colour}"/>`);
    parts.push(text(left + 26, y, lineOptions(line).label));
    y += 16;
  });
  // What it plots, by namespace: "Rewards (service, stage): awarded, duplicate; Sum, 60 s".
  const byNamespace = new Map<string, Set<string>>();
  for (const line of metrics) {
    const key = `${line[0]} (${Object.keys(lineDimensions(line)).join(", ")})`;
    byNamespace.set(key, (byNamespace.get(key) ?? new Set()).add(line[1]));
  }
  const stats = [...new Set(metrics.map((line) => lineOptions(line).stat ?? stat))];
  const plotted = [...byNamespace].map(([key, names]) => `${key}: ${[...names].join(", ")}`);
  const footer = `${plotted.join("; ")}; ${stats.join(", ")}, ${period} s`;
  // Each annotation's label names its alarms, their threshold and how long it must be crossed.
  const alarms = (annotations?.horizontal ?? []).map((line) => line.label);
  const notes = [
    ...wrap(footer, columns).map((note) => ({ note, style: "note" })),
    ...alarms.flatMap((alarm) => wrap(alarm, columns)).map((note) => ({ note, style: "alarm" })),
  ];
  let noteY = top + height - 8 - (notes.length - 1) * 14;
  // Bottom-up under the legend: a widget with more to say than room would draw over its own lines.
  if (noteY - 10 < y) throw new Error(`dashboard picture: "${title}" has more notes than room; widen it`);
  for (const { note, style } of notes) {
    parts.push(text(left + 10, noteY, note, ` class="${style}"`));
    noteY += 14;
  }
  return `<g>\n${parts.map((part) => `  ${part}`).join("\n")}\n</g>`;
}

/**
 * The dashboard's layout as an SVG (docs/pictures/dashboard.svg, written by
 * `npx tsx scripts/drawDashboard.ts`): each widget where the grid puts it, its title, its
 * lines, what it plots and the alarms drawn on it. No data: the shape of the page.
 */
export function dashboardPicture(body: DashboardBody<unknown>): string {
  const width = Math.max(...body.widgets.map((w) => (w.x + w.width) * COLUMN)) + GAP;
  const height = Math.max(...body.widgets.map((w) => (w.y + w.height) * ROW)) + GAP;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<title>The operator's dashboard: ${body.widgets.length} widgets (${escapeXml(body.widgets.map((w) => w.properties.title).join("; "))})</title>`,
    "<style>.box{fill:#fff;stroke:#aab7b8}.title{font-weight:bold;font-size:13px}.note{fill:#545b64;font-size:11px}.alarm{fill:#d13212;font-size:11px}</style>",
    `<rect width="${width}" height="${height}" fill="#f2f3f3"/>`,
    ...body.widgets.map(widgetPicture),
    "</svg>",
    "",
  ].join("\n");
}
