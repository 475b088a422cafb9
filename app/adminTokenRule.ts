/** The shortest admin token the engine takes: the admin API creates orgs and keys, so it must not be guessable. */
export const ADMIN_TOKEN_MIN = 24

/**
 * Tokens shown in this project's examples and compose file, which anyone can read: refused as they are, and so is
 * anything that reads as a placeholder someone forgot to replace.
 */
const DOCUMENTED = ["change-me-to-a-long-random-token", "change-me-to-a-long-secret"]
const PLACEHOLDER = /^(change[-_ .]?me|changeme|replace[-_ .]?me|your[-_ .]|set[-_ .]?me|todo|example|placeholder|xxx)/i

/** Why an admin token will not do (one sentence after the variable's name), or undefined when it will. */
export const adminTokenProblem = (token: string): string | undefined => {
  if (DOCUMENTED.includes(token.toLowerCase()) || PLACEHOLDER.test(token))
    return "is a placeholder from the documentation: set it to a long random token (openssl rand -hex 24)"
  if (token.length < ADMIN_TOKEN_MIN)
    return `must be at least ${ADMIN_TOKEN_MIN} characters (a long random token: openssl rand -hex 24)`
  return undefined
}
