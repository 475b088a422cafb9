/** What the admin API answers for a new org: the org and its first secret key. */
export interface NewOrg {
  readonly org: { readonly id: string }
  readonly api_key: { readonly id: string; readonly key: string }
}

/**
 * A JSON client of a bench's own engine at `url`: an answer of 300 or more throws with its text; otherwise its body,
 * typed by the caller as what that operation answers (unknown when the caller does not read it).
 */
export const jsonClient =
  (url: string) =>
  async <T>(key: string, method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }
