import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { z } from "zod";

/**
 * A tool's input as the MCP SDK takes it, made from a TypeBox schema (the wire's shapes are TypeBox,
 * which is JSON Schema). The installed SDK (1.x) accepts only zod for a tool's input: it lists the
 * tool with the JSON Schema zod makes of it and checks arguments with zod. So the schema is turned
 * into zod once, here, by zod's own `z.fromJSONSchema`; what assistants are shown and what is
 * checked are both that one schema. Keys a tool does not name are dropped rather than refused, as
 * before, so a tool passes on only what its schema names. Formats (email, date) are left to the
 * services, which judge every value as they do for the HTTP API and say which field is wrong.
 */
export function toolInput<T extends TObject>(schema: T): z.ZodType<Static<T>> {
  const converted = z.fromJSONSchema(withoutFormats(schema) as z.core.JSONSchema.JSONSchema);
  if (!(converted instanceof z.ZodObject)) throw new TypeError("A tool's input is an object schema.");
  return converted.strip() as unknown as z.ZodType<Static<T>>;
}

/** A tool's output made from a wire schema the same way, so a tool answers exactly the admin API's view. */
export function toolOutput<T extends TSchema>(schema: T): z.ZodType<Static<T>> {
  return z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema) as unknown as z.ZodType<Static<T>>;
}

/** A copy of a JSON Schema without its `format` keywords, at every depth. */
function withoutFormats(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutFormats);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === "format" && typeof value === "string"))
      .map(([key, value]) => [key, withoutFormats(value)]),
  );
}
