import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The seams between the packages (docs/design.md, "The house"), held by reading the
// sources' import lines: a move that crosses one fails here, not in a review.
const root = fileURLToPath(new URL("..", import.meta.url));

function sources(folder: string): string[] {
  return readdirSync(`${root}${folder}`, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name))
    .map((entry) => `${entry.parentPath.slice(root.length)}/${entry.name}`.replace(/^\/+/, ""));
}

/** `from "…"` specifiers of the file's static and dynamic imports, `import type` left out. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(`${root}${file}`, "utf8");
  const statics = [...text.matchAll(/^import (?!type )[^;]*?from "([^"]+)"/gms)].map((m) => m[1] as string);
  const dynamics = [...text.matchAll(/import\("([^"]+)"\)/g)].map((m) => m[1] as string);
  return [...statics, ...dynamics];
}

const allImports = (file: string) =>
  [...readFileSync(`${root}${file}`, "utf8").matchAll(/from "([^"]+)"|import\("([^"]+)"\)/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );

describe("the pure domain (@rewards/core)", () => {
  const domain = sources("packages/core/src/domain");

  it("has its modules", () => {
    expect(domain).toContain("packages/core/src/domain/award/awardPlan.ts");
    expect(domain).toContain("packages/core/src/domain/table/tableLayout.ts");
  });

  it.each(domain)("%s loads no SDK, logger or adapter at run time", (file) => {
    const offending = runtimeImports(file).filter(
      (spec) => /^@aws-sdk\/|^@smithy\/|^pino$|^@rewards\//.test(spec) || /\.\.\/(aws|deploy)\//.test(spec),
    );
    expect(offending).toEqual([]);
  });
});

describe("the deployment's facts (@rewards/core/deploy)", () => {
  it.each(sources("packages/core/src/deploy"))("%s reaches no AWS adapter", (file) => {
    expect(allImports(file).filter((spec) => /^@aws-sdk\/|^@smithy\/|\.\.\/aws\//.test(spec))).toEqual([]);
  });
});

describe("entry points", () => {
  const outside = [...sources("infra"), ...sources("bench"), "sst.config.ts"];

  it.each(outside)("%s imports packages by their entry points, never by a src/ path", (file) => {
    expect(allImports(file).filter((spec) => /packages\/[^/]+\/src\//.test(spec))).toEqual([]);
  });

  it("infra/ reads the deployment's facts through @rewards/core/deploy alone", () => {
    const cores = sources("infra").flatMap((file) =>
      allImports(file).filter((spec) => spec.startsWith("@rewards/")),
    );
    expect(new Set(cores)).toEqual(new Set(["@rewards/core/deploy"]));
  });
});

describe("nothing in core knows a command line", () => {
  it.each([...sources("packages/core/src/domain"), ...sources("packages/core/src/aws")])(
    "%s builds no `rewards …` command",
    (file) => {
      // Comments may name a command; a string or template that builds one may not.
      const code = readFileSync(`${root}${file}`, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect(code).not.toMatch(/["'`][^"'`\n]*\brewards (user|dlq|guard|revoke|replay)\b/);
    },
  );
});

describe("the four functions are one shape", () => {
  const layout = (pkg: string) =>
    sources(`packages/${pkg}/src`)
      .map((file) => file.slice(`packages/${pkg}/src/`.length))
      .filter((file) => ["handler.ts", "index.ts"].includes(file) || file.startsWith("function/"));

  it.each(["worker", "announcer", "history"])(
    "%s: handler.ts over function/createHandler.ts and function/processBatch.ts",
    (pkg) => {
      expect(layout(pkg)).toEqual(
        expect.arrayContaining(["handler.ts", "function/createHandler.ts", "function/processBatch.ts"]),
      );
      expect(
        sources(`packages/${pkg}/src`).every((file) =>
          /\/src\/(handler|index)\.ts$|\/src\/function\//.test(file),
        ),
      ).toBe(true);
    },
  );

  it("read-api: handler.ts over function/createHandler.ts and function/answerRequest.ts (one request, not a batch)", () => {
    expect(layout("read-api")).toEqual(
      expect.arrayContaining(["handler.ts", "function/createHandler.ts", "function/answerRequest.ts"]),
    );
    expect(
      sources("packages/read-api/src").every((file) =>
        /\/src\/(handler|index)\.ts$|\/src\/function\//.test(file),
      ),
    ).toBe(true);
  });
});

describe("the CLI is commands over libraries (docs/architecture.md)", () => {
  const cli = sources("packages/cli/src");
  const code = (file: string) =>
    readFileSync(`${root}${file}`, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");

  it("keeps the operations, the scenario and the local functions out of the command's package", () => {
    const lines = cli.reduce(
      (sum, file) => sum + readFileSync(`${root}${file}`, "utf8").split("\n").length - 1,
      0,
    );
    // A budget: it grows by the commands added (`status`, `awards` and purge by reason: +150;
    // `rules`, its six verbs and `dev --rules`: +300), never by an operation moved in; what a command
    // computes belongs in ops. (+90: the top-level commands in one module, and what each runs imported
    // in its run or options, so `rewards --help` loads no package: tests/cliStartup.test.ts; +30:
    // commander's quoted values cut as every input is, core's quoteInput; +70: `grants tail`'s one
    // table at fixed widths and its --follow lines, text/grantsTailText.ts, what each event was in ops;
    // +20: `guard` and `schema` of a site's types, `backfill --achievements`: their work in ops.)
    expect(lines).toBeLessThanOrEqual(4_140);
    expect(cli).toContain("packages/cli/src/main.ts");
    expect(cli).toContain("packages/cli/src/registry.ts");
  });

  it("writes output and sets the exit code in runtime/io.ts and main.ts alone", () => {
    const writers = cli.filter((file) =>
      /process\.(stdout|stderr|exitCode|exit\b)|console\./.test(code(file)),
    );
    expect(writers.sort()).toEqual(["packages/cli/src/main.ts", "packages/cli/src/runtime/io.ts"]);
  });

  it.each(cli.filter((file) => file.startsWith("packages/cli/src/commands/")))(
    "%s reaches AWS only through @rewards/ops",
    (file) => {
      expect(allImports(file).filter((spec) => /^@aws-sdk\/|^@smithy\//.test(spec))).toEqual([]);
      expect(code(file)).not.toMatch(/\.send\(/);
    },
  );

  it.each([...sources("packages/ops/src"), ...sources("packages/scenario/src")])(
    "%s knows no command line: no commander, no process",
    (file) => {
      expect(allImports(file).filter((spec) => spec === "commander")).toEqual([]);
      expect(code(file)).not.toMatch(/\bprocess\./);
    },
  );

  it("is imported by nothing outside it", () => {
    const outside = [
      ...sources("packages").filter(
        (file) => !file.startsWith("packages/cli/") && !file.includes("/node_modules/"),
      ),
      ...sources("tests"),
      ...sources("bench"),
      ...sources("scripts"),
    ];
    expect(
      outside.filter((file) => allImports(file).some((spec) => spec.startsWith("@rewards/cli"))),
    ).toEqual([]);
  });
});

describe("the table's layout lives in core's domain alone", () => {
  const outside = [
    ...sources("packages").filter(
      (file) => /^packages\/[^/]+\/src\//.test(file) && !file.startsWith("packages/core/src/domain/"),
    ),
    ...sources("bench"),
  ];
  it.each(outside)("%s builds or slices no key by hand", (file) => {
    const code = readFileSync(`${root}${file}`, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    // A key's prefix in a string or template: `"USER#"`, `USER#${id}`, `"IDEM#…"`.
    expect(code).not.toMatch(/["'`](USER|DAY|IDEM|AWARD|BOARD|WEEK)#/);
  });
});
