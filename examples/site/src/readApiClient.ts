import { defaultProvider } from "@aws-sdk/credential-provider-node";
import {
  type Achievements,
  achievementsSchema,
  type Board,
  boardSchema,
  type HistoryPage,
  historyPageSchema,
  type Profile,
  profileSchema,
} from "@rewards/reader";
import { Hash } from "@smithy/hash-node";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentityProvider } from "@smithy/types";
import type { z } from "zod";
import { rulesFrom, type SiteRules } from "./campaigns";
import { ReadApiError } from "./readApiError";

export interface ReadApiClientOptions {
  /** READER_URL: the stage's function URL, or `rewards dev`'s loopback server. */
  url: string;
  /**
   * Credentials to sign with (SigV4, service `lambda`), as the deployed URL's IAM auth needs;
   * `"unsigned"` for `rewards dev`'s server, which takes requests signed or not.
   */
  credentials: AwsCredentialIdentityProvider | "unsigned";
  /** The region to sign for, when the URL does not name one (…lambda-url.<region>.on.aws). */
  region?: string;
  /** How long one request may take, in milliseconds (an integer; default 5,000). */
  timeoutMs?: number;
}

export interface ReadApiClient {
  profile(userId: string, timeZone?: string): Promise<Profile>;
  awards(userId: string, limit: number): Promise<HistoryPage>;
  achievements(userId: string): Promise<Achievements>;
  board(limit: number): Promise<Board>;
  /**
   * The rules' campaigns (`GET /rules`, SPEC §15d); undefined when the API has no such route
   * (a 404: an API older than the rules). Other failures throw, as the other reads do.
   */
  rules(): Promise<SiteRules | undefined>;
}

/**
 * The credentials a site's backend would sign with: the default chain (environment, profile,
 * instance or task role), or unsigned when it finds none — as examples/python/read.py does.
 */
export async function defaultCredentials(): Promise<AwsCredentialIdentityProvider | "unsigned"> {
  const chain = defaultProvider();
  try {
    await chain();
    return chain;
  } catch {
    // No credentials anywhere: only a local server (rewards dev) answers unsigned requests.
    return "unsigned";
  }
}

/** The region a function URL names, else the given one, else AWS_REGION's. */
export function regionOf(url: URL, fallback: string | undefined): string {
  const named = /\.lambda-url\.([a-z0-9-]+)\.on\.aws$/.exec(url.hostname);
  return named?.[1] ?? fallback ?? process.env.AWS_REGION ?? "us-east-1";
}

/**
 * One path segment for a user id: percent-encoded, `.` and `..` too, so that a hand-edited id
 * (`../board`, `a/awards`) stays one user's id and can never name another resource.
 */
export function userSegment(userId: string): string {
  return encodeURIComponent(userId).replaceAll(".", "%2E");
}

interface Problem {
  detail?: unknown;
  title?: unknown;
  parameter?: unknown;
}

/**
 * The read API as a site's backend calls it (docs/reading.md#the-http-read-api): GET, JSON,
 * every answer parsed with the reader library's schemas, every failure a ReadApiError.
 */
export function createReadApiClient(options: ReadApiClientOptions): ReadApiClient {
  // A trailing slash, so the routes resolve under the URL rather than beside its last segment.
  const base = new URL(options.url.endsWith("/") ? options.url : `${options.url}/`);
  const timeoutMs = Math.round(options.timeoutMs ?? 5000);
  const signer =
    options.credentials === "unsigned"
      ? undefined
      : new SignatureV4({
          service: "lambda",
          region: regionOf(base, options.region),
          credentials: options.credentials,
          sha256: Hash.bind(null, "sha256"),
        });

  async function get<T>(
    path: string,
    query: Record<string, string | undefined>,
    parse: (body: unknown) => T | undefined,
  ): Promise<T>;
  async function get<T>(
    path: string,
    query: Record<string, string | undefined>,
    parse: (body: unknown) => T | undefined,
    options: { notFound: "undefined" },
  ): Promise<T | undefined>;
  async function get<T>(
    path: string,
    query: Record<string, string | undefined>,
    parse: (body: unknown) => T | undefined,
    options?: { notFound: "undefined" },
  ): Promise<T | undefined> {
    const url = new URL(path, base);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: "application/json", host: url.host };
    const signed = signer
      ? await signer.sign({
          method: "GET",
          protocol: url.protocol,
          hostname: url.hostname,
          ...(url.port ? { port: Number(url.port) } : {}),
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers,
        })
      : { headers };
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(url, { headers: signed.headers, signal: AbortSignal.timeout(timeoutMs) });
      body = await response.json().catch(() => undefined);
    } catch (error) {
      // fetch's own message is "fetch failed": the cause (ECONNREFUSED, a timeout) says more.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new ReadApiError(
        "unavailable",
        `the read API at ${base.origin} did not answer: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
    if (response.status === 404 && options?.notFound === "undefined") return undefined;
    if (response.status >= 400 && response.status < 500 && response.status !== 429) {
      const problem = (body ?? {}) as Problem;
      const detail = typeof problem.detail === "string" ? problem.detail : `HTTP ${response.status}`;
      throw new ReadApiError(
        "refused",
        detail,
        response.status,
        typeof problem.parameter === "string" ? problem.parameter : undefined,
      );
    }
    if (!response.ok)
      throw new ReadApiError("unavailable", `the read API answered HTTP ${response.status}`, response.status);
    const parsed = parse(body);
    if (parsed === undefined)
      throw new ReadApiError(
        "unavailable",
        `the read API's answer to ${path} is not the contract's`,
        response.status,
      );
    return parsed;
  }

  /** A schema's parse, undefined for an answer that is not the contract's. */
  const by =
    <T>(schema: z.ZodType<T>) =>
    (body: unknown) => {
      const parsed = schema.safeParse(body);
      return parsed.success ? parsed.data : undefined;
    };

  return {
    profile: (userId, timeZone) => get(`users/${userSegment(userId)}`, { timeZone }, by(profileSchema)),
    awards: (userId, limit) =>
      get(`users/${userSegment(userId)}/awards`, { limit: String(limit) }, by(historyPageSchema)),
    achievements: (userId) => get(`users/${userSegment(userId)}/achievements`, {}, by(achievementsSchema)),
    board: (limit) => get("board", { limit: String(limit) }, by(boardSchema)),
    rules: () => get("rules", {}, rulesFrom, { notFound: "undefined" }),
  };
}
