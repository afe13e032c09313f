/**
 * The fenced code blocks of a Markdown file and the lines outside them, read by one rule for the
 * docs check's commands (`markdown-commands.ts`) and links (`markdown-links.ts`): CommonMark's. A
 * fence opens with three or more backticks or tildes and closes with a line of the same character,
 * at least as many, and nothing after them but blanks; a fence never closed runs to the end of the
 * file. Indentation is not counted, so a fence inside a list item is read like any other.
 */

/** A fenced block of a Markdown file. */
export interface Fence {
  /** The language its opening fence names, lowercased ("" for none). */
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** Its lines between the fences. */
  lines: string[];
}

/** A line of a Markdown file outside fenced blocks, with its 1-based number. */
export interface ProseLine {
  line: number;
  text: string;
}

/** A Markdown file read as its fenced blocks and the lines outside them (the fences' own lines are in neither). */
export function readFences(markdown: string): { fences: Fence[]; prose: ProseLine[] } {
  const fences: Fence[] = [];
  const prose: ProseLine[] = [];
  let open: { fence: Fence; marker: string } | null = null;
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!;
    if (open) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(text)?.[1];
      if (close && close[0] === open.marker[0] && close.length >= open.marker.length) open = null;
      else open.fence.lines.push(text);
      continue;
    }
    // A backtick fence's info string holds no backtick (CommonMark): such a line is inline code.
    const opening = /^\s*(`{3,}|~{3,})(.*)$/.exec(text);
    if (opening && !(opening[1]![0] === "`" && opening[2]!.includes("`"))) {
      open = { fence: { lang: /^\s*([\w-]*)/.exec(opening[2]!)![1]!.toLowerCase(), line: index + 1, lines: [] }, marker: opening[1]! };
      fences.push(open.fence);
      continue;
    }
    prose.push({ line: index + 1, text });
  }
  return { fences, prose };
}
