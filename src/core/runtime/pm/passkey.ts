import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt parameters stored beside each hash so they can be raised later without breaking old rows. */
export interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly keylen: number;
}

export const defaultScryptParams: ScryptParams = { N: 16384, r: 8, p: 1, keylen: 32 };

export interface PasskeyHash {
  readonly hash: string;
  readonly salt: string;
  readonly params: ScryptParams;
}

function derive(passkey: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      passkey,
      salt,
      params.keylen,
      { N: params.N, r: params.r, p: params.p, maxmem: 64 * 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** Hashes a passkey with a fresh random salt; only the hash, salt and parameters are stored. */
export async function hashPasskey(passkey: string, params: ScryptParams = defaultScryptParams): Promise<PasskeyHash> {
  const salt = randomBytes(16);
  const key = await derive(passkey, salt, params);
  return { hash: key.toString('base64'), salt: salt.toString('base64'), params };
}

/** Compares in constant time; a malformed stored hash is a mismatch, never an error. */
export async function verifyPasskey(passkey: string, stored: PasskeyHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  if (expected.length !== stored.params.keylen) return false;
  const key = await derive(passkey, Buffer.from(stored.salt, 'base64'), stored.params);
  return timingSafeEqual(key, expected);
}

/** A new session token (returned once) and the SHA-256 digest the store keeps. */
export function newSessionToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashSessionToken(token) };
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
