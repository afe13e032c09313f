import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

// Encryption at rest of the secrets the server must be able to use again: calendar passwords and
// tokens, and webhook signing secrets. API tokens are different: only their hashes are stored.

/** Bytes of a key: AES-256. */
const KEY_BYTES = 32;
/** Bytes of a GCM nonce, fresh for every value sealed. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Marks a sealed value; what follows is `<keyId>:<iv>:<ciphertext and tag>`, both base64url. */
const PREFIX = "enc:v1:";
const SEALED = /^enc:v1:([0-9a-f]{8}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

/**
 * What a sealed value is for. It is bound into the value's tag, so a calendar password copied into
 * the webhook secret's column (or back) does not open.
 */
export type SecretPurpose = "calendar" | "webhook";

/** An encryption key with the short id sealed values name it by. */
export interface SecretKey {
  /** First 8 hex digits of a hash of the key: tells which key sealed a value, reveals nothing of it. */
  id: string;
  bytes: Buffer;
}

/** A stored secret that none of the keys given can open: which key sealed it, and how to fix that. */
export class SecretKeyError extends Error {
  override readonly name = "SecretKeyError";
}

/** The key of 32 bytes, with its id. */
export function secretKeyOf(bytes: Buffer): SecretKey {
  if (bytes.length !== KEY_BYTES) throw new Error(`a secret key has ${KEY_BYTES} bytes, got ${bytes.length}`);
  return { id: createHash("sha256").update("booking-calendar secret key\0").update(bytes).digest("hex").slice(0, 8), bytes };
}

/**
 * A key as written in the environment: 32 bytes in base64 (`openssl rand -base64 32`) or in hex
 * (`openssl rand -hex 32`). Errors name the setting, never the value.
 */
export function parseSecretKey(text: string, setting: string): SecretKey {
  const value = text.trim();
  let bytes: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(value)) bytes = Buffer.from(value, "hex");
  else if (/^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(value)) bytes = Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (!bytes || bytes.length !== KEY_BYTES) {
    throw new Error(`${setting} must be 32 random bytes in base64 or hex; make one with: openssl rand -base64 32`);
  }
  return secretKeyOf(bytes);
}

/**
 * Seals secrets with the current key (AES-256-GCM, a fresh nonce each time) and opens what the
 * current or an older key sealed. Sealed values read `enc:v1:<keyId>:<iv>:<ciphertext+tag>`.
 */
export class SecretBox {
  private readonly keys: Map<string, SecretKey>;

  constructor(
    readonly current: SecretKey,
    old: SecretKey[] = [],
  ) {
    this.keys = new Map([...old, current].map((k) => [k.id, k]));
  }

  /** A box with a key made for this process alone: for tests and throwaway stores, as what it seals cannot be opened after the process ends. */
  static forThisProcess(): SecretBox {
    return (processBox ??= new SecretBox(secretKeyOf(randomBytes(KEY_BYTES))));
  }

  seal(plain: string, purpose: SecretPurpose): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.current.bytes, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.current.id}:${iv.toString("base64url")}:${body.toString("base64url")}`;
  }

  /** The plain secret of a sealed value; a value stored before encryption (not sealed) as it is. */
  open(stored: string, purpose: SecretPurpose): string {
    const sealed = SEALED.exec(stored);
    if (!sealed) return stored;
    const [, keyId, iv, body] = sealed as unknown as [string, string, string, string];
    const key = this.keys.get(keyId);
    if (!key)
      throw new SecretKeyError(
        `it was encrypted with key ${keyId}, which is neither BOOKING_SECRET_KEY (key ${this.current.id}) nor listed in BOOKING_SECRET_KEYS_OLD; set the key it was encrypted with`,
      );
    const bytes = Buffer.from(body, "base64url");
    try {
      const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretKeyError(`it does not decrypt with key ${keyId} (altered, or moved from another column)`);
    }
  }

  /**
   * The value to store instead of `stored`, when it is plain or sealed with an older key; null when
   * the current key sealed it. Throws SecretKeyError when no key given opens it.
   */
  resealed(stored: string, purpose: SecretPurpose): string | null {
    if (SEALED.exec(stored)?.[1] === this.current.id) {
      this.open(stored, purpose);
      return null;
    }
    return this.seal(this.open(stored, purpose), purpose);
  }
}

let processBox: SecretBox | undefined;

/**
 * The development key kept in the file at `path`: read when it exists, else made and written there
 * (readable by its owner only). Two processes starting together agree: the one that loses the race
 * to create the file reads the winner's key.
 */
export function keyFromFile(path: string): { key: SecretKey; created: boolean } {
  const read = () => parseSecretKey(readFileSync(path, "utf8"), `the key file ${path}`);
  try {
    return { key: read(), created: false };
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  const bytes = randomBytes(KEY_BYTES);
  // Written whole under a name of its own, then linked into place: a reader never sees half a key.
  const draft = `${path}.${process.pid}.tmp`;
  writeFileSync(draft, `${bytes.toString("base64")}\n`, { mode: 0o600 });
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return { key: read(), created: false };
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return { key: secretKeyOf(bytes), created: true };
}
