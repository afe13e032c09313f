/**
 * Decoding of Stripe's form-encoded parameters.
 *
 * Stripe's v1 API takes `application/x-www-form-urlencoded` bodies (and query strings for GET) in which
 * nesting is spelled with brackets: `metadata[reservation_uuid]=...`, `automatic_payment_methods[enabled]=true`,
 * lists as `payment_method_types[0]=card` (what stripe-node sends) or `payment_method_types[]=card`
 * (what curl users and some clients send). The official SDK leaves the brackets unencoded; other clients
 * send `%5B`/`%5D`; both decode to the same tree here.
 */

/** A decoded parameter: a string leaf, or a branch keyed by name (lists are branches keyed "0", "1", ...). */
export type FormValue = string | FormObject;

/** A branch of decoded parameters. */
export interface FormObject {
  [key: string]: FormValue;
}

/** A body or query string that cannot be read as Stripe form parameters; `param` names the culprit. */
export class FormError extends Error {
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

/** Splits `a[b][]` into `["a", "b", ""]`; a key that does not follow the bracket grammar stays whole. */
function keyPath(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const path = [key.slice(0, open)];
  const rest = key.slice(open);
  const groups = rest.match(/\[[^[\]]*\]/g);
  if (!groups || groups.join("") !== rest) return [key];
  for (const group of groups) path.push(group.slice(1, -1));
  return path;
}

function decodeComponent(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    throw new FormError(`Invalid request: could not decode ${JSON.stringify(raw)} as a URL-encoded form value.`);
  }
}

/**
 * Decodes a form body or query string (without the leading `?`) into a tree of strings.
 * An empty list index (`a[]`) appends, so `a[]=x&a[]=y` and `a[0]=x&a[1]=y` decode alike.
 * A repeated leaf keeps its last value, as Stripe does.
 */
export function decodeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const pair of body.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = decodeComponent(eq === -1 ? "" : pair.slice(eq + 1));
    if (key === "") continue;
    assign(root, keyPath(key), value, key);
  }
  return root;
}

function assign(root: FormObject, path: string[], value: string, fullKey: string): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    let segment = path[i]!;
    if (segment === "") segment = String(Object.keys(node).length);
    if (i === path.length - 1) {
      if (typeof node[segment] === "object") throw new FormError(`Invalid hash: ${fullKey} is sent both as a value and as a hash.`, path[0]);
      node[segment] = value;
      return;
    }
    const next = node[segment];
    if (next === undefined) {
      const branch: FormObject = {};
      node[segment] = branch;
      node = branch;
    } else if (typeof next === "string") {
      throw new FormError(`Invalid hash: ${fullKey} nests under a parameter that was sent as a value.`, path[0]);
    } else {
      node = next;
    }
  }
}

/**
 * Reads a branch as a list when its keys are 0..n-1 (in any order), as Stripe reads indexed arrays;
 * `undefined` when it is not a list.
 */
export function asList(value: FormValue | undefined): FormValue[] | undefined {
  if (value === undefined || typeof value === "string") return undefined;
  const keys = Object.keys(value);
  if (!keys.every((k) => /^(0|[1-9]\d*)$/.test(k))) return undefined;
  const sorted = keys.map(Number).sort((a, b) => a - b);
  if (!sorted.every((n, i) => n === i)) return undefined;
  return sorted.map((n) => value[String(n)]!);
}

/** A stable text form of decoded parameters, for telling whether two requests asked the same thing. */
export function fingerprint(value: FormValue): string {
  if (typeof value === "string") return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${fingerprint(value[k]!)}`).join(",")}}`;
}
