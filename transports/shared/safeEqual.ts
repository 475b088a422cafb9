import crypto from "node:crypto"

const SECRET_COMPARE_KEY = crypto.randomBytes(32)

/** Compares keyed digests of the two, so the time taken says nothing of either's length or content. */
export const safeEqual = (a: string, b: string) => {
  const digest = (s: string) => crypto.createHmac("sha256", SECRET_COMPARE_KEY).update(s).digest()
  return crypto.timingSafeEqual(digest(a), digest(b))
}
