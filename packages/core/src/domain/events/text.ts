import { z } from "zod";

/**
 * `min`–`max` characters of well-formed Unicode, counted as code points (what a person
 * calls characters). JSON may spell a lone UTF-16 surrogate (`"\ud800"`): such text has
 * no UTF-8 form, and hashing or storing it would silently turn it into U+FFFD and collide
 * with another intent's key. So it is refused, never repaired.
 */
export function text(min: number, max: number) {
  return (
    z
      .string()
      .refine((value) => value.isWellFormed(), "must be well-formed Unicode (no lone surrogates)")
      .refine((value) => {
        const length = [...value].length;
        return length >= min && length <= max;
      }, `must be ${min} to ${max} characters`)
      // For the JSON Schema: its lengths count code points too.
      .meta({ minLength: min, maxLength: max })
  );
}

/** `1 user`, `2 users`, `0 users`: a count in the words an operator's tool prints. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
