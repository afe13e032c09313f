/**
 * Import cycles between files: which files import which, and the loops among them. The project
 * keeps none (configuration knows nothing of HTTP; a flow does not import its views), and
 * `import-cycles.test.ts` fails on any that appears, naming the files and lines of the loop.
 *
 * Every import of a file counts: static `import` and `export ... from`, `import type` (a loop of
 * types still ties two files so neither reads without the other), side-effect imports, and
 * `import("...")` with a literal string, in code or in a type. Only relative specifiers are followed:
 * a package's name (`@booking/wire`, `lit`) is left out, so a loop between packages is not seen here.
 * Comments, strings and template text are skipped, so an import written in a doc comment or in a
 * page's script text is not taken for one.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** One import of a file: the specifier as written, and the line it is on. */
export interface ImportLine {
  specifier: string;
  line: number;
}

/** An import that names a file of the tree: which file, from which line. */
export interface ImportEdge {
  from: string;
  to: string;
  line: number;
}

/** Files, by absolute path, with the imports of each that name a file. */
export type ImportGraph = Map<string, ImportEdge[]>;

/** A loop of imports: each edge's `to` is the next edge's `from`, the last one's the first one's. */
export type ImportCycle = ImportEdge[];

/** Extensions of files whose imports are read; any other file an import names is a leaf. */
const CODE = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

interface Token {
  kind: "name" | "string" | "value" | "punct";
  text: string;
  line: number;
}

// After these words an expression starts, so a `/` there opens a regular expression, not a division.
const BEFORE_EXPRESSION = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);

/**
 * The source as tokens: names, string literals (with their text), other values (numbers, regular
 * expressions, template literals) and punctuation. Comments and template text are dropped; the
 * expressions inside a template's `${...}` are kept, as they are code.
 */
function tokensOf(source: string): Token[] {
  const tokens: Token[] = [];
  // One entry per open `{`: true when it is a template's `${`, whose `}` returns to the template.
  const braces: boolean[] = [];
  let line = 1;
  let i = 0;

  const newlinesIn = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (source[k] === "\n") line++;
  };
  // Reads template text from `start` up to its end or a `${`; returns where code goes on.
  const template = (start: number, startLine: number): number => {
    let k = start;
    while (k < source.length) {
      const c = source[k];
      if (c === "\\") k += 2;
      else if (c === "`") {
        newlinesIn(start, k);
        tokens.push({ kind: "value", text: "`", line: startLine });
        return k + 1;
      } else if (c === "$" && source[k + 1] === "{") {
        newlinesIn(start, k);
        braces.push(true);
        return k + 2;
      } else k++;
    }
    newlinesIn(start, source.length);
    return source.length;
  };
  const regexAllowed = () => {
    const last = tokens.at(-1);
    if (!last) return true;
    if (last.kind === "name") return BEFORE_EXPRESSION.has(last.text);
    if (last.kind === "punct") return !")]}".includes(last.text);
    return false;
  };

  while (i < source.length) {
    const c = source[i]!;
    if (c === "\n") {
      line++;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      i = end < 0 ? source.length : end;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      newlinesIn(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let k = i + 1;
      let text = "";
      while (k < source.length && source[k] !== c && source[k] !== "\n") {
        if (source[k] === "\\") {
          text += source[k + 1] ?? "";
          k += 2;
        } else text += source[k++];
      }
      tokens.push({ kind: "string", text, line });
      i = k + 1;
    } else if (c === "`") {
      i = template(i + 1, line);
    } else if (c === "{") {
      braces.push(false);
      tokens.push({ kind: "punct", text: c, line });
      i++;
    } else if (c === "}") {
      if (braces.pop()) i = template(i + 1, line);
      else {
        tokens.push({ kind: "punct", text: c, line });
        i++;
      }
    } else if (c === "/" && regexAllowed()) {
      let k = i + 1;
      let inClass = false;
      while (k < source.length && source[k] !== "\n" && (inClass || source[k] !== "/")) {
        if (source[k] === "\\") k++;
        else if (source[k] === "[") inClass = true;
        else if (source[k] === "]") inClass = false;
        k++;
      }
      k++;
      while (k < source.length && /\w/.test(source[k]!)) k++;
      tokens.push({ kind: "value", text: source.slice(i, k), line });
      i = k;
    } else if (/[\p{L}_$]/u.test(c)) {
      const name = /^[\p{L}\p{N}_$]+/u.exec(source.slice(i, i + 200))![0];
      tokens.push({ kind: "name", text: name, line });
      i += name.length;
    } else if (/\d/.test(c)) {
      const number = /^[\w.]+/.exec(source.slice(i, i + 100))![0];
      tokens.push({ kind: "value", text: number, line });
      i += number.length;
    } else {
      tokens.push({ kind: "punct", text: c, line });
      i++;
    }
  }
  return tokens;
}

/**
 * The imports of a module's source: `... from "x"` (imports and re-exports, type-only or not),
 * `import "x"`, and `import("x")` with a literal string.
 */
export function importsOf(source: string): ImportLine[] {
  const tokens = tokensOf(source);
  const found: ImportLine[] = [];
  tokens.forEach((token, at) => {
    if (token.kind !== "name" || tokens[at - 1]?.text === ".") return;
    const next = tokens[at + 1];
    // `from` followed by a string is only ever the end of an import or re-export clause.
    if ((token.text === "from" || token.text === "import") && next?.kind === "string") {
      found.push({ specifier: next.text, line: next.line });
    } else if (token.text === "import" && next?.text === "(") {
      const argument = tokens[at + 2];
      if (argument?.kind === "string" && (tokens[at + 3]?.text === ")" || tokens[at + 3]?.text === ",")) found.push({ specifier: argument.text, line: argument.line });
    }
  });
  return found;
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** The file a relative specifier names from `importer`, as TypeScript's bundler resolution finds it; null for packages and missing files. */
export function resolveImport(importer: string, specifier: string): string | null {
  if (!/^\.\.?(\/|$)/.test(specifier)) return null;
  const base = resolve(dirname(importer), specifier.replace(/[?#].*$/, ""));
  const candidates = [
    base,
    ...CODE.map((extension) => base + extension),
    // `./x.js` names `./x.ts` in TypeScript sources.
    ...(/\.[cm]?jsx?$/.test(base) ? [base.replace(/\.([cm]?)js(x?)$/, ".$1ts$2")] : []),
    ...CODE.map((extension) => join(base, `index${extension}`)),
  ];
  return candidates.find(isFile) ?? null;
}

/** The code files under `folder`, at any depth, leaving out `node_modules` and `dist`. */
export function codeFilesUnder(folder: string): string[] {
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "dist" ? [] : codeFilesUnder(path);
    return CODE.some((extension) => entry.name.endsWith(extension)) ? [path] : [];
  });
}

/** The import graph of `files` and of every file their relative imports reach, at any depth. */
export function importGraph(files: string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  const queue = files.map((file) => resolve(file));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (graph.has(file)) continue;
    const code = CODE.some((extension) => file.endsWith(extension));
    const edges = code
      ? importsOf(readFileSync(file, "utf8")).flatMap(({ specifier, line }) => {
          const to = resolveImport(file, specifier);
          return to === null ? [] : [{ from: file, to, line }];
        })
      : [];
    graph.set(file, edges);
    queue.push(...edges.map((edge) => edge.to));
  }
  return graph;
}

/**
 * One loop for every group of files that import each other, directly or through others (a file
 * that imports itself too): the shortest loop through the group's first file by path. Groups come
 * sorted by that file.
 */
export function importCycles(graph: ImportGraph): ImportCycle[] {
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const { to } of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      groups.push(group);
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);

  return groups
    .filter((group) => group.length > 1 || (graph.get(group[0]!) ?? []).some((edge) => edge.to === group[0]))
    .map((group) => shortestLoop(graph, new Set(group), [...group].sort()[0]!))
    .sort((a, b) => a[0]!.from.localeCompare(b[0]!.from));
}

/** The shortest path of imports from `start` back to itself, staying inside `group` (breadth first). */
function shortestLoop(graph: ImportGraph, group: Set<string>, start: string): ImportCycle {
  const cameBy = new Map<string, ImportEdge>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    for (const edge of graph.get(queue[at]!) ?? []) {
      if (!group.has(edge.to)) continue;
      if (edge.to === start) {
        const loop = [edge];
        while (loop[0]!.from !== start) loop.unshift(cameBy.get(loop[0]!.from)!);
        return loop;
      }
      if (!cameBy.has(edge.to)) {
        cameBy.set(edge.to, edge);
        queue.push(edge.to);
      }
    }
  }
  throw new Error(`${start} is in no loop of its group`);
}

/** A loop as a line to read: `a.ts:2 -> b.ts:5 -> a.ts`, each file with the line of its import of the next, paths from `root`. */
export function describeCycle(cycle: ImportCycle, root: string): string {
  return [...cycle.map((edge) => `${relative(root, edge.from)}:${edge.line}`), relative(root, cycle[0]!.from)].join(" -> ");
}
