/** At most this many characters of an input are quoted in a message. */
export const QUOTED_INPUT_CHARACTERS = 64;

/** Anything but a string, as text: JSON where it has one (`{"a":1}`, `[1]`), else its String (`0`, `undefined`). */
function textOf(input: unknown): string {
  if (typeof input !== "object" || input === null) return String(input);
  try {
    return JSON.stringify(input) ?? String(input);
  } catch {
    return String(input);
  }
}

/**
 * An input as an error message quotes it: a string in JSON's quotes (`"50"` told from `50`),
 * anything else as JSON or as it prints; and past 64 characters (code points, as `text()` counts
 * them) only the first 64, then "…" and the whole length: `"aaaa…" (257 characters)`. A message
 * says what was wrong with an input without repeating all of it: the read API's problem details,
 * the reader's errors and the command line's messages all quote inputs through it.
 */
export function quoteInput(input: unknown): string {
  const text = typeof input === "string" ? input : textOf(input);
  const quoted = (shown: string) => (typeof input === "string" ? JSON.stringify(shown) : shown);
  const characters = [...text];
  if (characters.length <= QUOTED_INPUT_CHARACTERS) return quoted(text);
  return `${quoted(`${characters.slice(0, QUOTED_INPUT_CHARACTERS).join("")}…`)} (${characters.length} characters)`;
}
