/**
 * What the page quotes of an input (a reader id, a zone): at most its first 64 characters. A
 * 257-character id quoted whole, in a heading and again in every error detail, is a wall of
 * text, and on a phone a box it overflows; 64 characters say which input it was.
 */
export const QUOTE_LIMIT = 64;

/** The input as the page quotes it: its first 64 characters (code points, never half a pair), then "…" when cut. */
export function quoted(input: string, limit = QUOTE_LIMIT): string {
  const characters = Array.from(input);
  return characters.length <= limit ? input : `${characters.slice(0, limit).join("")}…`;
}

/**
 * A text the page shows (the API's reason for a refusal) with each long input in it quoted so:
 * as it is and as JSON escapes it (how the API's details quote a value). A text that already
 * quotes less of it is left as it is.
 */
export function withInputsQuoted(text: string, inputs: readonly (string | undefined)[]): string {
  let result = text;
  for (const input of inputs) {
    if (input === undefined || Array.from(input).length <= QUOTE_LIMIT) continue;
    for (const form of new Set([input, JSON.stringify(input).slice(1, -1)]))
      result = result.split(form).join(quoted(form));
  }
  return result;
}
