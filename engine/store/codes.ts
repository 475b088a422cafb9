import { randomBytes, randomInt } from "node:crypto"

const ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"

/** A short reference the guest reads out: 8 characters without look-alikes (0/O, 1/I/L, U). */
export const newReference = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("")

const HANDLE_BYTES = 18
/** Random bytes for handles, drawn from the system 256 handles at a time (one call each was 5 µs); none is used twice. */
let pool = Buffer.alloc(0)
let at = 0

/** The guest page handle and the waiver signing token: unguessable (144 random bits). */
export const newHandle = () => {
  if (at + HANDLE_BYTES > pool.length) {
    pool = randomBytes(HANDLE_BYTES * 256)
    at = 0
  }
  const handle = pool.toString("base64url", at, at + HANDLE_BYTES)
  at += HANDLE_BYTES
  return handle
}
