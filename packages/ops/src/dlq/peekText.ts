import type { ParkedMessage } from "@rewards/core";

/**
 * `text` in lines of at most `width` characters (code points), the first line after `first`,
 * each other after `rest` (both counted in the width), broken at spaces; a word longer than a
 * line is split across lines. Only the spaces a line breaks at are dropped: nothing is cut off.
 */
export function wrapText(text: string, width: number, first = "", rest = first): string[] {
  const lines: string[] = [];
  let line = "";
  const prefix = () => (lines.length === 0 ? first : rest);
  const room = () => Math.max(1, width - [...prefix()].length);
  const push = () => {
    lines.push(`${prefix()}${line}`);
    line = "";
  };
  for (const word of text.split(/\s+/).filter((each) => each !== "")) {
    const joined = line === "" ? word : `${line} ${word}`;
    if ([...joined].length <= room()) {
      line = joined;
      continue;
    }
    if (line !== "") push();
    let left = [...word];
    // A word wider than a line: split it, so no character falls past the edge.
    while (left.length > room()) {
      line = left.slice(0, room()).join("");
      left = left.slice(room());
      push();
    }
    line = left.join("");
  }
  if (line !== "" || lines.length === 0) push();
  return lines;
}

/** Long text cut to one line: `--json` has it whole. */
const clip = (text: string, max: number) =>
  [...text].length > max ? `${[...text].slice(0, max - 1).join("")}…` : text;

/**
 * Parked messages for people, `width` characters wide (a terminal's columns): what each is,
 * then why it was parked — the whole reason, wrapped, never cut — then its body on one line,
 * cut to the width (`--json` prints it whole).
 */
export function peekText(parked: readonly ParkedMessage[], width: number): string {
  const blocks = parked.map((message) => {
    const who = message.userId === undefined ? "no user" : `user ${message.userId}`;
    const what = `${message.sourceMessageId} ${message.error}: ${message.type ?? "no type"}, ${who}, parked at ${message.parkedAt || "(unknown)"}`;
    return [
      ...wrapText(what, width, "", "  "),
      ...wrapText(message.reason, width, "  reason: ", "          "),
      `  body:   ${clip(message.body, Math.max(1, width - 10))}`,
    ].join("\n");
  });
  return `${blocks.join("\n\n")}\n`;
}
