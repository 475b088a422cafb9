/**
 * An email as a booker may see it: the first character of its local part, an ellipsis, and the domain
 * (`ada@example.com` -> `a…@example.com`). The length of the local part is not shown.
 */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf("@")
  if (at <= 0) return "…"
  return `${Array.from(email.slice(0, at))[0]}…${email.slice(at)}`
}
