const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a uuid in its 8-4-4-4-12 hex form (either case). */
export const isUuid = (value: string): boolean => UUID.test(value);
