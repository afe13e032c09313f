/**
 * Typed reading of decoded form parameters, failing the way Stripe fails: unknown parameters are refused
 * (`parameter_unknown`), malformed integers give `parameter_invalid_integer`, an empty string for a
 * parameter that cannot be unset gives `parameter_invalid_empty`, and the `param` field names the culprit
 * in Stripe's bracket spelling (`automatic_payment_methods[enabled]`).
 */
import { invalidParam, unknownParam } from "./errors.ts";
import { asList, type FormObject, type FormValue } from "./form.ts";

/** Reads one request's parameters; construction refuses any top-level name not in `allowed`. */
export class Params {
  constructor(
    private readonly raw: FormObject,
    allowed: readonly string[],
    private readonly prefix = "",
  ) {
    for (const name of Object.keys(raw)) if (!allowed.includes(name)) throw unknownParam(this.path(name));
  }

  /** The parameter's name as Stripe reports it, e.g. `payment_method_data[card][number]`. */
  path(name: string): string {
    return this.prefix ? `${this.prefix}[${name}]` : name;
  }

  /** Whether the parameter was sent at all. */
  has(name: string): boolean {
    return this.raw[name] !== undefined;
  }

  /** The raw value, for parameters read as a whole (metadata). */
  value(name: string): FormValue | undefined {
    return this.raw[name];
  }

  /**
   * A string parameter. `""` means "unset" to Stripe: it gives `null` where the parameter may be unset,
   * and an error where it may not.
   */
  string(name: string, options: { unsettable?: boolean } = {}): string | null | undefined {
    const value = this.raw[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string") throw invalidParam(this.path(name), `Invalid string: ${this.path(name)} must be a string, not a hash.`);
    if (value === "") {
      if (options.unsettable) return null;
      throw invalidParam(
        this.path(name),
        `You passed an empty string for '${this.path(name)}'. We assume empty values are an attempt to unset a parameter; however '${this.path(name)}' cannot be unset. You should remove '${this.path(name)}' from your request or supply a non-empty value.`,
        "parameter_invalid_empty",
      );
    }
    return value;
  }

  /** A string parameter that may not be unset. */
  text(name: string): string | undefined {
    return this.string(name) ?? undefined;
  }

  /** An integer parameter, at least `min` when given. */
  integer(name: string, min?: number): number | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) throw invalidParam(this.path(name), `Invalid integer: ${value}`, "parameter_invalid_integer");
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw invalidParam(this.path(name), `Invalid integer: ${value}`, "parameter_invalid_integer");
    if (min !== undefined && n < min) throw invalidParam(this.path(name), `This value must be greater than or equal to ${min}.`, "parameter_invalid_integer");
    return n;
  }

  /** A boolean parameter, spelled `true` or `false` on the wire. */
  boolean(name: string): boolean | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    if (value !== "true" && value !== "false") throw invalidParam(this.path(name), `Invalid boolean: ${value}`);
    return value === "true";
  }

  /** A string parameter restricted to `choices`. */
  choice<T extends string>(name: string, choices: readonly T[]): T | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    if (!(choices as readonly string[]).includes(value)) {
      throw invalidParam(this.path(name), `Invalid ${this.path(name)}: must be one of ${choices.join(", ")}`);
    }
    return value as T;
  }

  /** A list of strings, sent as `name[0]=a&name[1]=b` or `name[]=a&name[]=b`. */
  list(name: string): string[] | undefined {
    const value = this.raw[name];
    if (value === undefined) return undefined;
    const items = asList(value);
    if (!items?.every((item): item is string => typeof item === "string" && item !== "")) {
      throw invalidParam(this.path(name), `Invalid array: ${this.path(name)} must be a list of strings.`);
    }
    return items;
  }

  /** A nested hash, read with its own list of allowed keys. */
  hash(name: string, allowed: readonly string[]): Params | undefined {
    const value = this.raw[name];
    if (value === undefined) return undefined;
    if (typeof value === "string") throw invalidParam(this.path(name), `Invalid hash: ${this.path(name)} must be a hash, not a string.`);
    return new Params(value, allowed, this.path(name));
  }
}
