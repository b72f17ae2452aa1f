import { userIdSchema } from "@rewards/core";
import {
  achievementsSchema,
  boardSchema,
  historyPageSchema,
  MAX_PAGE_LIMIT,
  profileSchema,
  READ_PARAMETERS,
  rulesViewSchema,
} from "@rewards/reader";
import { z } from "zod";
import { problemTypes } from "./problem";
import { ROUTES } from "./route";

const problemSchema = z
  .object({
    type: z.enum(Object.values(problemTypes).map((p) => p.type) as [string, ...string[]]),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().describe("what was wrong with this request; for a 5xx, nothing of the cause"),
    parameter: z.enum(READ_PARAMETERS).optional().describe("the bad parameter (400 only)"),
  })
  .describe("an RFC 9457 problem");

/** A zod schema as an OpenAPI 3.1 component (JSON Schema 2020-12, without its $schema). */
function component(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "output" });
  return rest;
}

/** Every answer's headers (Content-Type is the content's): each one is always sent. */
const noStore = {
  "Cache-Control": {
    description: "always no-store",
    required: true,
    schema: { type: "string", const: "no-store" },
  },
};

const problem = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { ...noStore, ...headers },
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

const failures = {
  "404": problem("no such route"),
  "405": problem("a method other than GET", {
    Allow: {
      description: "the one method allowed",
      required: true,
      schema: { type: "string", const: "GET" },
    },
  }),
  "500": problem("an internal failure (a missing table, denied access, a bug); the body names no cause"),
  "503": problem("the table could not be read just now (throttling); Retry-After says when to try again", {
    "Retry-After": {
      description: "seconds to wait before trying again",
      required: true,
      schema: { type: "string", pattern: "^[0-9]+$" },
    },
  }),
};

const limitParameter = (what: string) => ({
  name: "limit",
  in: "query",
  required: false,
  description: `${what} per page, 1 to ${MAX_PAGE_LIMIT}; 20 when absent`,
  schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_LIMIT, default: 20 },
});

const cursorParameter = {
  name: "cursor",
  in: "query",
  required: false,
  description: "the previous page's cursor, as it was given",
  schema: { type: "string", minLength: 1 },
};

const userIdParameter = {
  name: "userId",
  in: "path",
  required: true,
  description: "the user's id, exactly as in the events (1 to 256 characters), percent-encoded",
  // The events' own rule (1 to 256 characters, counted as code points, as JSON Schema counts them).
  schema: component(userIdSchema),
};

/**
 * The read API's OpenAPI 3.1 document (schemas/reader.openapi.json, written by
 * `npm run schemas`): its bodies are the reader library's zod schemas, so the library, the
 * API and this document cannot drift apart.
 */
export function readerOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "rewards read API",
      version: "1",
      description:
        "A reader's rewards: profile (XP, counts, streak, level, today against the daily cap, this week's XP and rank), award history and achievements; and each week's board. A Lambda function URL with IAM auth: sign each request with SigV4 (service lambda). docs/reading.md.",
    },
    security: [{ sigv4: [] }],
    paths: {
      [ROUTES.profile]: {
        get: {
          operationId: "getProfile",
          summary: "a user's profile; an unknown user is a new reader (0 XP), never a 404",
          parameters: [
            userIdParameter,
            {
              name: "timeZone",
              in: "query",
              required: false,
              description:
                "the IANA time zone the streak's today is read in (e.g. Europe/Paris); UTC when absent",
              schema: { type: "string", minLength: 1 },
            },
          ],
          responses: {
            "200": {
              description: "the profile",
              headers: noStore,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Profile" } } },
            },
            "400": problem("a userId the events' schema refuses, or a timeZone that is not an IANA zone"),
            ...failures,
          },
        },
      },
      [ROUTES.awards]: {
        get: {
          operationId: "getAwards",
          summary: "one page of a user's awards, newest first",
          parameters: [userIdParameter, limitParameter("awards"), cursorParameter],
          responses: {
            "200": {
              description: "a page of the history",
              headers: noStore,
              content: { "application/json": { schema: { $ref: "#/components/schemas/HistoryPage" } } },
            },
            "400": problem("a bad userId, limit or cursor (the body's parameter names it)"),
            ...failures,
          },
        },
      },
      [ROUTES.achievements]: {
        get: {
          operationId: "getAchievements",
          summary: "a user's achievements, newest first; none for an unknown user, never a 404",
          parameters: [userIdParameter],
          responses: {
            "200": {
              description: "the achievements",
              headers: noStore,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Achievements" } } },
            },
            "400": problem("a userId the events' schema refuses"),
            ...failures,
          },
        },
      },
      [ROUTES.board]: {
        get: {
          operationId: "getBoard",
          summary: "one page of a week's board, most XP first; an empty week has no entries, never a 404",
          parameters: [
            {
              name: "week",
              in: "query",
              required: false,
              description:
                "the ISO week (from Monday 00:00 UTC), e.g. 2026-W49; the current week (UTC) when absent, or the cursor's",
              schema: { type: "string", pattern: "^\\d{4}-W\\d{2}$" },
            },
            limitParameter("entries"),
            cursorParameter,
          ],
          responses: {
            "200": {
              description: "a page of the board",
              headers: noStore,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Board" } } },
            },
            "400": problem(
              "a week that is not an ISO week, a bad limit, or a cursor this API did not give for that week's board (the body's parameter names it)",
            ),
            ...failures,
          },
        },
      },
      [ROUTES.rules]: {
        get: {
          operationId: "getRules",
          summary:
            "the rules in force: every type, the achievements, running and coming campaigns (docs/rules.md); version 0 when nothing is published",
          responses: {
            "200": {
              description: "the rules in force",
              headers: noStore,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Rules" } } },
            },
            ...failures,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        sigv4: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description:
            "AWS Signature Version 4 (service lambda, the URL's region): the function URL's IAM auth",
        },
      },
      schemas: {
        Profile: component(profileSchema),
        HistoryPage: component(historyPageSchema),
        Achievements: component(achievementsSchema),
        Board: component(boardSchema),
        Rules: component(rulesViewSchema),
        Problem: component(problemSchema),
      },
    },
  };
}
