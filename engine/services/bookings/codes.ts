import { randomBytes, randomInt } from "node:crypto"

const ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"

/** A short reference the guest reads out: 8 characters without look-alikes (0/O, 1/I/L, U). */
export const newReference = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("")

/** The guest page handle and the waiver signing token: unguessable. */
export const newHandle = () => randomBytes(18).toString("base64url")
