import { z } from "zod";

const memory = z.union([z.number().int().min(2), z.literal("forever")]);
const instant = z.string().describe("RFC 3339, with an offset");

/** `reader.rules()` and `GET /rules` (docs/reading.md#the-rules): what a site shows of the rules in force. */
export const rulesViewSchema = z
  .object({
    version: z
      .number()
      .int()
      .nonnegative()
      .describe("the version in force; 0: the built-in rules (nothing published)"),
    publishedAt: instant.optional().describe("when it was published; absent for version 0"),
    types: z.array(
      z.object({
        type: z.string(),
        xp: z.union([
          z.number().int().nonnegative(),
          z.object({ per: z.string(), each: z.number().int().positive(), max: z.number().int().positive() }),
        ]),
        memory,
        retired: z.literal(true).optional(),
      }),
    ),
    achievements: z
      .array(
        z.object({
          id: z.string(),
          title: z.string(),
          description: z.string().optional(),
          retired: z.literal(true).optional(),
        }),
      )
      .describe("the listed achievements; `level-<n>` are implicit (docs/reading.md#levels)"),
    campaigns: z
      .array(
        z.object({
          id: z.string(),
          title: z.string(),
          types: z.array(z.string()),
          from: instant,
          to: instant,
          multiplier: z.number().int().optional(),
          bonus: z.number().int().optional(),
        }),
      )
      .describe(
        "running and coming campaigns (those whose `to` is still ahead), judged on each event's time",
      ),
  })
  .describe('the rules in force, as a site shows them: the ladder, and "double XP this weekend"');

export type RulesView = z.infer<typeof rulesViewSchema>;

/** The parts of a version `rulesViewOf` reads (a verified `RulesVersion`). */
interface VersionShown {
  version: number;
  publishedAt?: string | undefined;
  document: {
    types: Readonly<
      Record<
        string,
        {
          xp: number | { per: string; each: number; max: number };
          memory: number | "forever";
          retired: boolean;
        }
      >
    >;
    achievements: ReadonlyArray<{
      id: string;
      title: string;
      description?: string | undefined;
      retired: boolean;
    }>;
    campaigns: ReadonlyArray<{
      id: string;
      title: string;
      types: string[];
      from: string;
      to: string;
      multiplier?: number | undefined;
      bonus?: number | undefined;
    }>;
  };
}

/** What a site is shown of `version` at `now`: every type and achievement, and the campaigns not yet over. Pure. */
export function rulesViewOf(version: VersionShown, now: Date): RulesView {
  const { document } = version;
  return {
    version: version.version,
    ...(version.publishedAt === undefined ? {} : { publishedAt: version.publishedAt }),
    types: Object.entries(document.types).map(([type, rule]) => ({
      type,
      xp: rule.xp,
      memory: rule.memory,
      ...(rule.retired ? { retired: true as const } : {}),
    })),
    achievements: document.achievements.map((achievement) => ({
      id: achievement.id,
      title: achievement.title,
      ...(achievement.description === undefined ? {} : { description: achievement.description }),
      ...(achievement.retired ? { retired: true as const } : {}),
    })),
    campaigns: document.campaigns
      .filter((campaign) => Date.parse(campaign.to) > now.getTime())
      .map((campaign) => ({
        id: campaign.id,
        title: campaign.title,
        types: [...campaign.types],
        from: campaign.from,
        to: campaign.to,
        ...(campaign.multiplier === undefined ? {} : { multiplier: campaign.multiplier }),
        ...(campaign.bonus === undefined ? {} : { bonus: campaign.bonus }),
      })),
  };
}
