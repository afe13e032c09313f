import { Type, type SchemaOptions, type TLiteral, type TUnion } from "@sinclair/typebox";

/** One literal schema per value of a list of kinds, in order. */
type Literals<T extends readonly string[]> = { [K in keyof T]: TLiteral<T[K] & string> };

/**
 * A schema of one of the values of a list of kinds (`RESERVATION_STATUSES`, `LOCATION_TYPES`, ...),
 * typed as the union of those values: mapping the list to literals by hand types each as a plain
 * array, whose static type Elysia's route checks read as `never`.
 */
export const oneOf = <const T extends readonly string[]>(values: T, options?: SchemaOptions): TUnion<[...Literals<T>]> =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as unknown as TUnion<[...Literals<T>]>;
