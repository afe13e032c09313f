/** A successful envelope with its payload. */
export function ok<T>(data: T, message?: string): { success: true; message?: string; data: T } {
  return message === undefined ? { success: true, data } : { success: true, message, data };
}

/** A successful envelope with only a message (e.g. cancel). */
export function done(message: string): { success: true; message: string } {
  return { success: true, message };
}
