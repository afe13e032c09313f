import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DOC_COMMANDS } from "./doc-commands.ts";
import {
  inlineNpmCommands,
  missingNpmScripts,
  RUN_STAGES,
  shellCommands,
  uncoveredCommands,
  unlabelledFences,
  type Coverage,
  type DocCommand,
  type RunStage,
} from "./markdown-commands.ts";
import { anchorsOf, brokenLinks, relativeLinks } from "./markdown-links.ts";
import { readFences } from "./markdown.ts";

const REPO = resolve(import.meta.dirname, "..");
const POSTGRES_URL = process.env.BOOKING_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** The documentation: README.md, every guide under docs/ and the READMEs of e2e/ and the packages, as absolute paths. */
function docFiles(root = REPO): string[] {
  const markdownIn = (folder: string) =>
    readdirSync(join(root, folder))
      .filter((name) => name.endsWith(".md"))
      .map((name) => join(root, folder, name));
  const packageReadmes = existsSync(join(root, "packages"))
    ? readdirSync(join(root, "packages"))
        .map((name) => join(root, "packages", name, "README.md"))
        .filter((path) => existsSync(path))
    : [];
  return [join(root, "README.md"), ...markdownIn("docs"), ...[join(root, "e2e", "README.md")].filter((path) => existsSync(path)), ...packageReadmes];
}

/** Every shell command of the documentation under `root`. */
function docCommands(root = REPO): DocCommand[] {
  return docFiles(root).flatMap((file) => shellCommands(readFileSync(file, "utf8"), file.slice(root.length + 1)));
}

/** A shell command's run: exit code and output. */
function sh(command: string, cwd: string, env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync("bash", ["-c", command], { cwd, env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Runs the doc commands that `DOC_COMMANDS` runs in `stage`, in the docs' order; `before` sees each first. */
function runStage(stage: RunStage, cwd: string, env: Record<string, string>, before: (command: string) => void = () => {}): string[] {
  const commands = docCommands().filter((c) => {
    const entry = DOC_COMMANDS[c.command];
    return entry && "run" in entry && entry.run === stage;
  });
  for (const command of commands) {
    before(command.command);
    const entry = DOC_COMMANDS[command.command] as { run: RunStage; expect?: RegExp };
    const run = sh(command.command, cwd, env);
    expect(run.code, `${command.file}:${command.line}: ${command.command}\n${run.stderr}`).toBe(0);
    if (entry.expect) expect(run.stdout).toMatch(entry.expect);
  }
  return commands.map((c) => c.command);
}

let folders: string[] = [];
afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "docs-check-"));
  folders.push(folder);
  return folder;
}

/** A temporary copy of the documentation with `docs/extra.md` added, answering its root. */
function docsWith(extra: string): string {
  const root = tempFolder();
  mkdirSync(join(root, "docs"));
  for (const file of docFiles()) {
    const copy = join(root, file.slice(REPO.length + 1));
    mkdirSync(dirname(copy), { recursive: true });
    writeFileSync(copy, readFileSync(file, "utf8"));
  }
  writeFileSync(join(root, "docs", "extra.md"), extra);
  return root;
}

/** True when PostgreSQL answers at `url`. */
function postgresAnswers(url: string): boolean {
  return sh(`psql "${url}" -Atqc "SELECT 1"`, REPO).stdout.trim() === "1";
}

describe("the docs' shell commands", () => {
  it("are each run here, by a named test or script, or marked not-run with a reason", () => {
    const commands = docCommands();
    // The scan must have reached the guides, or an empty list would pass.
    expect(commands.filter((c) => c.file === "README.md").map((c) => c.command)).toEqual(["npm ci && npm start", "npm ci && npm test"]);
    expect(commands.length).toBeGreaterThan(30);
    expect(uncoveredCommands(commands, DOC_COMMANDS, REPO)).toEqual([]);
    // Entries whose command left the docs would cover nothing; they go with it.
    const written = new Set(commands.map((c) => c.command));
    expect(Object.keys(DOC_COMMANDS).filter((command) => !written.has(command))).toEqual([]);
    // A command run in a stage no test runs would pass unrun: each stage is one of RUN_STAGES, and a test here runs each.
    const stages = Object.values(DOC_COMMANDS).flatMap((entry) => ("run" in entry ? [entry.run as string] : []));
    expect(stages.filter((stage) => !(RUN_STAGES as readonly string[]).includes(stage))).toEqual([]);
    expect(new Set(stages)).toEqual(new Set(RUN_STAGES));
    const thisFile = readFileSync(import.meta.filename, "utf8");
    expect(RUN_STAGES.filter((stage) => !thisFile.includes(`runStage("${stage}", `))).toEqual([]);
    // Marking a block not-run is the exception.
    expect(new Set(commands.filter((c) => c.notRun).map((c) => `${c.file}: ${c.notRun}`)).size).toBeLessThanOrEqual(2);
  });

  it("name npm scripts that exist, in blocks and inline, including those no test runs", () => {
    expect(missingNpmScripts(docCommands(), REPO)).toEqual([]);
    const inline = docFiles().flatMap((file) => inlineNpmCommands(readFileSync(file, "utf8"), file.slice(REPO.length + 1)));
    expect(inline.map((c) => c.command)).toContain("npm run admin -- feed-token <id>");
    expect(missingNpmScripts(inline, REPO)).toEqual([]);
    expect(missingNpmScripts(shellCommands("```sh\nnpm run admni -- help\nnpm test -w @booking/nowhere\n```\n", "x.md"), REPO)).toEqual([
      'x.md:2: `npm run admni -- help` runs the npm script "admni", which . does not define',
      'x.md:3: `npm test -w @booking/nowhere` runs the npm script "test", which @booking/nowhere does not define',
    ]);
  });

  it("stand in fenced blocks that each name their language", () => {
    expect(docFiles().flatMap((file) => unlabelledFences(readFileSync(file, "utf8"), file))).toEqual([]);
  });

  it("runs the commands the docs give for the repository: the CLI's usage, a key", () => {
    expect(runStage("repo", REPO, {})).toEqual(expect.arrayContaining(["npm run admin -- help", "openssl rand -base64 32"]));
  }, 60_000);

  it("backs up a live SQLite database as the production guide says, and the copy holds its rows", () => {
    const folder = tempFolder();
    mkdirSync(join(folder, "data"));
    const made = sh(
      `sqlite3 data/booking.sqlite "PRAGMA journal_mode=WAL; CREATE TABLE reservations (uuid TEXT); INSERT INTO reservations VALUES ('kept')"`,
      folder,
    );
    expect(made.code, `sqlite3 must be installed (apt-get install -y sqlite3): ${made.stderr}`).toBe(0);
    expect(runStage("sqlite", folder, {})).toHaveLength(1);
    expect(sh(`sqlite3 data/booking-backup.sqlite "SELECT uuid FROM reservations"`, folder).stdout).toBe("kept\n");
  });

  it("dumps a PostgreSQL database and restores it as the production guide says", (context) => {
    if (!postgresAnswers(POSTGRES_URL)) {
      if (process.env.CI) throw new Error(`PostgreSQL does not answer at ${POSTGRES_URL}`);
      context.skip(`PostgreSQL does not answer at ${POSTGRES_URL}`);
    }
    const database = `docs_check_${process.pid}_${Date.now()}`;
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${database}`;
    expect(sh(`psql "${POSTGRES_URL}" -qc "CREATE DATABASE ${database}"`, REPO).code).toBe(0);
    try {
      expect(sh(`psql "${url}" -qc "CREATE TABLE reservations (uuid text); INSERT INTO reservations VALUES ('kept')"`, REPO).code).toBe(0);
      const folder = tempFolder();
      // A row written after the dump is gone once the dump is restored.
      const ran = runStage("postgres", folder, { DATABASE_URL: String(url) }, (command) => {
        if (command.startsWith("pg_restore")) expect(sh(`psql "${url}" -qc "INSERT INTO reservations VALUES ('after the dump')"`, REPO).code).toBe(0);
      });
      expect(ran.map((command) => command.split(" ")[0])).toEqual(["pg_dump", "pg_restore"]);
      expect(sh(`psql "${url}" -Atqc "SELECT uuid FROM reservations"`, REPO).stdout).toBe("kept\n");
    } finally {
      sh(`psql "${POSTGRES_URL}" -qc "DROP DATABASE IF EXISTS ${database} WITH (FORCE)"`, REPO);
    }
  }, 60_000);

  it("fails a command added to a doc without a test, naming its file and line, until its block says why it is not run", () => {
    const added = docsWith("# Extra\n\nText.\n\n```sh\nnpm run admin -- list   # every event type\n```\n");
    expect(uncoveredCommands(docCommands(added), DOC_COMMANDS, REPO)).toEqual([
      "docs/extra.md:6: `npm run admin -- list` is run by no test: run it in .ci/docs.test.ts, name the test that runs it in .ci/doc-commands.ts, or mark its block <!-- not-run: reason -->",
    ]);
    const excused = docsWith("# Extra\n\n<!-- not-run: lists a live server's event types -->\n```sh\nnpm run admin -- list\n```\n");
    expect(uncoveredCommands(docCommands(excused), DOC_COMMANDS, REPO)).toEqual([]);
  });

  it("fails a manifest entry whose test is gone or no longer runs the command", () => {
    const commands = shellCommands("```sh\nnpm run admin -- show <id>\nnpm run admin -- token <id>\n```\n", "docs/x.md");
    expect(
      uncoveredCommands(
        commands,
        {
          "npm run admin -- show <id>": { test: { file: "packages/server/test/admin-cli.test.ts", name: "shows everything at once", shows: [] } },
          "npm run admin -- token <id>": {
            test: { file: "packages/server/test/admin-cli.test.ts", name: "shows one event type's settings", shows: ['cli("token", id)'] },
          },
        },
        REPO,
      ),
    ).toEqual([
      'docs/x.md:2: `npm run admin -- show <id>`: packages/server/test/admin-cli.test.ts has no test "shows everything at once"',
      'docs/x.md:3: `npm run admin -- token <id>`: the test "shows one event type\'s settings" does not contain "cli(\\"token\\", id)"',
    ]);
  });

  it("fails a command run in a stage that no test runs", () => {
    const commands = shellCommands("```sh\nnpm run admin -- help\nopenssl rand -base64 32\n```\n", "docs/x.md");
    const coverage = { "npm run admin -- help": { run: "rep" }, "openssl rand -base64 32": { run: "repo" } } as unknown as Record<string, Coverage>;
    expect(uncoveredCommands(commands, coverage, REPO)).toEqual([
      'docs/x.md:2: `npm run admin -- help` is run in the stage "rep", which .ci/docs.test.ts does not run (repo, sqlite, postgres)',
    ]);
  });

  it("reads continued lines, quotes across lines, comments and console prompts as one command each", () => {
    const markdown = [
      "```sh",
      "# a comment line",
      "export KEY=change-me          # the admin's key, in the CLI's shell",
      'curl -X POST "$B/reservations" \\',
      '  -d \'{"start":"<start>",',
      '       "email":"ada@example.com"}\'',
      "```",
      "",
      "```console",
      "$ npm run admin -- list",
      "1  Intro call",
      "```",
      "",
      "```json",
      '{ "not": "a command" }',
      "```",
    ].join("\n");
    expect(shellCommands(markdown, "x.md").map((c) => [c.line, c.command])).toEqual([
      [3, "export KEY=change-me"],
      [4, 'curl -X POST "$B/reservations" -d \'{"start":"<start>", "email":"ada@example.com"}\''],
      [10, "npm run admin -- list"],
    ]);
  });
});

describe("the docs' fenced blocks", () => {
  it("close as CommonMark says, for commands, headings and links alike: the same character, at least as many, nothing after", () => {
    const markdown = [
      "```text",
      "```sh",
      "# Not a heading [gone](gone.md)",
      "```",
      "# Heading",
      "~~~text",
      "```",
      "# Not one either",
      "~~~",
      "````text",
      "```",
      "# Nor this",
      "`````",
      "```sh",
      "npm test",
      "```",
      "See [nothing](nowhere.md).",
    ].join("\n");
    expect(readFences(markdown).fences.map((fence) => [fence.line, fence.lang, fence.lines.length])).toEqual([
      [1, "text", 2],
      [6, "text", 2],
      [10, "text", 2],
      [14, "sh", 1],
    ]);
    expect(shellCommands(markdown, "x.md").map((c) => [c.line, c.command])).toEqual([[15, "npm test"]]);
    expect(unlabelledFences(markdown, "x.md")).toEqual([]);
    expect([...anchorsOf(markdown)]).toEqual(["heading"]);
    expect(relativeLinks(markdown, "x.md")).toEqual([{ file: "x.md", line: 17, target: "nowhere.md" }]);
    expect(inlineNpmCommands("```sh\n```text\n`npm run gone`\n```\n`npm test`\n", "x.md").map((c) => [c.line, c.command])).toEqual([[5, "npm test"]]);
  });
});

describe("the docs' links", () => {
  it("reach a file and a heading that exist, between the README and every guide", () => {
    const files = docFiles();
    expect(files.length).toBeGreaterThan(10);
    expect(brokenLinks(files, REPO)).toEqual([]);
  });

  it("fail on a missing file or heading, naming the file and line", () => {
    const root = docsWith(
      "# Extra\n\nSee [the CLI](admin.md#the-cli), [nothing](nowhere.md),\n[a lost heading](admin.md#the-gui) and [here](#extra), not `[code](gone.md)`.\n",
    );
    expect(brokenLinks([join(root, "docs", "extra.md")], root)).toEqual([
      "docs/extra.md:3: nowhere.md: no such file",
      "docs/extra.md:4: admin.md#the-gui: docs/admin.md has no heading #the-gui",
    ]);
  });

  it("name headings as GitHub does: lowercase, punctuation and backticks dropped, repeats numbered", () => {
    expect([
      ...anchorsOf("# The `<booking-calendar>` element\n## The organizer's side of a booking\n## Notes\n## Notes\n```sh\n# not a heading\n```\n"),
    ]).toEqual(["the-booking-calendar-element", "the-organizers-side-of-a-booking", "notes", "notes-1"]);
  });
});
