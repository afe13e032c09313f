import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { readFences } from "./markdown.ts";

/**
 * The links between the documentation's Markdown files: each must reach a file and, after `#`, a
 * heading that exist (`.ci/docs.test.ts`, `npm run test:docs`).
 */

/** GitHub's anchor of a heading: lowercase, punctuation dropped, blanks made hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown file's headings, outside fenced blocks (a repeated heading gets `-1`, `-2`, ...). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of readFences(markdown).prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = anchorOf(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

/** A link of a Markdown file to a file of the repository or a heading: `[text](target)` outside code. */
export interface DocLink {
  file: string;
  line: number;
  target: string;
}

/** The relative links (not `http:`, `mailto:` or the like) of a Markdown file, outside fenced blocks and code spans. */
export function relativeLinks(markdown: string, file: string): DocLink[] {
  const links: DocLink[] = [];
  for (const { line, text } of readFences(markdown).prose) {
    const prose = text.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ file, line, target });
    }
  }
  return links;
}

/** Links among `files` (absolute paths of Markdown files) whose file or `#anchor` does not exist. */
export function brokenLinks(files: string[], root: string): string[] {
  const problems: string[] = [];
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => {
    if (!anchors.has(path)) anchors.set(path, anchorsOf(readFileSync(path, "utf8")));
    return anchors.get(path)!;
  };
  for (const file of files) {
    for (const link of relativeLinks(readFileSync(file, "utf8"), relative(root, file))) {
      const [pathPart, anchor] = link.target.split("#", 2) as [string, string | undefined];
      const target = pathPart ? resolve(dirname(file), decodeURIComponent(pathPart)) : file;
      const where = `${link.file}:${link.line}: ${link.target}`;
      if (!existsSync(target)) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!target.endsWith(".md")) problems.push(`${where}: an anchor into a file that is not Markdown`);
      else if (!anchorsIn(target).has(anchor)) problems.push(`${where}: ${relative(root, target)} has no heading #${anchor}`);
    }
  }
  return problems;
}
