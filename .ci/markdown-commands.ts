import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readFences, type Fence as MarkdownFence } from "./markdown.ts";

/**
 * The shell commands of the documentation, read from its Markdown, and what covers each, so a guide
 * cannot rot silently: every command must be run by the docs check or by a named test
 * (`.ci/docs.test.ts`, `npm run test:docs`; `.ci/doc-commands.ts` names the tests).
 */

/** Fence languages whose lines are shell commands. */
const SHELL = new Set(["sh", "bash", "shell", "console"]);

/** A command of a shell block: its logical line (continuations joined, comment dropped) and where it stands. */
export interface DocCommand {
  file: string;
  line: number;
  command: string;
  /** The reason from a `<!-- not-run: reason -->` just above its block, or null. */
  notRun: string | null;
}

/** A fenced block of a Markdown file with the comment lines just above its opening fence (blank lines skipped). */
interface Fence extends MarkdownFence {
  above: string[];
}

/** The fenced blocks of a Markdown file, each with the comments just above it. */
function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split("\n");
  return readFences(markdown).fences.map((fence) => {
    const above: string[] = [];
    for (let k = fence.line - 2; k >= 0 && (lines[k]!.trim() === "" || lines[k]!.trim().startsWith("<!--")); k--) {
      if (lines[k]!.trim()) above.unshift(lines[k]!.trim());
    }
    return { ...fence, above };
  });
}

/** Where a fence has no language: a command could hide in it unchecked, so every fence names one. */
export function unlabelledFences(markdown: string, file: string): string[] {
  return fencesOf(markdown)
    .filter((fence) => !fence.lang)
    .map((fence) => `${file}:${fence.line}: a fenced block without a language (sh, text, json, ...)`);
}

/**
 * One physical line of shell read from inside `quote` (the quote still open from the lines above,
 * or null): its code without a trailing `# comment` (a `#` after a blank, outside quotes) and the
 * quote still open at its end. Single quotes know no escapes, as in the shell.
 */
function scanLine(line: string, quote: string | null): { code: string; quote: string | null } {
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === "\\") i++;
    else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return { code: line.slice(0, i), quote };
  }
  return { code: line, quote };
}

/** A command as the manifest names it: blanks collapsed, so alignment in a doc does not matter. */
export function normalizeCommand(command: string): string {
  return command.replace(/\s+/g, " ").trim();
}

/**
 * Every command of the shell blocks (sh, bash, shell, console) of a Markdown file. A line ending in
 * `\` or inside an open quote continues on the next; in a console block only lines after `$ ` are
 * commands (the rest is output).
 */
export function shellCommands(markdown: string, file: string): DocCommand[] {
  const commands: DocCommand[] = [];
  for (const fence of fencesOf(markdown)) {
    if (!SHELL.has(fence.lang)) continue;
    const notRun = fence.above.map((c) => /^<!--\s*not-run:\s*(.*?)\s*-->$/.exec(c)?.[1]).find((r) => r) ?? null;
    let pending: { code: string[]; line: number; quote: string | null } | null = null;
    const finish = (open: { code: string[]; line: number }) => {
      commands.push({ file, line: open.line, command: normalizeCommand(open.code.map((code) => code.replace(/\\\s*$/, " ")).join("\n")), notRun });
    };
    fence.lines.forEach((raw, index) => {
      let text = raw;
      if (!pending) {
        if (fence.lang === "console") {
          if (!/^\s*\$ /.test(text)) return;
          text = text.replace(/^\s*\$ /, "");
        }
        if (!text.trim() || text.trim().startsWith("#")) return;
        pending = { code: [], line: fence.line + 1 + index, quote: null };
      }
      const scanned = scanLine(text, pending.quote);
      pending.code.push(scanned.code);
      pending.quote = scanned.quote;
      if (scanned.quote || /\\\s*$/.test(scanned.code)) return;
      finish(pending);
      pending = null;
    });
    if (pending) finish(pending);
  }
  return commands;
}

/**
 * The `npm ...` commands written inline in prose (code spans outside fenced blocks): not run, but
 * the npm scripts they name are checked like those of the shell blocks.
 */
export function inlineNpmCommands(markdown: string, file: string): DocCommand[] {
  const commands: DocCommand[] = [];
  for (const { line, text } of readFences(markdown).prose) {
    for (const span of text.matchAll(/`(npm [^`]+)`/g)) commands.push({ file, line, command: normalizeCommand(span[1]!), notRun: "written inline" });
  }
  return commands;
}

/**
 * The stages in which `.ci/docs.test.ts` runs doc commands for real, each a folder and environment
 * one of its tests prepares: the repository itself, a folder with a SQLite database, a PostgreSQL database.
 */
export const RUN_STAGES = ["repo", "sqlite", "postgres"] as const;
export type RunStage = (typeof RUN_STAGES)[number];

/**
 * How a command is covered. `run`: `.ci/docs.test.ts` runs it for real, in the named stage (one of
 * `RUN_STAGES`), and its output must match `expect`. `test`: the named
 * test runs it, or its equivalent through the same code path; `shows` are strings that test's body
 * must contain (the command's arguments as the test passes them, however the lines are wrapped). `script`: a script of the
 * repository runs it (`.ci/run` runs `npm test`); `shows` are strings the script must contain.
 */
export type Coverage =
  | { run: RunStage; expect?: RegExp }
  | { test: { file: string; name: string; shows: string[] } }
  | { script: { file: string; shows: string[] } };

/**
 * `code` without the layout a formatter may change: no whitespace after an opening bracket or a comma,
 * before a closing bracket or as a trailing comma, other runs of whitespace as one space.
 */
const withoutLayout = (code: string): string =>
  code
    .replace(/\s+/g, " ")
    .replace(/([([{,]) /g, "$1")
    .replace(/ ([)\]}])/g, "$1")
    .replace(/,([)\]}])/g, "$1");

/** The body of the test named `name` in `source`: from its `it("name"` up to the next test. */
function testBody(source: string, name: string): string | null {
  const escaped = JSON.stringify(name).slice(1, -1);
  const start = [`it("${escaped}"`, `test("${escaped}"`, `it('${name}'`, `it(\`${name}\``].map((s) => source.indexOf(s)).find((i) => i >= 0);
  if (start === undefined) return null;
  const next = source.slice(start + 3).search(/\n\s*(it|test|describe)(\.\w+)?\(/);
  return source.slice(start, next < 0 ? source.length : start + 3 + next);
}

/**
 * What is wrong with the coverage of `commands`: a command without an entry (and no `not-run`
 * reason), an entry run in a stage that is not one of `RUN_STAGES` (it would never run), or an
 * entry whose test file, test or shown arguments are not there.
 */
export function uncoveredCommands(commands: DocCommand[], coverage: Record<string, Coverage>, root: string): string[] {
  const problems: string[] = [];
  for (const command of commands) {
    const entry = coverage[command.command];
    const where = `${command.file}:${command.line}: \`${command.command}\``;
    if (!entry) {
      if (command.notRun === null)
        problems.push(
          `${where} is run by no test: run it in .ci/docs.test.ts, name the test that runs it in .ci/doc-commands.ts, or mark its block <!-- not-run: reason -->`,
        );
      continue;
    }
    if ("run" in entry) {
      if (!(RUN_STAGES as readonly string[]).includes(entry.run))
        problems.push(`${where} is run in the stage "${entry.run}", which .ci/docs.test.ts does not run (${RUN_STAGES.join(", ")})`);
      continue;
    }
    const named = "test" in entry ? entry.test : entry.script;
    const path = join(root, named.file);
    if (!existsSync(path)) {
      problems.push(`${where}: ${named.file} does not exist`);
      continue;
    }
    let body = readFileSync(path, "utf8");
    if ("test" in entry) {
      const found = testBody(body, entry.test.name);
      if (found === null) {
        problems.push(`${where}: ${entry.test.file} has no test "${entry.test.name}"`);
        continue;
      }
      body = found;
    }
    for (const shown of named.shows) {
      if (!withoutLayout(body).includes(withoutLayout(shown)))
        problems.push(`${where}: ${"test" in entry ? `the test "${entry.test.name}"` : named.file} does not contain ${JSON.stringify(shown)}`);
    }
  }
  return problems;
}

/**
 * `npm start`, `npm test` and `npm run <name>` in `commands` whose script the root package.json
 * (or, with `-w`, that workspace's) does not define: a renamed script breaks even a command no test runs.
 */
export function missingNpmScripts(commands: DocCommand[], root: string): string[] {
  const manifest = (folder: string): { name?: string; scripts?: Record<string, string> } =>
    JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8"));
  const workspaces = new Map<string, string>();
  for (const folder of ["e2e", ...readdirSync(join(root, "packages")).map((name) => `packages/${name}`)]) {
    if (existsSync(join(root, folder, "package.json"))) workspaces.set(manifest(folder).name ?? folder, folder);
  }
  const problems: string[] = [];
  for (const command of commands) {
    // A package's own README may name its own scripts, run in its folder.
    const own = dirname(command.file);
    for (const match of command.command.matchAll(/\bnpm (start|test|run(?: --silent)? (\w[\w:.-]*))((?: -w \S+)?)/g)) {
      const name = match[2] ?? match[1]!;
      const workspace = /-w (\S+)/.exec(match[3] ?? "")?.[1];
      const folder = workspace === undefined ? "." : workspaces.get(workspace);
      const defines = (at: string) => name in (manifest(at).scripts ?? {});
      if (
        folder === undefined ||
        !(defines(folder) || (workspace === undefined && own !== "." && existsSync(join(root, own, "package.json")) && defines(own)))
      ) {
        problems.push(`${command.file}:${command.line}: \`${command.command}\` runs the npm script "${name}", which ${folder ?? workspace} does not define`);
      }
    }
  }
  return problems;
}
