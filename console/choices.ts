/** The valid values of the org's settings, as pickers offer them (the API refuses others, or takes them unchecked). */

/** The languages guest mail is written in (engine/services/mail/render.ts); another falls back to English. */
export const LANGUAGES: ReadonlyArray<readonly [string, string]> = [
  ["en", "English"],
  ["nl", "Nederlands (Dutch)"],
  ["de", "Deutsch (German)"],
  ["fr", "Français (French)"],
  ["es", "Español (Spanish)"]
]

const supported = (key: "timeZone" | "currency"): string[] => {
  try {
    return Intl.supportedValuesOf(key)
  } catch {
    return []
  }
}

/** IANA zones the browser knows (Region/City), UTC first; the org's own kept even if this browser lacks it. */
export const zones = (current: string) => {
  const all = ["UTC", ...supported("timeZone").filter((z) => z.includes("/"))]
  return all.includes(current) || current === "" ? all : [current, ...all]
}

const names = (() => {
  try {
    return new Intl.DisplayNames(["en"], { type: "currency" })
  } catch {
    return undefined
  }
})()

/** ISO 4217 codes in use, with their English names. */
export const currencies = (current: string): Array<readonly [string, string]> => {
  const codes = supported("currency")
  const list = codes.includes(current) || current === "" ? codes : [current, ...codes]
  return list.map((c) => [c, `${c} · ${names?.of(c) ?? c}`] as const)
}

/** The languages offered: the org's own first when it is not one of them (so saving keeps it). */
export const languages = (current: string) =>
  LANGUAGES.some(([code]) => code === current) || current === ""
    ? LANGUAGES
    : [[current, `${current} (mail in English)`] as const, ...LANGUAGES]
